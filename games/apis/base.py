"""The games API's base view and what every view of it shares: the answers its
errors get, the ``Idempotency-Key`` header, the evening or game a request may touch."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.permissions import require_role
from games import engine_text, selectors
from games.apis.idempotency import request_fingerprint
from games.checks import MAX_IDEMPOTENCY_KEY
from games.errors import (
    EngineRejected,
    EveningClosed,
    EveningNotEmpty,
    EveningOpen,
    GamesError,
    IdempotencyKeyReused,
    StaleSequence,
)
from games.models import Evening, Game

IDEMPOTENCY_HEADER = OpenApiParameter(
    name="Idempotency-Key",
    location=OpenApiParameter.HEADER,
    required=False,
    # 1 to 255 characters, not only blanks: what ``idempotency_key`` accepts.
    type={"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY, "pattern": r"\S"},
    description=(
        "Any unique string (e.g. a UUID). A retry with the same key and the same request "
        "returns the first answer instead of doing the work twice; the same key with a "
        "different request is a 422."
    ),
)

RefusalSerializer = inline_serializer("Refusal", {"detail": serializers.CharField()})
ConflictSerializer = inline_serializer(
    "GamesConflict",
    {"detail": serializers.CharField(), "current_seq": serializers.IntegerField(required=False)},
)
EngineRejectionSerializer = inline_serializer(
    "EngineRejection",
    {
        "detail": serializers.CharField(
            help_text=(
                "The engine's sentence in the request's language (Accept-Language; German "
                "by default), with the players' names for their ids."
            )
        ),
        # Without ``error`` and ``event_offset``: a refusal before the engine (a reused
        # Idempotency-Key, a record too long), its sentence alone.
        "error": inline_serializer(
            "EngineError",
            {
                "index": serializers.IntegerField(
                    help_text="Position in the combined record: stored events, then yours."
                ),
                "code": serializers.CharField(),
                "message": serializers.CharField(
                    help_text="The engine's own sentence (English, players as ids)."
                ),
            },
            required=False,
        ),
        "event_offset": serializers.IntegerField(
            required=False,
            help_text="Number of events stored before yours: yours is index - event_offset.",
        ),
    },
)


def evening_names(evening: Evening) -> dict[str, str]:
    """``{str(pk): display_name}`` of everyone who sat at the evening (for an error's sentence)."""
    return {
        str(seat.player_id): seat.player.display_name
        for seat in selectors.evening_seats(evening=evening, active_only=False)
    }


def game_names_and_face(game_id: int) -> tuple[dict[str, str], str | None]:
    """The names of everyone who sat at the game's evening and its club's card face."""
    game = selectors.game_get(game_id=game_id)
    return evening_names(game.evening), game.evening.club.card_face


class GamesApi(APIView):
    """Base view: turns the games services' own errors into 409 / 422 answers."""

    # Set by a view that knows them: the names (``{str(pk): display_name}``) and the
    # club's card face an engine refusal's sentence is written with (read for a 422 only).
    error_context: Callable[[], tuple[Mapping[str, str], str | None]] | None = None

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, StaleSequence):
            return Response(
                {"detail": exc.message, "current_seq": exc.current_seq},
                status=status.HTTP_409_CONFLICT,
            )
        if isinstance(exc, EveningClosed | EveningOpen | EveningNotEmpty):
            return Response({"detail": exc.message}, status=status.HTTP_409_CONFLICT)
        if isinstance(exc, EngineRejected):
            return Response(
                {
                    "detail": self.engine_detail(exc.error),
                    "error": exc.error,
                    "event_offset": exc.event_offset,
                },
                status=status.HTTP_422_UNPROCESSABLE_ENTITY,
            )
        if isinstance(exc, IdempotencyKeyReused | GamesError):
            return Response({"detail": exc.message}, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        return super().handle_exception(exc)

    def engine_detail(self, error: dict[str, Any]) -> str:
        """The engine's sentence in the request's language, with the players' names."""
        names, face = self.error_context() if self.error_context is not None else ({}, None)
        return engine_text.explain(error, names, face=face)

    # --- helpers shared by the views ---

    def evening_for(self, request: Request, evening_id: int, min_role: str) -> Evening:
        """The evening, if the user is a member of its club with ``min_role`` (else 404/403).

        The same answers as ``membership_for``, in one query: the caller's role
        comes with the evening and its club.
        """
        user = request.user
        if user is None or not user.is_authenticated:
            raise Http404
        try:
            evening = selectors.evening_get_with_role(evening_id=evening_id, user=user)
        except ObjectDoesNotExist:
            raise Http404 from None
        require_role(getattr(evening, "member_role", None), min_role)
        return evening

    def game_for(self, request: Request, game_id: int, min_role: str) -> Game:
        """The game, if the user is a member of its club with ``min_role`` (else 404/403).

        The same answers as ``membership_for``, in one query: the caller's role
        comes with the game, its evening and club.
        """
        user = request.user
        if user is None or not user.is_authenticated:
            raise Http404
        try:
            game = selectors.game_get_with_role(game_id=game_id, user=user)
        except ObjectDoesNotExist:
            raise Http404 from None
        require_role(getattr(game, "member_role", None), min_role)
        return game

    def idempotency_key(self, request: Request) -> str | None:
        key = request.headers.get("Idempotency-Key")
        if key is None:
            return None
        # The length as sent (the schema's maxLength), the key without blanks around it.
        if len(key) > MAX_IDEMPOTENCY_KEY or not key.strip():
            raise serializers.ValidationError(
                {"Idempotency-Key": [_("Send 1 to 255 characters, e.g. a UUID.")]}
            )
        return key.strip()

    def fingerprint(self, request: Request) -> str:
        return request_fingerprint(
            method=request.method or "", path=request.path, body=request.data
        )
