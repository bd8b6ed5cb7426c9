"""Payments: booked as two ledger entries, so open balances are results minus payments."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Club, GameKind
from ledger.models import LedgerEntry, Payment
from ledger.selectors import balance_map
from ledger.services import payment_record
from tests.conftest import PersonaClient
from tests.ledger.factories import PaymentFactory, Table, finish, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(club: Club) -> Table:
    table = make_table(club=club, players=3)
    finish(table.new_game(), {table.pk(0): 40, table.pk(1): -30, table.pk(2): -10})
    return table


def test_a_payment_reduces_what_the_payer_owes_and_what_the_payee_is_owed(table: Table) -> None:
    payer, payee = table.players[1], table.players[0]
    payment = payment_record(club=table.club, payer=payer, payee=payee, amount=30, recorded_by=None)
    entries = LedgerEntry.objects.filter(payment=payment).order_by("id")
    assert [(e.player_id, e.amount, e.kind) for e in entries] == [
        (payer.pk, 30, "payment"),
        (payee.pk, -30, "payment"),
    ]
    assert balance_map(club=table.club) == {payee.pk: 10, payer.pk: 0, table.players[2].pk: -10}


def test_a_payment_for_an_evening_counts_for_that_evening_and_its_season(table: Table) -> None:
    payment_record(
        club=table.club,
        payer=table.players[2],
        payee=table.players[0],
        amount=10,
        recorded_by=None,
        evening=table.evening,
    )
    for scope in ({"evening": table.evening}, {"season": table.season}):
        balances = balance_map(club=table.club, **scope)
        assert balances[table.players[2].pk] == 0 and sum(balances.values()) == 0


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"amount": 0}, "amount"),
        ({"amount": -5}, "amount"),
        ({"amount": 2.5}, "amount"),
        ({"amount": True}, "amount"),
        ({"payee": "payer"}, "payee"),
        ({"payer": "stranger"}, "payer"),
    ],
)
def test_a_payment_that_makes_no_sense_is_refused_naming_the_field(
    table: Table, change: dict[str, Any], field: str
) -> None:
    stranger = make_table(players=1).players[0]
    kwargs: dict[str, Any] = {
        "club": table.club,
        "payer": table.players[1],
        "payee": table.players[0],
        "amount": 10,
        "recorded_by": None,
    }
    for key, value in change.items():
        kwargs[key] = {"payer": kwargs["payer"], "stranger": stranger}.get(value, value)
    with pytest.raises(ValidationError) as caught:
        payment_record(**kwargs)
    assert field in caught.value.message_dict
    assert not Payment.objects.exists()


def test_an_evening_of_another_season_is_refused(table: Table) -> None:
    other = make_table(club=table.club, players=1, game_kind=GameKind.KOENIGRUFEN)
    with pytest.raises(ValidationError) as caught:
        payment_record(
            club=table.club,
            payer=table.players[1],
            payee=table.players[0],
            amount=10,
            recorded_by=None,
            evening=table.evening,
            season=other.season,
        )
    assert "season" in caught.value.message_dict


def test_a_scorer_records_a_payment_through_the_api(table: Table, scorer: PersonaClient) -> None:
    response = scorer.post(
        f"/api/clubs/{table.club.slug}/payments/create/",
        {"payer": table.players[1].pk, "payee": table.players[0].pk, "amount": 25},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["payer_name"] == table.players[1].display_name
    assert response.json()["recorded_by"] == "scorer"
    listed = scorer.get(f"/api/clubs/{table.club.slug}/payments/").json()
    assert [p["amount"] for p in listed["results"]] == [25]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"amount": 10}, "payer"),
        ({"payer": "x", "amount": 10}, "payer"),
        ({"amount": "ten"}, "amount"),
        ({"amount": 0}, "amount"),
        ({"amount": 10**13}, "amount"),
        ({"amount": 10, "evening": 999999}, "evening"),
        ({"amount": 10, "season": 2**70}, "season"),
        ({"amount": 10, "same": True}, "payee"),
        ({"amount": 10, "foreign_payee": True}, "payee"),
    ],
)
def test_bad_payment_input_is_a_400_naming_the_field(
    table: Table, scorer: PersonaClient, body: dict[str, Any], field: str
) -> None:
    data: dict[str, Any] = {"payer": table.players[1].pk, "payee": table.players[0].pk, **body}
    if data.pop("same", False):
        data["payee"] = data["payer"]
    if data.pop("foreign_payee", False):
        data["payee"] = make_table(players=1).players[0].pk
    if field == "payer" and "payer" not in body:
        del data["payer"]
    response = scorer.post(f"/api/clubs/{table.club.slug}/payments/create/", data, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()


def test_the_payment_factory_builds_a_payment_between_two_players_of_one_club() -> None:
    payment = PaymentFactory.create()
    assert payment.payer.club_id == payment.payee.club_id == payment.club_id
