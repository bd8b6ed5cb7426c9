"""What members read: balances, CSV files, standings, ratings, series, the standings config."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest

from clubs.models import Club
from ledger.services import settlement_plan_create, settlement_transfer_mark_paid
from tests.conftest import PersonaClient
from tests.ledger.factories import Table, finish, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(club: Club, django_capture_on_commit_callbacks: Callable[..., Any]) -> Table:
    table = make_table(club=club, players=3)
    with django_capture_on_commit_callbacks(execute=True):
        finish(
            table.new_game(),
            {table.pk(0): 40, table.pk(1): -20, table.pk(2): -20},
            declarers=[table.pk(0)],
        )
        finish(
            table.new_game(),
            {table.pk(0): -10, table.pk(1): 20, table.pk(2): -10},
            declarers=[table.pk(1)],
        )
    return table


def read_csv(content: bytes) -> list[list[str]]:
    text = content.decode("utf-8")
    assert text.startswith("\ufeff")  # the BOM German spreadsheets need to read UTF-8
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";"))


def test_the_balances_list_results_payments_and_open_balance_summing_to_zero(
    table: Table, member: PersonaClient
) -> None:
    body = member.get(f"/api/clubs/{table.club.slug}/balances/?season={table.season.pk}").json()
    assert body["unit"] == "cent" and body["season"] == table.season.pk
    balances = {row["player_id"]: row for row in body["balances"]}
    assert balances[table.players[0].pk]["balance"] == 30
    assert sum(row["balance"] for row in body["balances"]) == 0


def test_a_balance_filter_of_another_club_is_a_400(table: Table, member: PersonaClient) -> None:
    other = make_table(players=1)
    response = member.get(f"/api/clubs/{table.club.slug}/balances/?evening={other.evening.pk}")
    assert response.status_code == 400
    assert "evening" in response.json()
    assert member.get(f"/api/clubs/{table.club.slug}/balances/?season=abc").status_code == 400


@pytest.mark.parametrize("query", ["?evening=", "?season=", "?evening=0", "?season=-3", "?x=1"])
def test_odd_balance_filters_never_crash(table: Table, member: PersonaClient, query: str) -> None:
    response = member.get(f"/api/clubs/{table.club.slug}/balances/{query}")
    assert response.status_code in (200, 400)


def test_the_balances_csv_is_semicolon_separated_with_the_unit_in_the_header(
    table: Table, member: PersonaClient
) -> None:
    response = member.get(
        f"/api/clubs/{table.club.slug}/balances/csv/?evening={table.evening.pk}",
        HTTP_ACCEPT="text/csv",
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    rows = read_csv(response.content)
    assert len(rows[0]) == 4 and all("(Cent)" in cell for cell in rows[0][1:])
    by_name = {row[0]: row[1:] for row in rows[1:]}
    assert by_name[table.players[0].display_name] == ["30", "0", "30"]


def test_the_plan_csv_lists_each_transfer_and_when_it_was_paid(
    table: Table, member: PersonaClient
) -> None:
    plan = settlement_plan_create(club=table.club, created_by=None, season=table.season)
    first = plan.transfers.first()
    assert first is not None
    settlement_transfer_mark_paid(transfer=first, paid_by=None)
    response = member.get(f"/api/clubs/{table.club.slug}/settlement-plans/{plan.pk}/csv/")
    rows = read_csv(response.content)
    assert len(rows) == 1 + plan.transfers.count()
    assert rows[0][2].endswith("(Cent)")
    assert rows[1][3] != "" and all(row[3] == "" for row in rows[2:])
    assert sum(int(row[2]) for row in rows[1:]) == sum(t.amount for t in plan.transfers.all())


def test_a_csv_of_a_missing_plan_is_a_404_even_when_csv_is_asked_for(
    table: Table, member: PersonaClient
) -> None:
    response = member.get(
        f"/api/clubs/{table.club.slug}/settlement-plans/424242/csv/", HTTP_ACCEPT="text/csv"
    )
    assert response.status_code == 404


def test_the_season_standings_come_ranked_and_up_to_date(
    table: Table, member: PersonaClient
) -> None:
    body = member.get(f"/api/clubs/{table.club.slug}/seasons/{table.season.pk}/standings/").json()
    assert body["up_to_date"] is True and body["computed_at"]
    assert [(row["rank"], row["player_id"], row["net"]) for row in body["rows"]] == [
        (1, table.players[0].pk, 30),
        (2, table.players[1].pk, 0),
        (3, table.players[2].pk, -30),
    ]
    evening = member.get(
        f"/api/clubs/{table.club.slug}/seasons/{table.season.pk}/standings/"
        f"?evening={table.evening.pk}"
    ).json()
    assert [row["net"] for row in evening["rows"]] == [30, 0, -30]


def test_the_standings_of_an_evening_of_another_season_are_a_400(
    table: Table, member: PersonaClient
) -> None:
    other = make_table(players=1)
    response = member.get(
        f"/api/clubs/{table.club.slug}/seasons/{table.season.pk}/standings/"
        f"?evening={other.evening.pk}"
    )
    assert response.status_code == 400 and "evening" in response.json()


def test_a_season_of_another_club_is_a_404(table: Table, member: PersonaClient) -> None:
    other = make_table(players=1)
    url = f"/api/clubs/{table.club.slug}/seasons/{other.season.pk}/standings/"
    assert member.get(url).status_code == 404
    assert member.get(f"/api/clubs/{table.club.slug}/seasons/{2**70}/ratings/").status_code == 404


def test_ratings_and_a_players_history_are_served(table: Table, member: PersonaClient) -> None:
    base = f"/api/clubs/{table.club.slug}/seasons/{table.season.pk}/ratings/"
    ratings = member.get(base).json()["ratings"]
    assert {r["player_id"] for r in ratings} == {p.pk for p in table.players}
    history = member.get(f"{base}{table.players[0].pk}/").json()["history"]
    assert [point["game_id"] for point in history] == sorted(point["game_id"] for point in history)
    assert len(history) == 2
    assert member.get(f"{base}999999/").status_code == 404


def test_the_series_carry_running_nets_and_head_to_head(
    table: Table, member: PersonaClient
) -> None:
    body = member.get(f"/api/clubs/{table.club.slug}/seasons/{table.season.pk}/series/").json()
    values = body["cumulative"]["values"]
    assert values[table.pk(0)] == [40, 30]
    assert body["players"][table.pk(0)] == table.players[0].display_name
    h2h = body["head_to_head"]
    assert h2h[table.pk(0)][table.pk(1)] == -h2h[table.pk(1)][table.pk(0)]


def test_an_admin_changes_the_standings_config_and_members_read_it(
    table: Table,
    admin: PersonaClient,
    member: PersonaClient,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    url = f"/api/clubs/{table.club.slug}/standings-config/"
    assert member.get(url).json() == {"min_games": 0, "tie_break": ["net", "per_game", "wins"]}
    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post(
            f"{url}update/", {"min_games": 5, "tie_break": ["wins", "net"]}, format="json"
        )
    assert response.status_code == 200, response.content
    assert member.get(url).json() == {"min_games": 5, "tie_break": ["wins", "net"]}
    standings = member.get(f"/api/clubs/{table.club.slug}/seasons/{table.season.pk}/standings/")
    assert all(row["rank"] is None for row in standings.json()["rows"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"min_games": -1}, "min_games"),
        ({"min_games": "many"}, "min_games"),
        ({"tie_break": []}, "tie_break"),
        ({"tie_break": ["net", "net"]}, "tie_break"),
        ({"tie_break": ["luck"]}, "tie_break"),
        ({"tie_break": "net"}, "tie_break"),
    ],
)
def test_a_bad_standings_config_is_a_400_naming_the_field(
    table: Table, admin: PersonaClient, body: dict[str, Any], field: str
) -> None:
    response = admin.post(
        f"/api/clubs/{table.club.slug}/standings-config/update/", body, format="json"
    )
    assert response.status_code == 400, response.content
    assert field in response.json()


def test_the_openapi_schema_describes_the_ledger_endpoints(member: PersonaClient) -> None:
    response = member.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    text = response.content.decode()
    for path in ("balances/csv/", "settlement-plans/create/", "standings/", "series/"):
        assert path in text
