"""The game's answer says why each greyed card is refused, in the reader's language,
with the players' names (the engine's reasons, worded by ``games.engine_text``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from clubs.models import Player
from games.models import Game
from tests.conftest import PersonaClient
from tests.games import records

pytestmark = pytest.mark.django_db


def test_the_answer_gives_a_german_reason_for_each_refused_card(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any, players: dict[str, Player]
) -> None:
    # bert leads EO: carl holds trumps (RU, RA), so his plain cards are refused.
    response = scorer.post(
        f"/api/games/{dealt_game.pk}/events/",
        {"expected_seq": 1, "events": as_ids(records.NO_KONTRA[:2])},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    refused = body["state"]["legal"]["refused"]
    assert refused["GA"]["code"] == "must_follow_suit"
    reason = body["reasons"]["play"]["GA"]
    assert "Carl" in reason  # the name, not the id
    assert str(players["carl"].pk) not in reason
    assert reason != refused["GA"]["message"]
    assert set(body["reasons"]["play"]) == set(refused)
    assert not set(body["reasons"]["play"]) & set(body["state"]["legal"]["cards"])


def test_the_page_embeds_the_reasons(scorer: PersonaClient, dealt_game: Game, as_ids: Any) -> None:
    scorer.post(
        f"/api/games/{dealt_game.pk}/events/",
        {"expected_seq": 1, "events": as_ids(records.NO_KONTRA[:2])},
    )
    with translation.override("de"):
        page = scorer.get(f"/games/{dealt_game.pk}/", HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200
    assert '"reasons"' in page.content.decode()
