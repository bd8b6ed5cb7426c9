"""Settlement plans: open balances turned into the fewest transfers, booked as they are paid."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Player, Season
from games.models import Evening
from ledger import selectors
from ledger.models import (
    Payment,
    SettlementPlan,
    SettlementTransfer,
)
from ledger.services.payments import payment_record
from ledger.settlement import settle

# --- Settlement --------------------------------------------------------------------------------


@transaction.atomic
def settlement_plan_create(
    *,
    club: Club,
    created_by: Any | None,
    evening: Evening | None = None,
    season: Season | None = None,
) -> SettlementPlan:
    """Plan the fewest transfers that clear the open balances of an evening or a season.

    Exactly one of ``evening`` and ``season`` must be given, of ``club``. The
    balances are read now and stored with the plan; later games or payments do
    not change a plan (make a new one). Open balances that are all zero give a
    plan without transfers. An evening is refused once payments were booked for
    its whole season (a season's plan paid, say): they are in the season's
    balance, not the evening's, so settling the evening would ask for them again.
    """
    if (evening is None) == (season is None):
        raise ValidationError(_("Settle either an evening or a season."))
    if evening is not None and evening.club_id != club.pk:
        raise ValidationError({"evening": _("This evening belongs to another club.")})
    if season is not None and season.club_id != club.pk:
        raise ValidationError({"season": _("This season belongs to another club.")})
    if (
        evening is not None
        and Payment.objects.filter(
            season_id=evening.season_id,
            evening__isnull=True,
            reverses__isnull=True,  # a payment reversed, and its reversal, pay nothing
            reversed_by__isnull=True,
        ).exists()
    ):
        # Payments for a whole season are no evening's: an evening's own balance
        # would still ask for money they paid. The season's balance counts them.
        raise ValidationError(
            {
                "evening": _(
                    "Payments were booked for this evening's whole season; settle the "
                    "season instead, which counts them."
                )
            }
        )
    balances = selectors.balance_map(club=club, evening=evening, season=season)
    transfers = settle({str(player_id): amount for player_id, amount in balances.items()})
    plan = SettlementPlan.objects.create(
        club=club,
        evening=evening,
        season=season,
        balances={str(player_id): amount for player_id, amount in sorted(balances.items())},
        created_by=created_by,
    )
    SettlementTransfer.objects.bulk_create(
        [
            SettlementTransfer(
                plan=plan, payer_id=int(t.payer), payee_id=int(t.payee), amount=t.amount
            )
            for t in transfers
        ]
    )
    return plan


@transaction.atomic
def settlement_transfer_mark_paid(
    *, transfer: SettlementTransfer, paid_by: Any | None
) -> SettlementTransfer:
    """Mark a planned transfer paid and book its payment, once.

    Idempotent: the transfer is claimed with a conditional update, and only the
    caller that changed the row books the payment; a second mark (a retry, a
    double tap, a concurrent request) books nothing and returns the transfer as
    it is.
    """
    claimed = SettlementTransfer.objects.filter(pk=transfer.pk, paid_at__isnull=True).update(
        paid_at=timezone.now(), paid_by=paid_by
    )
    if claimed == 1:
        plan = SettlementPlan.objects.select_related("club", "evening", "season").get(
            pk=transfer.plan_id
        )
        payment = payment_record(
            club=plan.club,
            payer=Player.objects.get(pk=transfer.payer_id),
            payee=Player.objects.get(pk=transfer.payee_id),
            amount=transfer.amount,
            recorded_by=paid_by,
            evening=plan.evening,
            season=plan.season,
        )
        SettlementTransfer.objects.filter(pk=transfer.pk).update(payment=payment)
    transfer.refresh_from_db()
    return transfer
