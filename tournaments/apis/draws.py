"""A series drawn as a proposal and confirmed: its tables opened."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import Role
from tournaments import access, presenters, services
from tournaments.apis.common import (
    SeriesSerializer,
    TournamentApi,
)
from tournaments.draw import Leftover, Seeding


class SeriesDrawApi(TournamentApi):
    """Draw the next series as a proposal to look at (organisers): tables, seats, byes.
    Drawing again replaces the proposal; ``…/confirm/`` opens the tables."""

    class InputSerializer(serializers.Serializer[Any]):
        seeding = serializers.ChoiceField(
            choices=[s.value for s in Seeding], required=False, default=Seeding.RANDOM.value
        )
        leftover = serializers.ChoiceField(
            choices=[s.value for s in Leftover], required=False, default=Leftover.BYE.value
        )
        table_size = serializers.IntegerField(
            required=False,
            allow_null=True,
            default=None,
            min_value=4,
            max_value=6,
            help_text="players at a table (Fuchsen 4, 5 or 6; Königrufen 4); default 4",
        )

    @extend_schema(request=InputSerializer, responses={201: SeriesSerializer})
    def post(self, request: Request, slug: str, tournament_id: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id, Role.ADMIN)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        series = services.series_draw(tournament=tournament, **serializer.validated_data)
        names = {p["start_number"]: p["name"] for p in presenters.participants_data(tournament)}
        return Response(presenters.series_data(series, names), status=status.HTTP_201_CREATED)


class SeriesConfirmApi(TournamentApi):
    """Confirm a drawn series (organisers): each table's evening is opened."""

    @extend_schema(request=None, responses=SeriesSerializer)
    def post(self, request: Request, slug: str, tournament_id: int, series: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id, Role.ADMIN)
        confirmed = services.series_confirm(
            series=access.series_of(tournament, series), user=request.user
        )
        names = {p["start_number"]: p["name"] for p in presenters.participants_data(tournament)}
        return Response(presenters.series_data(confirmed, names))
