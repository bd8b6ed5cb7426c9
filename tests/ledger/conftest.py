"""Fixtures of the ledger's page tests."""

from __future__ import annotations

import pytest

from clubs.models import Club
from games.models import Evening
from tests.e2e.tables import open_evening, players_of, record_game
from tests.games.records import RE_PLAYED_OUT


@pytest.fixture
def evening(club: Club) -> Evening:
    """A Fuchsen evening of five with one finished game (raised to Re, played out)."""
    players = players_of(club)
    evening = open_evening(club, players)
    record_game(evening, players, RE_PLAYED_OUT)
    return evening
