"""Settlement plans: the fewest transfers that clear open balances, each paid exactly once."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Club
from ledger.models import LedgerEntry, Payment, SettlementTransfer
from ledger.selectors import balance_map
from ledger.services import settlement_plan_create, settlement_transfer_mark_paid
from tests.conftest import PersonaClient
from tests.ledger.factories import Table, finish, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(club: Club) -> Table:
    table = make_table(club=club, players=4)
    finish(
        table.new_game(), {table.pk(0): 60, table.pk(1): -20, table.pk(2): -20, table.pk(3): -20}
    )
    finish(table.new_game(), {table.pk(1): 30, table.pk(2): -30})
    return table


def transfers(table: Table, plan_transfers: list[SettlementTransfer]) -> list[tuple[int, int, int]]:
    index = {player.pk: i for i, player in enumerate(table.players)}
    return [(index[t.payer_id], index[t.payee_id], t.amount) for t in plan_transfers]


def test_a_plan_clears_the_evening_with_the_fewest_transfers(table: Table) -> None:
    plan = settlement_plan_create(club=table.club, created_by=None, evening=table.evening)
    # Balances: p0 +60, p1 +10, p2 -50, p3 -20.
    assert plan.balances == {table.pk(0): 60, table.pk(1): 10, table.pk(2): -50, table.pk(3): -20}
    planned = transfers(table, list(plan.transfers.all()))
    assert len(planned) == 3  # four players, no zero-sum pair: n - 1 is the minimum
    after = [60, 10, -50, -20]
    for payer, payee, amount in planned:
        after[payer] += amount
        after[payee] -= amount
    assert after == [0, 0, 0, 0]


def test_paying_every_transfer_clears_every_balance(table: Table) -> None:
    plan = settlement_plan_create(club=table.club, created_by=None, season=table.season)
    for transfer in plan.transfers.all():
        settlement_transfer_mark_paid(transfer=transfer, paid_by=None)
    assert set(balance_map(club=table.club, season=table.season).values()) == {0}
    assert set(balance_map(club=table.club).values()) == {0}
    # A season's payment is not an evening's: the evening still shows its own results.
    assert balance_map(club=table.club, evening=table.evening)[table.players[0].pk] == 60


def test_marking_a_transfer_paid_twice_pays_it_once(table: Table) -> None:
    plan = settlement_plan_create(club=table.club, created_by=None, evening=table.evening)
    transfer = plan.transfers.first()
    assert transfer is not None
    first = settlement_transfer_mark_paid(transfer=transfer, paid_by=None)
    stale = SettlementTransfer.objects.get(pk=transfer.pk)
    again = settlement_transfer_mark_paid(transfer=stale, paid_by=None)
    assert first.payment_id is not None and again.payment_id == first.payment_id
    assert first.paid_at == again.paid_at
    assert Payment.objects.count() == 1
    assert LedgerEntry.objects.filter(kind="payment").count() == 2


def test_a_plan_of_settled_balances_has_no_transfers(table: Table) -> None:
    plan = settlement_plan_create(club=table.club, created_by=None, evening=table.evening)
    for transfer in plan.transfers.all():
        settlement_transfer_mark_paid(transfer=transfer, paid_by=None)
    again = settlement_plan_create(club=table.club, created_by=None, evening=table.evening)
    assert list(again.transfers.all()) == []


def test_a_plan_needs_exactly_one_of_evening_and_season(table: Table) -> None:
    with pytest.raises(ValidationError):
        settlement_plan_create(club=table.club, created_by=None)
    with pytest.raises(ValidationError):
        settlement_plan_create(
            club=table.club, created_by=None, evening=table.evening, season=table.season
        )


def test_a_plan_for_an_evening_of_another_club_is_refused(table: Table) -> None:
    other = make_table(players=2)
    with pytest.raises(ValidationError) as caught:
        settlement_plan_create(club=table.club, created_by=None, evening=other.evening)
    assert "evening" in caught.value.message_dict


def test_a_scorer_plans_and_marks_paid_through_the_api(
    table: Table, scorer: PersonaClient, member: PersonaClient
) -> None:
    base = f"/api/clubs/{table.club.slug}/settlement-plans"
    created = scorer.post(f"{base}/create/", {"evening": table.evening.pk}, format="json")
    assert created.status_code == 201, created.content
    plan = created.json()
    assert len(plan["transfers"]) == 3 and plan["all_paid"] is False
    for transfer in plan["transfers"]:
        url = f"{base}/{plan['id']}/transfers/{transfer['id']}/mark-paid/"
        for _attempt in range(2):  # a double tap pays once
            response = scorer.post(url)
            assert response.status_code == 200, response.content
            assert response.json()["is_paid"] is True
    detail = member.get(f"{base}/{plan['id']}/").json()
    assert detail["all_paid"] is True
    assert Payment.objects.count() == 3
    balances = member.get(f"/api/clubs/{table.club.slug}/balances/?evening={table.evening.pk}")
    assert {row["balance"] for row in balances.json()["balances"]} == {0}


@pytest.mark.parametrize(
    "body",
    [{}, {"evening": 1, "season": 1}, {"evening": "x"}, {"season": 987654}, {"evening": -1}],
)
def test_bad_plan_input_is_a_400(
    table: Table, scorer: PersonaClient, body: dict[str, object]
) -> None:
    response = scorer.post(
        f"/api/clubs/{table.club.slug}/settlement-plans/create/", body, format="json"
    )
    assert response.status_code == 400, response.content


def test_a_transfer_of_another_plan_or_a_huge_id_is_a_404(
    table: Table, scorer: PersonaClient
) -> None:
    plan = settlement_plan_create(club=table.club, created_by=None, evening=table.evening)
    base = f"/api/clubs/{table.club.slug}/settlement-plans"
    assert scorer.post(f"{base}/{plan.pk}/transfers/999999/mark-paid/").status_code == 404
    assert scorer.get(f"{base}/{2**70}/").status_code == 404


def test_an_evening_is_not_settled_again_after_its_season_was_paid(table: Table) -> None:
    plan = settlement_plan_create(club=table.club, created_by=None, season=table.season)
    for transfer in plan.transfers.all():
        settlement_transfer_mark_paid(transfer=transfer, paid_by=None)
    # The evening's own balance still shows its results; settling it would ask for
    # the money the season's plan collected.
    with pytest.raises(ValidationError) as refused:
        settlement_plan_create(club=table.club, created_by=None, evening=table.evening)
    assert list(refused.value.message_dict) == ["evening"]
    # The season, settled again, knows everything is paid.
    again = settlement_plan_create(club=table.club, created_by=None, season=table.season)
    assert list(again.transfers.all()) == []


def test_a_season_is_settled_after_its_evenings_without_asking_twice(table: Table) -> None:
    plan = settlement_plan_create(club=table.club, created_by=None, evening=table.evening)
    for transfer in plan.transfers.all():
        settlement_transfer_mark_paid(transfer=transfer, paid_by=None)
    season_plan = settlement_plan_create(club=table.club, created_by=None, season=table.season)
    assert list(season_plan.transfers.all()) == []
