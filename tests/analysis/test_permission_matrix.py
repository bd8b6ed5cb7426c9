"""The analysis endpoint × every persona: members read, non-members 404, anonymous 401."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from tests.permission_matrix import Endpoint, cases, check, members_read

ENDPOINTS = [
    Endpoint(
        "game analysis", "get", lambda game: f"/api/games/{game.pk}/analysis/", members_read()
    ),
]


@pytest.mark.parametrize(("endpoint", "persona"), cases(ENDPOINTS))
def test_each_persona_gets_the_status_its_role_allows(
    endpoint: Endpoint, persona: str, persona_client: Any, played_game: Game
) -> None:
    check(endpoint, persona_client(persona), played_game, persona)
