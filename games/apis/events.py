"""Recording: events appended to a game, a dry run of them, an entry corrected."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import Role
from games import services
from games.apis.base import (
    IDEMPOTENCY_HEADER,
    ConflictSerializer,
    EngineRejectionSerializer,
    GamesApi,
    game_names_and_face,
)
from games.apis.idempotency import answered_once
from games.apis.serializers import GameDetailSerializer, GameEventOutputSerializer
from games.checks import MAX_EVENT_BYTES, MAX_EVENTS_PER_REQUEST, MAX_SEQ, has_nul, json_size
from games.presenters import game_data


def appended_data(appended: services.Appended, *, answer: str = "full") -> dict[str, Any]:
    """The answer to an append: the game after it with all its events, or (``answer="new"``)
    only the new ones; the players' names are those the append read with its lock."""
    rows = appended.new_rows if answer == "new" else appended.rows
    return game_data(
        appended.game,
        record=appended.record,
        rows=rows,
        names=appended.names,
        state=appended.state,
    )


class GameAppendAnswerSerializer(GameDetailSerializer):
    """The answer to an append: the game as ``GET /api/games/{id}/`` shows it after the append.

    ``state``, ``result``, ``status`` and ``last_seq`` are always those after the
    append. ``events`` holds every event of the game by default; a request with
    ``"answer": "new"`` gets only the events it appended (``seq`` from
    ``expected_seq + 1`` to ``last_seq``), which is what the recording page asks
    for: it already has the others, and a long game's whole stream in every
    answer (and in its stored idempotent copy) is most of an append's cost.
    """

    events = GameEventOutputSerializer(
        many=True,
        help_text=(
            'Every event of the game; with "answer": "new" only the appended ones '
            "(seq expected_seq + 1 .. last_seq)."
        ),
    )


class GameEventAppendApi(GamesApi):
    """Record events: ``expected_seq`` is the ``last_seq`` the client saw.

    409 with ``current_seq`` if someone recorded in between; 422 with the
    engine's error if the record would become invalid (nothing is written; the
    error's ``index`` counts the stored events first, ``event_offset`` of them).
    """

    class InputSerializer(serializers.Serializer[Any]):
        expected_seq = serializers.IntegerField(min_value=0, max_value=MAX_SEQ)
        events = serializers.ListField(
            child=serializers.DictField(),
            min_length=1,
            max_length=MAX_EVENTS_PER_REQUEST,
            help_text="Event objects as in the record format (spec/event-stream.md).",
        )
        answer = serializers.ChoiceField(
            choices=[("full", "full"), ("new", "new")],
            required=False,
            default="full",
            help_text=(
                "full (default): the answer lists every event of the game; new: only the "
                "events this request appended (the rest of the answer is the same)."
            ),
        )
        dry_run = serializers.BooleanField(
            required=False,
            default=False,
            help_text=(
                "true: judge the events as for a real append and answer (200) with the game as "
                "it would be; nothing is written (no event, no idempotency record, no ledger)."
            ),
        )
        correct = serializers.IntegerField(
            min_value=0,
            required=False,
            allow_null=True,
            default=None,
            help_text=(
                "Correct an entry found wrong in hindsight: the position of the stored "
                "event (as the engine's error index names it) that events[0] replaces. "
                "The append undoes back to it, appends events[0], the later events "
                "again and then events[1:] — all or nothing."
            ),
        )
        stop_at_misfit = serializers.BooleanField(
            required=False,
            default=False,
            help_text=(
                "With correct and one event: where a later entry no longer fits the "
                "corrected game, stop before it (the answer's left_out lists it and the "
                "ones after, misfit the engine's error) instead of refusing it all."
            ),
        )

        def validate_events(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
            for i, event in enumerate(events):
                if has_nul(event):
                    raise serializers.ValidationError(
                        _("Event %(i)d contains a NUL character.") % {"i": i}
                    )
                if json_size(event) > MAX_EVENT_BYTES:
                    raise serializers.ValidationError(
                        _("Event %(i)d is larger than %(n)d bytes.")
                        % {"i": i, "n": MAX_EVENT_BYTES}
                    )
            return events

    @extend_schema(
        request=InputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={
            200: GameAppendAnswerSerializer,
            201: GameAppendAnswerSerializer,
            409: ConflictSerializer,
            422: EngineRejectionSerializer,
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        try:
            key = self.idempotency_key(request)
            serializer.is_valid(raise_exception=True)
        except serializers.ValidationError:
            # Who may not record here learns only that (404/403), not what was wrong
            # with his input; the check is a query of its own, so only for bad input.
            self.game_for(request, game_id, Role.SCORER)
            raise
        data = serializer.validated_data
        # A 422's sentence names the evening's players and the club's cards (read then).
        self.error_context = lambda: game_names_and_face(game_id)
        events = [dict(event) for event in data["events"]]
        if data["dry_run"]:  # judged as an append would be; nothing written, no key
            judged = services.game_events_judge(
                game=game_id,
                user=request.user,
                expected_seq=data["expected_seq"],
                events=events,
                correct=data.get("correct"),
                min_role=Role.SCORER,
            )
            return Response(appended_data(judged, answer=data["answer"]), status=status.HTTP_200_OK)
        if data["stop_at_misfit"] and data.get("correct") is not None:
            return self._replace(request, game_id, data, events, key)

        def write(on_written: Callable[[services.Appended], object] | None) -> services.Appended:
            return services.game_events_append(
                game=game_id,
                user=request.user,
                expected_seq=data["expected_seq"],
                events=events,
                correct=data.get("correct"),
                min_role=Role.SCORER,
                idempotency_key=key,
                on_written=on_written,
            )

        answer = answered_once(
            user=request.user,
            key=key,
            fingerprint=self.fingerprint(request) if key is not None else "",
            write=write,
            answer=lambda appended: appended_data(appended, answer=data["answer"]),
            status=status.HTTP_201_CREATED,
        )
        return Response(answer.body, status=answer.status)

    def _replace(
        self,
        request: Request,
        game_id: int,
        data: dict[str, Any],
        events: list[dict[str, Any]],
        key: str | None,
    ) -> Response:
        """An entry replaced, the later ones entered again up to the first that no longer
        fits (``services.game_entry_replace``); the answer says what was left out."""
        if len(events) != 1:
            raise serializers.ValidationError(
                {"events": [_("Replacing an entry takes exactly one event.")]}
            )

        def write(on_written: Callable[[services.Replaced], object] | None) -> services.Replaced:
            return services.game_entry_replace(
                game=game_id,
                user=request.user,
                expected_seq=data["expected_seq"],
                index=data["correct"],
                replacement=events[0],
                min_role=Role.SCORER,
                idempotency_key=key,
                on_written=on_written,
            )

        def answer(replaced: services.Replaced) -> dict[str, Any]:
            body = appended_data(replaced.appended, answer=data["answer"])
            body["left_out"] = replaced.left_out
            body["misfit"] = replaced.error
            body["misfit_detail"] = self.engine_detail(replaced.error) if replaced.error else ""
            return body

        answered = answered_once(
            user=request.user,
            key=key,
            fingerprint=self.fingerprint(request) if key is not None else "",
            write=write,
            answer=answer,
            status=status.HTTP_201_CREATED,
        )
        return Response(answered.body, status=answered.status)
