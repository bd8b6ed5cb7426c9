"""The live app's REST API: a game's history, an evening's change log (members read)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Game
from live import access, selectors


class HistoryEventSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    payload = serializers.DictField()
    recorded_by = serializers.CharField(allow_null=True)
    recorded_at = serializers.DateTimeField()
    undone_by = serializers.IntegerField(
        allow_null=True, help_text="seq of the undo that removed this event"
    )
    annulled = serializers.BooleanField(help_text="it stands, but the game was annulled")
    after_decision = serializers.BooleanField(help_text="a show once the game was decided")
    status = serializers.CharField(
        allow_null=True, help_text="the game's status after it, where it changed"
    )


class GameHistorySerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    started_by = serializers.CharField(allow_null=True)
    started_at = serializers.DateTimeField()
    events = HistoryEventSerializer(many=True)


class LogEntrySerializer(serializers.Serializer[Any]):
    at = serializers.DateTimeField()
    kind = serializers.ChoiceField(choices=selectors.KINDS)
    by = serializers.CharField(allow_null=True)
    game_id = serializers.IntegerField(allow_null=True)
    game_number = serializers.IntegerField(allow_null=True)
    seq = serializers.IntegerField(allow_null=True)
    payment_id = serializers.IntegerField(allow_null=True)
    amount = serializers.IntegerField(allow_null=True)
    payer = serializers.CharField(allow_null=True)
    payee = serializers.CharField(allow_null=True)
    reverses = serializers.IntegerField(allow_null=True)


_datetime = serializers.DateTimeField()


def history_data(game: Game) -> dict[str, Any]:
    history = selectors.game_history(game=game)
    return {
        "game": game.pk,
        "number": game.number,
        "status": game.status,
        "started_by": history.started_by,
        "started_at": _datetime.to_representation(history.started_at),
        "events": [
            {**asdict(event), "recorded_at": _datetime.to_representation(event.recorded_at)}
            for event in history.events
        ],
    }


class GameHistoryApi(APIView):
    """Who recorded each event of the game and when; undone and annulled ones marked."""

    @extend_schema(responses=GameHistorySerializer)
    def get(self, request: Request, game_id: int) -> Response:
        game = access.game_for(request.user, game_id)
        return Response(history_data(game))


class EveningLogApi(APIView):
    """The evening's change log: games started, annulled, reopened; the evening closed
    and reopened; payments booked and reversed; settlement transfers marked paid."""

    @extend_schema(responses=LogEntrySerializer(many=True))
    def get(self, request: Request, evening_id: int) -> Response:
        evening = access.evening_for(request.user, evening_id)
        return Response(
            [
                {**asdict(entry), "at": _datetime.to_representation(entry.at)}
                for entry in selectors.evening_log(evening=evening)
            ]
        )
