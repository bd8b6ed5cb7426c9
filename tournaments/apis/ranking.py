"""The ranking across all tables, in all or after a series, and as CSV."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import access, presenters, services
from tournaments.apis.common import (
    TournamentApi,
)


class RankingRowSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    start_number = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()
    best_series = serializers.IntegerField()
    by_series = serializers.DictField(child=serializers.IntegerField())


class ProgressSerializer(serializers.Serializer[Any]):
    series = serializers.IntegerField()
    table = serializers.IntegerField()
    finished = serializers.IntegerField()
    deals = serializers.IntegerField()


class RankingSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    unit = serializers.CharField()
    series = serializers.ListField(child=serializers.IntegerField())
    up_to_series = serializers.IntegerField(allow_null=True)
    tie_break = serializers.CharField()
    pot = serializers.IntegerField()
    rows = RankingRowSerializer(many=True)
    final = serializers.DictField(
        allow_null=True, help_text="the ranking frozen at the close, with each prize"
    )
    progress = ProgressSerializer(
        many=True, help_text="per table of the latest series: deals finished and to play"
    )


_SERIES = OpenApiParameter(
    "series", OpenApiTypes.INT, description="the ranking after this series (default: in all)"
)


def _up_to(request: Request) -> int | None:
    raw = request.query_params.get("series")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= services.MAX_SERIES:
        raise serializers.ValidationError({"series": [_("A series number.")]})
    return int(raw)


class RankingApi(TournamentApi):
    """The ranking across all tables, in all or after a series (members)."""

    @extend_schema(parameters=[_SERIES], responses=RankingSerializer)
    def get(self, request: Request, slug: str, tournament_id: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id)
        return Response(presenters.ranking_data(tournament, _up_to(request)))


class RankingCsvApi(TournamentApi):
    """The ranking as a CSV file (members)."""

    @extend_schema(parameters=[_SERIES], responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, slug: str, tournament_id: int) -> HttpResponse:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id)
        response = HttpResponse(
            presenters.ranking_csv(tournament, _up_to(request)), content_type="text/csv"
        )
        response["Content-Disposition"] = f'attachment; filename="turnier-{tournament.pk}.csv"'
        return response
