"""The settlement as a text message for the club's chat, on the evening's and the
season's page: the open balances, who pays whom, and which transfers are paid."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from django.utils import translation

from clubs.models import Club
from games.models import Evening
from ledger.models import SettlementPlan
from ledger.presenters import settlement_text
from tests.conftest import PersonaClient


def _transfer(payer: str, payee: str, amount: str, *, paid: bool = False) -> dict[str, Any]:
    t = SimpleNamespace(
        payer=SimpleNamespace(display_name=payer),
        payee=SimpleNamespace(display_name=payee),
        is_paid=paid,
    )
    return {"t": t, "amount": amount}


def test_the_text_lists_the_most_owed_first_and_marks_paid_transfers(club: Club) -> None:
    balances = [
        {"display_name": "Anna", "balance": -30},
        {"display_name": "bert", "balance": 50},
        {"display_name": "Carl", "balance": -20},
        {"display_name": "Dora", "balance": 0},
    ]
    transfers = [_transfer("Anna", "bert", "30 ct"), _transfer("Carl", "bert", "20 ct", paid=True)]
    with translation.override("de"):
        text = settlement_text(
            heading="Stammtisch · Spielabend", balances=balances, transfers=transfers, club=club
        )
    assert text.splitlines() == [
        "Stammtisch · Spielabend",
        "Offene Beträge:",
        "  bert: +50 ct",
        "  Dora: 0 ct",
        "  Carl: -20 ct",
        "  Anna: -30 ct",
        "Wer zahlt wem:",
        "  Anna → bert: 30 ct",
        "  Carl → bert: 20 ct (bezahlt)",
    ]


def test_there_is_no_text_when_nothing_is_open_and_nothing_was_planned(club: Club) -> None:
    assert settlement_text(heading="x", balances=[], transfers=[], club=club) == ""


def test_without_a_plan_the_text_tells_the_balances_only_in_the_pages_language(
    club: Club,
) -> None:
    with translation.override("en"):
        text = settlement_text(
            heading="x", balances=[{"display_name": "Anna", "balance": 10}], transfers=[], club=club
        )
    assert text.splitlines() == ["x", "Open balances:", "  Anna: +10 ct"]


def test_the_evening_page_offers_its_settlement_as_text_once_planned(
    evening: Evening, scorer: PersonaClient
) -> None:
    before = scorer.get(f"/evenings/{evening.pk}/")
    assert "Spielabend vom" in before.context["share_text"]
    assert "Wer zahlt wem" not in before.context["share_text"]
    scorer.post(f"/evenings/{evening.pk}/settle/", {}, format="multipart")
    page = scorer.get(f"/evenings/{evening.pk}/")
    text = page.context["share_text"]
    plan = SettlementPlan.objects.get(evening=evening)
    for t in plan.transfers.all():
        assert f"{t.payer.display_name} → {t.payee.display_name}: {t.amount} ct" in text
    html = page.content.decode()
    assert 'id="share-text"' in html and "Als Text teilen" in html
    assert evening.club.name in text.splitlines()[0]


def test_the_season_table_offers_the_seasons_settlement_as_text(
    evening: Evening, member: PersonaClient
) -> None:
    page = member.get(f"/clubs/{evening.club.slug}/seasons/{evening.season_id}/table/")
    text = page.context["share_text"]
    assert text.splitlines()[0] == f"{evening.club.name} · {evening.season.name}"
    owed = [row for row in page.context["season_balances"] if row["balance"]]
    assert owed and all(row["display_name"] in text for row in owed)


def test_the_settlements_share_button_carries_no_words_for_its_script(
    evening: Evening, scorer: PersonaClient
) -> None:
    scorer.post(f"/evenings/{evening.pk}/settle/", {}, format="multipart")
    html = scorer.get(f"/evenings/{evening.pk}/").content.decode()
    button = re.search(r'<button [^>]*id="share-button"[^>]*>', html)
    assert button is not None and "data-" not in button.group(0)  # "Copied" is share.js's
    assert html.index("/jsi18n/de/") < html.index("/static/js/share.js")
