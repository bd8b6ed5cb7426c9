"""``GET /api/games/{id}/analysis/``: the game's stored analysis (members read, others 404)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from analysis import presenters, selectors
from clubs.models import Role
from clubs.permissions import require_role
from games import selectors as game_selectors


class GameAnalysisSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    last_seq = serializers.IntegerField(help_text="The game's last seq.")
    state = serializers.ChoiceField(
        choices=["in_progress", "annulled", "pending", "analysed", "not_analysable", "too_costly"],
        help_text=(
            "in_progress: the game is not finished; annulled: it was annulled (no analysis); "
            "pending: its analysis at last_seq is not stored yet; too_costly: the search "
            "ran past its time budget."
        ),
    )
    reason = serializers.CharField(
        allow_null=True,
        help_text="not_analysable: the engine's reason (invalid, hands_unknown, no_play, schurln).",
    )
    duration_ms = serializers.IntegerField(allow_null=True)
    answer = serializers.DictField(
        allow_null=True,
        help_text="The engine's answer at last_seq (spec analysis.md, 'The answer'), or null.",
    )
    figures = serializers.DictField(
        allow_null=True,
        help_text=(
            "Derived by the engine's functions: per card (index, player, card, trick, "
            "before, after, best, forced, is_best, cost, own_side, turning), start, "
            "lost_at (the position in cards where the game was lost), raising "
            "(Fuchsen), higher_contracts (Königrufen)."
        ),
    )


class GameAnalysisApi(APIView):
    """The analysis of a game at its last seq, as the engine computed it on the worker."""

    @extend_schema(responses=GameAnalysisSerializer)
    def get(self, request: Request, game_id: int) -> Response:
        try:
            game = game_selectors.game_get_with_role(game_id=game_id, user=request.user)
        except ObjectDoesNotExist:
            raise Http404 from None
        require_role(getattr(game, "member_role", None), Role.MEMBER)
        analysis = selectors.game_analysis(game=game)
        state = presenters.state_of(game, analysis)
        body: dict[str, Any] = {
            "game": game.pk,
            "last_seq": game.last_seq,
            "state": state,
            "reason": None,
            "duration_ms": None,
            "answer": None,
            "figures": None,
        }
        # Only an analysis of the game as it stands is answered (not one of an earlier
        # record, nor a claim still being computed).
        if analysis is not None and state not in ("pending", "in_progress", "annulled"):
            body.update(
                reason=analysis.reason or None,
                duration_ms=analysis.duration_ms,
                answer=analysis.answer or None,
                figures=analysis.figures or None,
            )
        return Response(body)
