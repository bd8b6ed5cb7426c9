"""Booking a tournament's entry fees and prizes.

An app above the ledger (``tournaments``) books money through this service
without the ledger knowing that app: it hands in amounts per player, nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone

from clubs.models import Club, Season
from ledger.models import LedgerEntry


class PrizesDoNotBalance(ValueError):
    """The amounts handed in do not sum to zero (money would appear or vanish)."""


@transaction.atomic
def ledger_book_prizes(
    *, club: Club, season: Season | None, amounts: Mapping[int, int]
) -> list[LedgerEntry]:
    """Book entry fees and prizes: ``amounts`` is {player pk: amount}, positive for what
    a player is owed (a prize, or the fees the pot's holder took in), negative for what
    he owes (his entry fee, or the prizes the pot's holder pays out).

    The amounts must sum to zero (``PrizesDoNotBalance`` otherwise); zeros are left
    out. The entries count in ``season``'s balances and its settlement, like an
    evening's results. Append-only: a booking is never changed.
    """
    if sum(amounts.values()) != 0:
        raise PrizesDoNotBalance(f"prize amounts sum to {sum(amounts.values())}, not 0")
    now = timezone.now()
    return LedgerEntry.objects.bulk_create(
        LedgerEntry(
            club=club,
            season=season,
            player_id=player_id,
            amount=amount,
            kind=LedgerEntry.Kind.PRIZE,
            created_at=now,
        )
        for player_id, amount in sorted(amounts.items())
        if amount != 0
    )
