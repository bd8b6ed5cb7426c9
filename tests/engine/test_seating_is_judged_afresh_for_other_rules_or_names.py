"""Seatings are cached per game; the cache must never hand out another deal's seating."""

from __future__ import annotations

import copy
from typing import Any

from engine import replay
from engine.generate import random_game


def _five(seed: int) -> dict[str, Any]:
    return random_game(seed, "fuchsen", 5, hands=True)


def test_the_same_seating_under_other_rules_or_fields_is_judged_afresh() -> None:
    record = _five(3)
    assert replay(record).status == "finished"
    assert replay(copy.deepcopy(record)).status == "finished"  # from the cache
    # Other removed cards: a dealt card leaves the deck.
    other_rules = {**record, "rules": {"removed_cards": ["E9", "E8"]}}
    assert replay(other_rules).error is not None
    explicit = copy.deepcopy(record)
    explicit["events"][0]["removed"] = ["E9", "E8"]
    assert replay(explicit).error is not None
    null_removed = copy.deepcopy(record)
    null_removed["events"][0]["removed"] = None
    assert replay(null_removed).error is not None
    sitting = copy.deepcopy(record)
    sitting["events"][0]["sitting_out"] = sitting["events"][0]["dealer"]
    assert replay(sitting).error is not None  # only with six seated
    # And the cached seating still serves the original.
    assert replay(record).status == "finished"


def test_the_same_names_in_another_order_or_kind_are_judged_afresh() -> None:
    record = random_game(5, "koenigrufen", 4, hands=True)
    assert replay(record).status == "finished"
    deal = record["events"][0]
    other_dealer = copy.deepcopy(record)
    seats = deal["players"]
    other_dealer["events"][0]["dealer"] = seats[(seats.index(deal["dealer"]) + 1) % 4]
    assert replay(other_dealer).to_dict() != replay(record).to_dict()
    unhashable = copy.deepcopy(record)
    unhashable["events"][0]["players"] = [[name] for name in seats]
    error = replay(unhashable).error
    assert error is not None
    assert error.code == "invalid_deal"
