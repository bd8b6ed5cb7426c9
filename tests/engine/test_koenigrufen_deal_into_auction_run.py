"""Königrufen's fold goes from the deal straight into the auction's run
(``Koenigrufen.open_game``), without a state after the deal: compared state by state
with the event-by-event fold on every prefix of random games, and on records whose
first event after the deal is not one the run takes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.generate import random_game
from tests.engine.folds import fold_both


@pytest.mark.parametrize("hands", [True, False])
def test_every_prefix_from_the_deal_matches_the_plain_fold(hands: bool) -> None:
    for seed in range(60):
        record = random_game(7_000 + seed, "koenigrufen", 4, hands=hands)
        events = record["events"]
        for n in range(1, min(len(events), 8) + 1):
            both = fold_both({**record, "events": events[:n]})
            assert both is not None
            assert both[0] == both[1], (seed, n)


def test_odd_events_after_the_deal_match_the_plain_fold() -> None:
    rng = random.Random(5)
    odd: list[Any] = [
        {"type": "annul"},
        {"type": "pass"},
        {"type": "pass", "player": 3},
        {"type": "play", "player": "?", "card": "EA"},
        {"type": "bid", "player": "?", "contract": "bettler"},
        "pass",
        {"type": "forfeit", "player": "?"},
    ]
    for seed in range(40):
        record = random_game(8_000 + seed, "koenigrufen", 4, hands=seed % 2 == 0)
        events = record["events"]
        players = events[0]["players"]
        for template in odd:
            event = template
            if isinstance(template, dict) and template.get("player") == "?":
                event = {**template, "player": rng.choice(players)}
            changed = {**record, "events": [events[0], event, *events[1:]]}
            both = fold_both(changed)
            assert both is not None
            assert both[0] == both[1], (seed, event)
        # The auction's first word by the wrong player, or with an extra field.
        first = events[1]
        wrong = {**first, "player": players[(players.index(first["player"]) + 1) % 4]}
        for event in (wrong, {**first, "extra": 1}):
            both = fold_both({**record, "events": [events[0], event, *events[2:]]})
            assert both is not None
            assert both[0] == both[1], (seed, event)
