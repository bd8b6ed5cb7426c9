"""Fixtures of the analysis tests: the games tests' Fuchsen table of five, a game played
out card by card (shared example 04) and one kept only as a tally."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Player
from games import services
from games.models import Evening, Game
from tests.games import records
from tests.games.conftest import as_ids, dealt_game, evening, players  # noqa: F401
from tests.games.factories import ids


@pytest.fixture
def played_game(evening: Evening, players: dict[str, Player]) -> Game:  # noqa: F811
    """Game 1: shared example 04 recorded card by card (bert and carl win 96 : 25)."""
    events = ids(records.RE_PLAYED_OUT, players)["events"]
    return services.game_started(evening=evening, user=None, events=events).game


TALLY_EVENTS: list[dict[str, Any]] = [
    records.DEAL,
    {"type": "call", "player": "bert", "card": "E10"},
    {"type": "tally", "level": "re", "augen": 70, "partner": "carl"},
]


@pytest.fixture
def tally_game(evening: Evening, players: dict[str, Player]) -> Game:  # noqa: F811
    """A game entered as the table counted it: the deal, the call and a tally."""
    events = ids({"events": TALLY_EVENTS}, players)["events"]
    return services.game_started(evening=evening, user=None, events=events).game
