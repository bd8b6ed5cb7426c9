"""What the tournaments API's views share: the 409 for a step out of order, a tournament's shape."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import services
from tournaments.draw import Leftover, Seeding


class TournamentApi(APIView):
    """Base view: a step out of order (``TournamentConflict``) is a 409."""

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, services.TournamentConflict):
            return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)
        return super().handle_exception(exc)


class ParticipantSerializer(serializers.Serializer[Any]):
    start_number = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    active = serializers.BooleanField()
    guest = serializers.BooleanField()


class SeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    start_number = serializers.IntegerField()
    name = serializers.CharField()


class TableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    evening_id = serializers.IntegerField(allow_null=True, help_text="the table's evening")
    seats = SeatSerializer(many=True)
    closed = serializers.BooleanField(help_text="Liste abgeschlossen")


class ByeSerializer(serializers.Serializer[Any]):
    start_number = serializers.IntegerField()
    name = serializers.CharField()


class SeriesSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["drawn", "confirmed"])
    seeding = serializers.ChoiceField(choices=[s.value for s in Seeding])
    leftover = serializers.ChoiceField(choices=[s.value for s in Leftover])
    table_size = serializers.IntegerField(allow_null=True)
    tables = TableSerializer(many=True)
    byes = ByeSerializer(many=True)


class TournamentSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game_kind = serializers.CharField()
    date = serializers.DateField()
    season_id = serializers.IntegerField()
    rule_profile_id = serializers.IntegerField(allow_null=True)
    series_count = serializers.IntegerField()
    deals_per_series = serializers.IntegerField()
    entry_fee = serializers.IntegerField()
    prizes = serializers.ListField(child=serializers.DictField(child=serializers.IntegerField()))
    cashier_id = serializers.IntegerField(allow_null=True)
    seed = serializers.CharField(help_text="every draw can be repeated with it")
    status = serializers.ChoiceField(choices=["open", "closed"])
    tie_break = serializers.CharField()
    participants = ParticipantSerializer(many=True)
    series = SeriesSerializer(many=True)
