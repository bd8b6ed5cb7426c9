"""A game started (its deal the first event) and a game shown."""

from __future__ import annotations

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
    evening_names,
)
from games.apis.idempotency import idempotent_call
from games.apis.serializers import GameDetailSerializer, GameDryRunSerializer
from games.checks import MAX_EVENT_BYTES, MAX_EVENTS_PER_REQUEST, has_nul, json_size
from games.presenters import game_data, game_detail_data

# --- Games ----------------------------------------------------------------------------------


class GameStartApi(GamesApi):
    """Start the next game of the evening; its deal is its first event.

    Without a ``deal`` the proposed one (``next_deal`` of the evening) is written.
    A given deal uses player ids as strings (``str(player.pk)``) of seated players.
    """

    class InputSerializer(serializers.Serializer[Any]):
        deal = serializers.DictField(
            required=False,
            allow_null=True,
            help_text="dealer, players, optional hands, removed, sitting_out (ids as strings)",
        )
        events = serializers.ListField(
            child=serializers.DictField(),
            required=False,
            max_length=MAX_EVENTS_PER_REQUEST,
            help_text=(
                "More events of the game, appended with the deal in the same transaction (all "
                "or nothing); the first may be the deal itself, e.g. deal, call, tally."
            ),
        )
        dry_run = serializers.BooleanField(
            required=False,
            default=False,
            help_text="true: answer (200) with the game as it would be; nothing is written.",
        )

    @extend_schema(
        request=InputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={
            200: GameDryRunSerializer,
            201: GameDetailSerializer,
            409: ConflictSerializer,
            422: EngineRejectionSerializer,
        },
    )
    def post(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.SCORER)
        self.error_context = lambda: (evening_names(evening), evening.club.card_face)
        key = self.idempotency_key(request)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        deal = serializer.validated_data.get("deal")
        if deal is not None and (json_size(deal) > MAX_EVENT_BYTES or has_nul(deal)):
            raise serializers.ValidationError(
                {"deal": [_("The deal is too large or contains a NUL character.")]}
            )
        events = [dict(event) for event in serializer.validated_data.get("events") or []]
        for i, event in enumerate(events):
            if json_size(event) > MAX_EVENT_BYTES or has_nul(event):
                raise serializers.ValidationError(
                    {
                        "events": [
                            _("Event %(i)d is too large or contains a NUL character.") % {"i": i}
                        ]
                    }
                )
        dry_run = serializer.validated_data["dry_run"]
        if dry_run:
            key = None  # nothing is written, not even the answer

        def work() -> tuple[int, Any]:
            started = services.game_started(
                evening=evening, user=request.user, deal=deal, events=events, dry_run=dry_run
            )
            return status.HTTP_200_OK if dry_run else status.HTTP_201_CREATED, game_data(
                started.game,
                record=started.record,
                rows=started.rows,
                names=started.names,
                state=started.state,
            )

        answer = idempotent_call(
            user=request.user,
            key=key,
            fingerprint=self.fingerprint(request),
            lock=lambda: services.evening_lock(evening=evening),
            work=work,
        )
        return Response(answer.body, status=answer.status)


class GameDetailApi(GamesApi):
    """A game: meta, players, the table (whose turn, what is legal), result and events."""

    @extend_schema(responses=GameDetailSerializer)
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game_for(request, game_id, Role.MEMBER)
        return Response(game_detail_data(game))
