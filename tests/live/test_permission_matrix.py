"""Every live endpoint × every persona gets exactly the status it should."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from games.models import Evening, Game
from live import services
from tests.conftest import PersonaClient
from tests.permission_matrix import Endpoint, any_user, cases, check, members_read, scorers_write


@dataclass
class World:
    evening: Evening
    game: Game
    link_id: int
    token: str


@pytest.fixture
def world(evening: Evening, dealt_game: Game, owner: PersonaClient) -> World:
    link = services.live_link_create(evening=evening, user=None)
    return World(evening=evening, game=dealt_game, link_id=link.pk, token=services.link_token(link))


def links(suffix: str = "") -> Any:
    return lambda w: f"/api/evenings/{w.evening.pk}/live-links/{suffix}"


ENDPOINTS = [
    Endpoint("game history", "get", lambda w: f"/api/games/{w.game.pk}/history/", members_read()),
    Endpoint("evening log", "get", lambda w: f"/api/evenings/{w.evening.pk}/log/", members_read()),
    Endpoint("live link list", "get", links(), scorers_write()),
    Endpoint("live link open", "post", links(), scorers_write(201)),
    Endpoint(
        "live link revoke",
        "post",
        lambda w: f"/api/evenings/{w.evening.pk}/live-links/{w.link_id}/revoke/",
        scorers_write(204),
    ),
    # The link is the key: anyone holding it reads, an account or not.
    Endpoint(
        "live state", "get", lambda w: f"/api/live/{w.token}/", any_user() | {"anonymous": 200}
    ),
]


@pytest.mark.parametrize(("endpoint", "persona"), cases(ENDPOINTS))
def test_each_persona_gets_the_status_its_role_allows(
    endpoint: Endpoint, persona: str, persona_client: Any, world: World
) -> None:
    check(endpoint, persona_client(persona), world, persona)
