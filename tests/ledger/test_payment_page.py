"""Booking a payment on the evening page: a scorer names who paid whom how much;
the evening's balances move by it, and anything else is refused with a message
and books nothing."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Evening
from ledger.models import LedgerEntry, Payment
from tests.conftest import PersonaClient
from tests.factories import ClubFactory, PlayerFactory


def _pay(client: PersonaClient, evening: Evening, **data: Any) -> Any:
    return client.post(
        f"/evenings/{evening.pk}/payments/new/", data, format="multipart", follow=True
    )


def _seated(evening: Evening, name: str) -> int:
    return evening.seats.get(player__display_name=name).player_id


def test_a_scorer_books_a_payment_and_the_balances_move(
    evening: Evening, scorer: PersonaClient
) -> None:
    before = {r["player_id"]: r for r in scorer.get(f"/evenings/{evening.pk}/").context["balances"]}
    anna, bert = _seated(evening, "Anna"), _seated(evening, "Bert")
    response = _pay(scorer, evening, payer=anna, payee=bert, amount="25")
    html = response.content.decode()
    assert "Zahlung gebucht: Anna hat Bert 25" in html
    payment = Payment.objects.get(evening=evening)
    assert (payment.payer_id, payment.payee_id, payment.amount) == (anna, bert, 25)
    assert payment.recorded_by == scorer.user
    after = {r["player_id"]: r for r in response.context["balances"]}
    assert after[anna]["balance"] == before[anna]["balance"] + 25
    assert after[bert]["balance"] == before[bert]["balance"] - 25


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"amount": "0"}, "ganze Zahl von 1 bis"),
        ({"amount": "-5"}, "ganze Zahl von 1 bis"),
        ({"amount": "2,50"}, "ganze Zahl von 1 bis"),
        ({"amount": "1000001"}, "ganze Zahl von 1 bis"),
        ({"payee": "same"}, "Ein Spieler kann sich nicht selbst bezahlen."),
        ({"payer": ""}, "Wähle, wer bezahlt"),
        ({"payee": "stranger"}, "Wähle, wer bezahlt"),
    ],
)
def test_a_wrong_payment_is_refused_and_books_nothing(
    evening: Evening, scorer: PersonaClient, change: dict[str, str], message: str
) -> None:
    data = {"payer": str(_seated(evening, "Anna")), "payee": str(_seated(evening, "Bert"))}
    data["amount"] = "10"
    data.update(change)
    if data["payee"] == "same":
        data["payee"] = data["payer"]
    if data["payee"] == "stranger":
        data["payee"] = str(PlayerFactory.create(club=ClubFactory.create()).pk)
    entries = LedgerEntry.objects.count()
    response = _pay(scorer, evening, **data)
    assert message in response.content.decode()
    assert not Payment.objects.exists()
    assert LedgerEntry.objects.count() == entries


def test_a_plain_member_cannot_book_payments(evening: Evening, member: PersonaClient) -> None:
    assert 'id="payment-form"' not in member.get(f"/evenings/{evening.pk}/").content.decode()
    response = member.post(
        f"/evenings/{evening.pk}/payments/new/",
        {"payer": _seated(evening, "Anna"), "payee": _seated(evening, "Bert"), "amount": "5"},
        format="multipart",
    )
    assert response.status_code == 403
    assert not Payment.objects.exists()
