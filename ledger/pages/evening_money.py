"""An evening's money: settling it in transfers, and marking a transfer paid."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from clubs.models import Role
from games.access import evening_for
from ledger import services
from ledger.models import SettlementTransfer


@login_required
@require_POST
def evening_settle(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Make a settlement plan from the evening's open balances."""
    evening, _membership = evening_for(request, evening_id, Role.SCORER)
    try:
        services.settlement_plan_create(club=evening.club, created_by=request.user, evening=evening)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message, extra_tags="at-settlement")
    return redirect(reverse("evening-page", args=[evening.pk]) + "#settlement")


@login_required
@require_POST
def evening_transfer_paid(request: HttpRequest, evening_id: int, transfer_id: int) -> HttpResponse:
    """Mark one transfer of the evening's plan as paid (idempotent: a double tap books once)."""
    evening, _membership = evening_for(request, evening_id, Role.SCORER)
    transfer = (
        SettlementTransfer.objects.filter(
            pk=transfer_id, plan__evening=evening, plan__club=evening.club
        )
        .select_related("plan")
        .first()
    )
    if transfer is None:
        raise Http404
    services.settlement_transfer_mark_paid(transfer=transfer, paid_by=request.user)
    return redirect(reverse("evening-page", args=[evening.pk]) + "#settlement")
