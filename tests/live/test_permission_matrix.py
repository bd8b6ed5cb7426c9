"""Every live endpoint × every persona gets exactly the status it should."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from games.models import Evening, Game
from tests.conftest import PersonaClient
from tests.permission_matrix import Endpoint, cases, check, members_read


@dataclass
class World:
    evening: Evening
    game: Game


@pytest.fixture
def world(evening: Evening, dealt_game: Game, owner: PersonaClient) -> World:
    return World(evening=evening, game=dealt_game)


ENDPOINTS = [
    Endpoint("game history", "get", lambda w: f"/api/games/{w.game.pk}/history/", members_read()),
    Endpoint("evening log", "get", lambda w: f"/api/evenings/{w.evening.pk}/log/", members_read()),
]


@pytest.mark.parametrize(("endpoint", "persona"), cases(ENDPOINTS))
def test_each_persona_gets_the_status_its_role_allows(
    endpoint: Endpoint, persona: str, persona_client: Any, world: World
) -> None:
    check(endpoint, persona_client(persona), world, persona)
