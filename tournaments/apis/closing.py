"""The close (the final ranking and the prizes frozen and booked) and who owes whom."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import Role
from tournaments import access, presenters, selectors, services
from tournaments.apis.common import (
    TournamentApi,
)
from tournaments.apis.ranking import RankingSerializer


class TournamentCloseApi(TournamentApi):
    """Close the tournament (organisers): the final ranking and the prizes are frozen
    and the prizes less the entry fees booked into the ledger."""

    @extend_schema(request=None, responses=RankingSerializer)
    def post(self, request: Request, slug: str, tournament_id: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id, Role.ADMIN)
        closed = services.tournament_close(tournament=tournament, user=request.user)
        return Response(presenters.ranking_data(closed))


class TransferSerializer(serializers.Serializer[Any]):
    payer = serializers.CharField()
    payee = serializers.CharField()
    amount = serializers.IntegerField()


class SettlementSerializer(serializers.Serializer[Any]):
    balances = serializers.DictField(child=serializers.IntegerField())
    transfers = TransferSerializer(many=True)


class SettlementApi(TournamentApi):
    """Who owes whom over the tournament: its tables' results, payments for them, and the
    fees and prizes booked at the close; the fewest transfers that clear them (members)."""

    @extend_schema(responses=SettlementSerializer)
    def get(self, request: Request, slug: str, tournament_id: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id)
        plan = selectors.settlement(tournament=tournament)
        return Response(
            {
                "balances": {plan.names[k]: v for k, v in plan.balances.items()},
                "transfers": [
                    {"payer": plan.names[a], "payee": plan.names[b], "amount": amount}
                    for a, b, amount in plan.transfers
                ],
            }
        )
