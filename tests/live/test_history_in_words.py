"""A game's history says its entries in words: cards by name, levels and contracts as
the table says them, won or lost — not "S10", "kontra", "tally"."""

from __future__ import annotations

import re
from typing import Any

from games import services
from games.models import Game
from tests.conftest import PersonaClient
from tests.games.records import RE_PLAYED_OUT


def test_the_history_names_cards_and_levels_in_words(
    dealt_game: Game, as_ids: Any, member: PersonaClient
) -> None:
    events = as_ids(RE_PLAYED_OUT["events"][1:7])  # the call, three cards, Kontra, Re
    services.game_events_append(
        game=dealt_game, user=None, expected_seq=dealt_game.last_seq, events=events
    )
    html = member.get(f"/games/{dealt_game.pk}/history/", HTTP_ACCEPT_LANGUAGE="de").content
    text = re.sub(r"<[^>]+>", " ", html.decode())
    assert "Eichel-Zehner" in text  # the called card E10
    assert "Rot-Sau" in text  # Carl's RA
    assert "Kontra" in text and "Re" in text
    for code in ("E10", "RA", "R10", "kontra"):
        assert not re.search(rf"\b{code}\b", text), code


def test_a_result_typed_in_is_said_in_words(
    evening: Any, players: Any, member: PersonaClient
) -> None:
    from games import selectors

    deal = selectors.next_deal(evening=evening).event
    assert deal is not None
    bert, carl = str(players["bert"].pk), str(players["carl"].pk)
    game = services.game_started(
        evening=evening,
        user=None,
        events=[
            deal,
            {"type": "call", "player": bert, "card": "SA"},
            {"type": "tally", "level": "supp", "won": True, "silent": True, "partner": carl},
        ],
    ).game
    html = member.get(f"/games/{game.pk}/history/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    text = re.sub(r"<[^>]+>", " ", html)
    assert "Supp" in text and "gewonnen" in text and "Stilles Spiel" in text
    assert "Carl" in text
    assert not re.search(r"\btally\b|\bTrue\b|\bsupp\b", text)
