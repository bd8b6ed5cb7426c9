"""Payments: the list, recording one, reversing one."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Role
from clubs.permissions import membership_for
from ledger import selectors, services
from ledger.apis.common import (
    MAX_AMOUNT,
    ScopeSerializer,
    club_player,
    get_or_404,
    id_field,
    resolve_scope,
)
from ledger.models import Payment
from stichbuch.api import paginated_response


class PaymentOutputSerializer(serializers.ModelSerializer[Payment]):
    payer_name = serializers.CharField(source="payer.display_name")
    payee_name = serializers.CharField(source="payee.display_name")
    recorded_by = serializers.CharField(
        source="recorded_by.username", default=None, allow_null=True
    )
    reversed = serializers.SerializerMethodField(
        help_text="A reversal names this payment: it no longer counts."
    )

    class Meta:
        model = Payment
        fields = [
            "id",
            "payer",
            "payer_name",
            "payee",
            "payee_name",
            "amount",
            "evening",
            "season",
            "recorded_by",
            "created_at",
            "reverses",
            "reversed",
        ]

    def get_reversed(self, payment: Payment) -> bool:
        known = getattr(payment, "is_reversed", None)  # ``payment_list`` annotates it
        if known is not None:
            return bool(known)
        return Payment.objects.filter(reverses=payment).exists()


class PaymentListApi(APIView):
    @extend_schema(parameters=[ScopeSerializer], responses=PaymentOutputSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug).club
        filters = ScopeSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        evening, season = resolve_scope(club, filters.validated_data)
        return paginated_response(
            serializer_class=PaymentOutputSerializer,
            queryset=selectors.payment_list(club=club, evening=evening, season=season),
            request=request,
            view=self,
        )


class PaymentCreateApi(APIView):
    """Record that one player paid another (scorer and up); it reduces what the payer owes."""

    class InputSerializer(ScopeSerializer):
        payer = id_field()
        payee = id_field()
        amount = serializers.IntegerField(min_value=1, max_value=MAX_AMOUNT)

    @extend_schema(request=InputSerializer, responses={201: PaymentOutputSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug, Role.SCORER).club
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        evening, season = resolve_scope(club, data)
        payment = services.payment_record(
            club=club,
            payer=club_player(club, data["payer"], "payer"),
            payee=club_player(club, data["payee"], "payee"),
            amount=data["amount"],
            recorded_by=request.user,
            evening=evening,
            season=season,
        )
        payment = selectors.payment_list(club=club).get(pk=payment.pk)
        return Response(PaymentOutputSerializer(payment).data, status=status.HTTP_201_CREATED)


class PaymentReverseApi(APIView):
    """Reverse a payment booked by mistake (scorer and up): the same amount back, so
    the balances are as before it; 201 with the reversal, 400 if it was reversed
    already or is itself a reversal. A settlement transfer marked paid with it is
    open again."""

    @extend_schema(request=None, responses={201: PaymentOutputSerializer})
    def post(self, request: Request, slug: str, payment_id: int) -> Response:
        club = membership_for(request.user, slug, Role.SCORER).club
        payment = get_or_404(Payment.objects.get, club=club, pk=payment_id)
        reversal = services.payment_reverse(payment=payment, recorded_by=request.user)
        reversal = selectors.payment_list(club=club).get(pk=reversal.pk)
        return Response(PaymentOutputSerializer(reversal).data, status=status.HTTP_201_CREATED)
