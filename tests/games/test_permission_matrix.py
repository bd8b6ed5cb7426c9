"""Every games endpoint × every persona gets exactly the status it should.

Members read, scorers (and admins, owners) record; a non-member gets a 404 for
everything under another club's evening or game; anonymous visitors a 401.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from clubs.models import Club, Player, Season
from games.models import Evening, Game
from tests.conftest import PersonaClient
from tests.games import records
from tests.games.factories import ids
from tests.permission_matrix import Endpoint, cases, check, members_read, scorers_write


@dataclass
class World:
    club: Club
    season: Season
    evening: Evening
    game: Game
    players: dict[str, Player]


@pytest.fixture
def world(
    club: Club, players: dict[str, Player], evening: Evening, dealt_game: Game, owner: PersonaClient
) -> World:
    return World(
        club=club, season=evening.season, evening=evening, game=dealt_game, players=players
    )


def evening_url(suffix: str = "") -> Any:
    return lambda w: f"/api/evenings/{w.evening.pk}/{suffix}"


def game_url(suffix: str = "") -> Any:
    return lambda w: f"/api/games/{w.game.pk}/{suffix}"


ENDPOINTS = [
    Endpoint(
        "evening list", "get", lambda w: f"/api/clubs/{w.club.slug}/evenings/", members_read()
    ),
    Endpoint(
        "evening create",
        "post",
        lambda w: f"/api/clubs/{w.club.slug}/evenings/",
        scorers_write(201),
        data=lambda w: {
            "season": w.season.pk,
            "place": "Gasthaus Post",
            "players": [w.players[n].pk for n in ("anna", "bert", "carl", "dora")],
        },
    ),
    Endpoint("evening detail", "get", evening_url(), members_read()),
    Endpoint("evening close", "post", evening_url("close/"), scorers_write()),
    Endpoint(
        "seat add",
        "post",
        evening_url("seats/"),
        scorers_write(201),
        data=lambda w: {"player": w.players["franz"].pk, "position": 1},
    ),
    Endpoint(
        "seat remove",
        "delete",
        lambda w: f"/api/evenings/{w.evening.pk}/seats/{w.players['emil'].pk}/",
        scorers_write(204),
    ),
    Endpoint("game start", "post", evening_url("games/"), scorers_write(201), data=lambda w: {}),
    Endpoint("evening records", "get", evening_url("records/"), members_read()),
    Endpoint(
        "evening import",
        "post",
        evening_url("import/"),
        scorers_write(),
        data=lambda w: [records.record(records.NO_KONTRA)],
    ),
    Endpoint(
        "season records",
        "get",
        lambda w: f"/api/clubs/{w.club.slug}/seasons/{w.season.pk}/records/",
        members_read(),
    ),
    Endpoint("game detail", "get", game_url(), members_read()),
    Endpoint(
        "event append",
        "post",
        game_url("events/"),
        scorers_write(201),
        data=lambda w: {
            "expected_seq": 1,
            "events": ids({"events": records.NO_KONTRA}, w.players)["events"],
        },
    ),
    Endpoint("game record", "get", game_url("record/"), members_read()),
]


@pytest.mark.parametrize(("endpoint", "persona"), cases(ENDPOINTS))
def test_each_persona_gets_the_status_its_role_allows(
    endpoint: Endpoint, persona: str, persona_client: Any, world: World
) -> None:
    check(endpoint, persona_client(persona), world, persona)


@pytest.mark.django_db
def test_an_evening_or_game_that_does_not_exist_is_not_found(owner: PersonaClient) -> None:
    assert owner.get("/api/evenings/987654/").status_code == 404
    assert owner.get("/api/games/987654/").status_code == 404
    assert owner.post("/api/games/987654/events/", {}, format="json").status_code == 404


def test_a_player_of_another_club_cannot_be_seated(
    owner: PersonaClient, evening: Evening, other_club: Club
) -> None:
    from tests.factories import PlayerFactory

    foreign = PlayerFactory.create(club=other_club)
    response = owner.post(
        f"/api/evenings/{evening.pk}/seats/", {"player": foreign.pk}, format="json"
    )
    assert response.status_code == 400
    assert "player" in response.json()
