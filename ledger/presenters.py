"""The ledger's part of a page, ready for its template includes (``ledger/_payments.html``,
``ledger/_settlement.html``): balances, payments and a settlement plan read through
``ledger.selectors``, the amounts written the club's way.

Pages of other apps (the evening page) take the ledger's part from here, so no page
imports another app's pages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.models import Club, Season
from games.models import Evening
from games.vocabulary import money, signed_money
from ledger import selectors


def payment_rows(
    club: Club, *, evening: Evening | None = None, season: Season | None = None
) -> list[Any]:
    """The payments of an evening or a season for ``ledger/_payments.html``, the
    latest first, each with its amount written the club's way."""
    payments = list(selectors.payment_list(club=club, evening=evening, season=season))
    for payment in payments:
        payment.amount_text = money(payment.amount, club)  # type: ignore[attr-defined]
    return payments


def settlement_text(
    *,
    heading: str,
    balances: Sequence[Mapping[str, Any]],
    transfers: Sequence[Mapping[str, Any]],
    club: Club,
) -> str:
    """The settlement as plain text for the club's chat: ``heading``, then every
    player's open balance (the most owed first), then the plan's transfers with the
    paid ones marked. Amounts are written as on the page.

    ``balances``: rows with ``display_name`` and ``balance`` (``balance_list``);
    ``transfers``: rows with the ``SettlementTransfer`` as ``t`` and its ``amount``
    text, as the settlement section gets them. Empty when there is nothing to tell
    (no balance and no plan).
    """
    if not balances and not transfers:
        return ""
    lines = [heading]
    if balances:
        lines.append(_("Open balances:"))
        rows = sorted(balances, key=lambda r: (-r["balance"], str(r["display_name"]).lower()))
        lines += [f"  {r['display_name']}: {signed_money(r['balance'], club)}" for r in rows]
    if transfers:
        lines.append(_("Who pays whom:"))
        for row in transfers:
            t = row["t"]
            line = f"  {t.payer.display_name} → {t.payee.display_name}: {row['amount']}"
            if t.is_paid:
                line += " (" + _("paid") + ")"
            lines.append(line)
    return "\n".join(lines)


def evening_ledger(evening: Evening) -> dict[str, Any]:
    """The evening's money for the evening page: ``balances`` (with their texts),
    ``plan`` (the evening's latest settlement plan, or None) and its ``transfers``,
    ``share_text`` (the settlement for the club's chat), ``payments`` and
    ``unbalanced`` (someone still owes or is owed)."""
    club = evening.club
    balances = list(selectors.balance_list(club=club, evening=evening))
    for row in balances:
        row["balance_text"] = signed_money(row["balance"], club)
        row["results_text"] = signed_money(row["results"], club)
        # Signed as the balance it adds to: + paid (debt paid off), - received.
        row["payments_text"] = signed_money(row["payments"], club)
    plans = [p for p in selectors.settlement_plan_list(club=club) if p.evening_id == evening.pk]
    plan = plans[0] if plans else None
    transfers = []
    if plan is not None:
        for t in plan.transfers.all():
            transfers.append(
                {
                    "t": t,
                    "amount": money(t.amount, club),
                    "paid_url": reverse("transfer-paid", args=[evening.pk, t.pk]),
                }
            )
    evening_title = _("Evening of %(date)s") % {
        "date": date_format(evening.date, "SHORT_DATE_FORMAT")
    }
    share_text = settlement_text(
        heading=f"{club.name} · {evening_title} ({evening.get_game_kind_display()})",
        balances=balances,
        transfers=transfers,
        club=club,
    )
    return {
        "balances": balances,
        "plan": plan,
        "transfers": transfers,
        "share_text": share_text,
        "payments": payment_rows(club, evening=evening),
        "unbalanced": any(row["balance"] for row in balances),
    }
