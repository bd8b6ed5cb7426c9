"""Balances: who owes how much, of the club, an evening or a season, as JSON or CSV."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import renderers, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.permissions import membership_for
from ledger import selectors
from ledger.apis.common import (
    CSV_SCHEMA,
    CSVRenderer,
    ScopeSerializer,
    csv_response,
    resolve_scope,
    unit_label,
)


class BalanceSerializer(serializers.Serializer[Any]):
    player_id = serializers.IntegerField()
    display_name = serializers.CharField()
    results = serializers.IntegerField(help_text="Sum of game results.")
    payments = serializers.IntegerField(help_text="Sum of payments (+ paid, − received).")
    balance = serializers.IntegerField(help_text="Open balance: + is owed money, − owes.")


class BalancesOutputSerializer(serializers.Serializer[Any]):
    unit = serializers.CharField()
    evening = serializers.IntegerField(allow_null=True)
    season = serializers.IntegerField(allow_null=True)
    balances = BalanceSerializer(many=True)


class BalanceListApi(APIView):
    """Open balances per player of the club, an evening or a season; they sum to zero."""

    @extend_schema(parameters=[ScopeSerializer], responses=BalancesOutputSerializer)
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug).club
        filters = ScopeSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        evening, season = resolve_scope(club, filters.validated_data)
        rows = selectors.balance_list(club=club, evening=evening, season=season)
        data = {
            "unit": club.currency_unit,
            "evening": evening.pk if evening else None,
            "season": season.pk if season else None,
            "balances": list(rows),
        }
        return Response(BalancesOutputSerializer(data).data)


class BalanceCsvApi(APIView):
    """The open balances as a CSV file (``;``-separated, amounts as integers)."""

    renderer_classes = [renderers.JSONRenderer, CSVRenderer]

    @extend_schema(parameters=[ScopeSerializer], responses=CSV_SCHEMA)
    def get(self, request: Request, slug: str) -> HttpResponse:
        club = membership_for(request.user, slug).club
        filters = ScopeSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        evening, season = resolve_scope(club, filters.validated_data)
        unit = unit_label(club)
        rows = selectors.balance_list(club=club, evening=evening, season=season)
        scope = f"evening-{evening.pk}" if evening else f"season-{season.pk}" if season else "club"
        return csv_response(
            f"{club.slug}-balances-{scope}.csv",
            [
                _("Player"),
                f"{_('Results')} ({unit})",
                f"{_('Payments')} ({unit})",
                f"{_('Balance')} ({unit})",
            ],
            ([r["display_name"], r["results"], r["payments"], r["balance"]] for r in rows),
        )
