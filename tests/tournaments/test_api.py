"""A tournament through the API: set up, draw, confirm, record at the tables through the
ordinary recording API, confirm the sheets, rank, close; refusals in plain words."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from clubs.models import Club
from tests.conftest import PersonaClient
from tests.factories import PlayerFactory
from tournaments import services

pytestmark = pytest.mark.django_db


def _create(admin: PersonaClient, club: Club, **body: Any) -> Any:
    return admin.post(f"/api/clubs/{club.slug}/tournaments/create/", body, format="json")


def test_an_organiser_runs_a_series_through_the_api(
    admin: PersonaClient, scorer: PersonaClient, club: Club
) -> None:
    players = [PlayerFactory.create(club=club) for _ in range(8)]
    players[0].display_name = "=HYPERLINK(1)"
    players[0].save()
    cashier = PlayerFactory.create(club=club)
    created = _create(
        admin,
        club,
        name="Preisfuchsen",
        game_kind="fuchsen",
        series_count=2,
        deals_per_series=1,
        entry_fee=300,
        prizes=[{"percent": 60}, {"percent": 40}],
        cashier=cashier.pk,
        seed="abc",
        players=[p.pk for p in players],
    )
    assert created.status_code == 201, created.json()
    tournament = created.json()
    assert tournament["seed"] == "abc" and len(tournament["participants"]) == 8
    base = f"/api/clubs/{club.slug}/tournaments/{tournament['id']}/"

    drawn = admin.post(base + "draw/", {}, format="json")
    assert drawn.status_code == 201
    assert drawn.json()["status"] == "drawn" and len(drawn.json()["tables"]) == 2
    confirmed = admin.post(base + "series/1/confirm/").json()
    assert admin.post(base + "draw/", {}, format="json").status_code == 409

    entrants = {p["start_number"]: p["player_id"] for p in tournament["participants"]}
    for table in confirmed["tables"]:
        ids = [str(entrants[seat["start_number"]]) for seat in table["seats"]]
        events = [
            {"type": "deal", "dealer": ids[0], "players": ids},
            {"type": "call", "player": ids[1], "card": "E10"},
            {"type": "tally", "level": "re", "augen": 70, "partner": ids[2]},
        ]
        started = scorer.post(
            f"/api/evenings/{table['evening_id']}/games/", {"events": events}, format="json"
        )
        assert started.status_code == 201, started.json()
        sheet_url = base + f"series/1/tables/{table['number']}/"
        sheet = admin.get(sheet_url).json()
        assert sheet["to_play"] == 0 and sheet["finished"] == 1
        assert sorted(s["total"] for s in sheet["seats"]) == [-20, -20, 20, 20]
        for seat in table["seats"]:
            answer = admin.post(
                sheet_url + "confirm/", {"start_number": seat["start_number"]}, format="json"
            )
            assert answer.status_code == 200
        assert answer.json()["closed"] is True

    ranking = admin.get(base + "ranking/").json()
    assert [row["total"] for row in ranking["rows"]] == [20] * 4 + [-20] * 4
    assert ranking["tie_break"]
    assert ranking["pot"] == 2400
    closed = admin.post(base + "close/").json()
    assert closed["status"] == "closed"
    prizes = sorted(row["prize"] for row in closed["final"]["rows"] if row["prize"])
    assert prizes == [600] * 4  # four share places 1-2: (1440 + 960) / 4
    settlement = admin.get(base + "settlement/").json()
    assert sum(settlement["balances"].values()) == 0
    text = admin.get(base + "ranking/csv/").content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][2] == "Name" and len(rows) == 9
    assert any(row[2] == "'=HYPERLINK(1)" for row in rows[1:])


def test_bad_settings_are_a_400_naming_the_fields(admin: PersonaClient, club: Club) -> None:
    answer = _create(
        admin,
        club,
        name="T",
        game_kind="skat",
        series_count=0,
        deals_per_series=5,
        prizes=[{"amount": 5, "percent": 5}],
    )
    assert answer.status_code == 400
    assert {"game_kind", "series_count", "prizes"} <= set(answer.json())
    answer = _create(
        admin,
        club,
        name="T",
        game_kind="fuchsen",
        series_count=1,
        deals_per_series=5,
        entry_fee=500,
    )
    assert answer.status_code == 400 and "cashier" in answer.json()


def test_a_draw_with_too_few_participants_is_a_400(admin: PersonaClient, club: Club) -> None:
    players = [PlayerFactory.create(club=club).pk for _ in range(3)]
    created = _create(
        admin,
        club,
        name="T",
        game_kind="koenigrufen",
        series_count=1,
        deals_per_series=5,
        players=players,
    ).json()
    answer = admin.post(
        f"/api/clubs/{club.slug}/tournaments/{created['id']}/draw/", {}, format="json"
    )
    assert answer.status_code == 400 and "participants" in answer.json()


def test_the_list_of_tournaments_comes_a_page_at_a_time(member: PersonaClient, club: Club) -> None:
    for n in range(3):
        services.tournament_create(
            club=club,
            user=None,
            name=f"Cup {n}",
            game_kind="fuchsen",
            series_count=1,
            deals_per_series=1,
        )
    page = member.get(f"/api/clubs/{club.slug}/tournaments/?page_size=2").json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
