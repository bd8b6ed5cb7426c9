"""The table view's trials ask only whether a record stays valid
(``engine.replay.record_error``): its answer is ``replay``'s error where the record is
invalid and None where it is not, although it stops the candidate partners' folds at
the first one that keeps the record valid, and whichever candidate it is asked to fold
first.

Checked on every reference record (valid and invalid ones, partners known and not)
and on random prefixes of random games with and without hands, each with an event
appended as the view tries one: a card of any player, face down or with the Fuchs, a
``show`` of the called card.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import replay
from engine.cards import CODES
from engine.generate import random_game
from engine.replay import record_error
from engine.result import EngineError
from tests.engine._shared import CORPORA, EXAMPLES, example_names, generated_games, load, seeds


def _replays_error(record: object) -> EngineError | None:
    result = replay(record)
    return result.error if result.status == "invalid" else None


def _seated(record: object) -> list[str | None]:
    """None and every name the record's deal seats (each asked first in turn)."""
    events = record.get("events") if isinstance(record, dict) else None
    deal = events[0] if isinstance(events, list) and events else None
    players = deal.get("players") if isinstance(deal, dict) else None
    if not isinstance(players, list):
        return [None]
    return [None, *[name for name in players if isinstance(name, str)]]


@pytest.mark.parametrize("corpus", CORPORA, ids=lambda path: path.name)
def test_the_trial_gives_replays_error_for_every_corpus_record(corpus: Path) -> None:
    cases = load(corpus)
    differ = [
        (n, first)
        for n, case in enumerate(cases)
        for first in _seated(case["record"])
        if record_error(case["record"], first) != _replays_error(case["record"])
    ]
    assert not differ, f"{len(differ)} differ, first: case and name {differ[0]}"


def test_the_trial_gives_replays_error_for_every_example() -> None:
    for name in example_names():
        record = load(EXAMPLES / name)["record"]
        assert record_error(record) == _replays_error(record), name


def test_a_record_that_is_no_record_gets_the_frame_error_at_index_minus_one() -> None:
    error = record_error({"game": "skat", "events": []})
    assert error is not None and error == _replays_error({"game": "skat", "events": []})
    assert error.index == -1 and error.code == "malformed_record"


def _appended(record: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """A prefix of ``record`` with one event appended as the table view tries one."""
    events = record["events"]
    k = data.draw(st.integers(min_value=1, max_value=len(events)), label="prefix")
    names = record["events"][0]["players"]
    player = data.draw(st.sampled_from(names), label="player")
    kind = data.draw(st.sampled_from(["play", "face_down", "fuchs", "show_called"]))
    card = data.draw(st.sampled_from(CODES), label="card")
    event: dict[str, Any] = {"type": "play", "player": player, "card": card}
    if kind == "face_down":
        event["turned"] = True
    elif kind == "fuchs":
        event["fuchs"] = True
    elif kind == "show_called":
        called = next(
            (e.get("card") or e.get("called") for e in events[:k] if e["type"] in ("call", "bid")),
            None,
        )
        event = {"type": "show", "player": player, "cards": [called or card]}
    return {**record, "events": [*events[:k], event]}


@settings(max_examples=150)
@given(seeds, generated_games, st.booleans(), st.data())
def test_the_trial_gives_replays_error_after_any_appended_move(
    seed: int, game: tuple[str, int, str | None], hands: bool, data: st.DataObject
) -> None:
    name, seats, contract = game
    record = random_game(seed, name, seats, contract=contract, hands=hands)
    trial = _appended(record, data)
    first = data.draw(st.sampled_from(_seated(trial)), label="first")
    assert record_error(trial, first) == _replays_error(trial)
