"""Payments between two players, and their reversal: booked as zero-sum ledger entries."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Club, Player, Season
from games import listeners
from games.models import Evening
from ledger.models import (
    LedgerEntry,
    Payment,
    SettlementTransfer,
)

# --- Payments --------------------------------------------------------------------------------


@transaction.atomic
def payment_record(
    *,
    club: Club,
    payer: Player,
    payee: Player,
    amount: int,
    recorded_by: Any | None,
    evening: Evening | None = None,
    season: Season | None = None,
) -> Payment:
    """Book money handed from ``payer`` to ``payee``.

    Writes the ``Payment`` and two entries: the payer +amount (he owes less),
    the payee −amount (he is owed less), so open balances are results minus
    payments. A payment made for an evening counts for that evening and its
    season. Raises ``ValidationError`` for an amount that is not a whole
    number > 0, a player paying himself, players, an evening or a season of
    another club, or an evening outside the given season.
    """
    errors: dict[str, str] = {}
    if type(amount) is not int or amount <= 0:
        errors["amount"] = _("The amount must be a whole number greater than zero.")
    if payer.club_id != club.pk:
        errors["payer"] = _("This player belongs to another club.")
    if payee.club_id != club.pk:
        errors["payee"] = _("This player belongs to another club.")
    if payer.pk == payee.pk:
        errors["payee"] = _("A player cannot pay himself.")
    if evening is not None and evening.club_id != club.pk:
        errors["evening"] = _("This evening belongs to another club.")
    elif evening is not None:
        # The evening's row locked as ``games.services.evening_delete`` locks it: a
        # payment booked while its (empty) evening is deleted waits, then finds it gone.
        rows = Evening.objects.select_for_update(no_key=True, of=("self",)).filter(pk=evening.pk)
        if not list(rows.values_list("pk", flat=True)):
            errors["evening"] = _("This evening has been deleted.")
    if season is not None and season.club_id != club.pk:
        errors["season"] = _("This season belongs to another club.")
    if (
        evening is not None
        and season is not None
        and "evening" not in errors
        and evening.season_id != season.pk
    ):
        errors["season"] = _("This evening belongs to another season.")
    if errors:
        raise ValidationError(errors)
    season_id = season.pk if season is not None else (evening.season_id if evening else None)
    payment = Payment.objects.create(
        club=club,
        season_id=season_id,
        evening=evening,
        payer=payer,
        payee=payee,
        amount=amount,
        recorded_by=recorded_by,
    )
    _payment_entries(payment)
    if payment.evening_id is not None:
        listeners.evening_changed(evening_id=payment.evening_id)
    return payment


def _payment_entries(payment: Payment) -> None:
    """The payment's two entries: the payer +amount (he owes less), the payee −amount."""
    common = {
        "club_id": payment.club_id,
        "season_id": payment.season_id,
        "evening_id": payment.evening_id,
        "payment": payment,
        "kind": LedgerEntry.Kind.PAYMENT,
        "created_at": payment.created_at,
    }
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(player_id=payment.payer_id, amount=payment.amount, **common),
            LedgerEntry(player_id=payment.payee_id, amount=-payment.amount, **common),
        ]
    )


@transaction.atomic
def payment_reverse(*, payment: Payment, recorded_by: Any | None) -> Payment:
    """Book the reversal ("Storno") of a payment booked by mistake: the same amount
    back from its payee to its payer, with its two entries, for the same evening and
    season, so that every balance is as before the payment. Nothing is deleted. A
    settlement transfer marked paid with the payment is open again (to be marked
    paid when the money really changes hands).

    Raises ``ValidationError`` for a payment reversed already or one that is itself a
    reversal (book the payment anew instead).
    """
    locked = Payment.objects.select_for_update().get(pk=payment.pk)
    if locked.reverses_id is not None:
        raise ValidationError(_("This is a reversal: book the payment again instead."))
    if Payment.objects.filter(reverses=locked).exists():
        raise ValidationError(_("This payment has been reversed already."))
    reversal = Payment.objects.create(
        club_id=locked.club_id,
        season_id=locked.season_id,
        evening_id=locked.evening_id,
        payer_id=locked.payee_id,
        payee_id=locked.payer_id,
        amount=locked.amount,
        recorded_by=recorded_by,
        reverses=locked,
    )
    _payment_entries(reversal)
    if reversal.evening_id is not None:
        listeners.evening_changed(evening_id=reversal.evening_id)
    SettlementTransfer.objects.filter(payment=locked).update(
        paid_at=None, paid_by=None, payment=None
    )
    return reversal
