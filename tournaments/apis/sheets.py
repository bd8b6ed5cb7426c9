"""A table's sheet: read, and agreed to by those seated at it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import access, presenters, services
from tournaments.apis.common import (
    SeatSerializer,
    TournamentApi,
)


class SheetSeatSerializer(SeatSerializer):
    total = serializers.IntegerField()
    confirmed = serializers.BooleanField()


class SheetSerializer(serializers.Serializer[Any]):
    series = serializers.IntegerField()
    table = serializers.IntegerField()
    evening_id = serializers.IntegerField(allow_null=True)
    deals = serializers.IntegerField()
    finished = serializers.IntegerField()
    to_play = serializers.IntegerField()
    in_progress = serializers.BooleanField()
    closed = serializers.BooleanField()
    seats = SheetSeatSerializer(many=True)


class SheetApi(TournamentApi):
    """A table's sheet in a series: deals played and still to play, each seat's total,
    who confirmed (members)."""

    @extend_schema(responses=SheetSerializer)
    def get(
        self, request: Request, slug: str, tournament_id: int, series: int, table: int
    ) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id)
        return Response(presenters.sheet_data(access.table_of(tournament, series, table)))


class SheetConfirmApi(TournamentApi):
    """Agree to a table's sheet (the participant himself, or an organiser for him). When
    all at the table have, the sheet and the table's evening are closed."""

    class InputSerializer(serializers.Serializer[Any]):
        start_number = serializers.IntegerField(min_value=1)

    @extend_schema(request=InputSerializer, responses=SheetSerializer)
    def post(
        self, request: Request, slug: str, tournament_id: int, series: int, table: int
    ) -> Response:
        tournament, role = access.tournament_for(request.user, slug, tournament_id)
        found = access.table_of(tournament, series, table)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        participant = (
            tournament.participants.select_related("player")
            .filter(start_number=serializer.validated_data["start_number"])
            .first()
        )
        if participant is None:
            raise serializers.ValidationError({"start_number": [_("No such start number.")]})
        access.may_confirm(request.user, role, participant)
        services.sheet_confirm(table=found, participant=participant, user=request.user)
        return Response(presenters.sheet_data(access.table_of(tournament, series, table)))
