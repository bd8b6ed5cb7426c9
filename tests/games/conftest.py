"""Fixtures of the games tests: a Fuchsen table of five in the persona club."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from clubs.models import Club, Player
from games import services
from games.models import Evening, Game
from tests.games import records
from tests.games.factories import NAMES, club_players, ids, seated_evening


@pytest.fixture
def players(club: Club) -> dict[str, Player]:
    """Anna, Bert, Carl, Dora, Emil and Franz of ``club``, by lower-case name."""
    return club_players(club, NAMES)


@pytest.fixture
def evening(club: Club, players: dict[str, Player]) -> Evening:
    """An open Fuchsen evening: Anna, Bert, Carl, Dora, Emil seated in that order."""
    return seated_evening(club, NAMES[:5])


@pytest.fixture
def dealt_game(evening: Evening, players: dict[str, Player]) -> Game:
    """Game 1 of ``evening``: the deal of ``records.DEAL`` (Anna deals, hands known)."""
    deal = ids({"events": [records.DEAL]}, players)["events"][0]
    return services.game_start(evening=evening, user=None, deal=deal)


@pytest.fixture
def as_ids(players: dict[str, Player]) -> Any:
    """Turn events with lower-case names into events with player ids."""

    def convert(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        converted: list[dict[str, Any]] = ids({"events": events}, players)["events"]
        return converted

    return convert


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Tests marked ``postgres`` run only when the database is PostgreSQL.

    (The root conftest may say the same; saying it here keeps these tests right
    on SQLite whatever the root conftest holds.)
    """
    if item.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://...")
