"""Settlement plans (open balances as the fewest transfers), and a transfer marked paid."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import renderers, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Role
from clubs.permissions import membership_for
from ledger import selectors, services
from ledger.apis.common import (
    CSV_SCHEMA,
    CSVRenderer,
    ScopeSerializer,
    csv_response,
    get_or_404,
    resolve_scope,
    unit_label,
)
from ledger.models import SettlementPlan, SettlementTransfer
from stichbuch.api import paginated_response


class TransferOutputSerializer(serializers.ModelSerializer[SettlementTransfer]):
    payer_name = serializers.CharField(source="payer.display_name")
    payee_name = serializers.CharField(source="payee.display_name")
    is_paid = serializers.BooleanField()

    class Meta:
        model = SettlementTransfer
        fields = [
            "id",
            "payer",
            "payer_name",
            "payee",
            "payee_name",
            "amount",
            "is_paid",
            "paid_at",
            "payment",
        ]


class PlanOutputSerializer(serializers.ModelSerializer[SettlementPlan]):
    transfers = TransferOutputSerializer(many=True)
    balances = serializers.DictField(
        child=serializers.IntegerField(), help_text="Player id → open balance when planned."
    )
    all_paid = serializers.SerializerMethodField()

    class Meta:
        model = SettlementPlan
        fields = ["id", "evening", "season", "balances", "transfers", "all_paid", "created_at"]

    def get_all_paid(self, plan: SettlementPlan) -> bool:
        return all(t.paid_at is not None for t in plan.transfers.all())


class SettlementPlanListApi(APIView):
    @extend_schema(responses=PlanOutputSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug).club
        return paginated_response(
            serializer_class=PlanOutputSerializer,
            queryset=selectors.settlement_plan_list(club=club),
            request=request,
            view=self,
        )


class SettlementPlanCreateApi(APIView):
    """Plan the fewest transfers that clear an evening's or a season's open balances."""

    class InputSerializer(ScopeSerializer):
        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if (attrs.get("evening") is None) == (attrs.get("season") is None):
                raise serializers.ValidationError(_("Give either an evening or a season."))
            return attrs

    @extend_schema(request=InputSerializer, responses={201: PlanOutputSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug, Role.SCORER).club
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        evening, season = resolve_scope(club, serializer.validated_data)
        plan = services.settlement_plan_create(
            club=club, created_by=request.user, evening=evening, season=season
        )
        plan = selectors.settlement_plan_get(club=club, plan_id=plan.pk)
        return Response(PlanOutputSerializer(plan).data, status=status.HTTP_201_CREATED)


class SettlementPlanDetailApi(APIView):
    @extend_schema(responses=PlanOutputSerializer)
    def get(self, request: Request, slug: str, plan_id: int) -> Response:
        club = membership_for(request.user, slug).club
        plan = get_or_404(selectors.settlement_plan_get, club=club, plan_id=plan_id)
        return Response(PlanOutputSerializer(plan).data)


class SettlementTransferMarkPaidApi(APIView):
    """Mark a planned transfer paid (scorer and up): books the payment once, however often sent."""

    @extend_schema(request=None, responses=TransferOutputSerializer)
    def post(self, request: Request, slug: str, plan_id: int, transfer_id: int) -> Response:
        club = membership_for(request.user, slug, Role.SCORER).club
        plan = get_or_404(selectors.settlement_plan_get, club=club, plan_id=plan_id)
        transfer = get_or_404(selectors.settlement_transfer_get, plan=plan, transfer_id=transfer_id)
        transfer = services.settlement_transfer_mark_paid(transfer=transfer, paid_by=request.user)
        transfer = selectors.settlement_transfer_get(plan=plan, transfer_id=transfer.pk)
        return Response(TransferOutputSerializer(transfer).data)


class SettlementPlanCsvApi(APIView):
    """A plan's transfers as a CSV file (``;``-separated, amounts as integers)."""

    renderer_classes = [renderers.JSONRenderer, CSVRenderer]

    @extend_schema(responses=CSV_SCHEMA)
    def get(self, request: Request, slug: str, plan_id: int) -> HttpResponse:
        club = membership_for(request.user, slug).club
        plan = get_or_404(selectors.settlement_plan_get, club=club, plan_id=plan_id)
        unit = unit_label(club)
        return csv_response(
            f"{club.slug}-settlement-{plan.pk}.csv",
            [_("Payer"), _("Payee"), _("Amount (%(unit)s)") % {"unit": unit}, _("Paid at")],
            (
                [
                    t.payer.display_name,
                    t.payee.display_name,
                    t.amount,
                    t.paid_at.isoformat(timespec="seconds") if t.paid_at else "",
                ]
                for t in plan.transfers.all()
            ),
        )
