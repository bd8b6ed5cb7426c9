"""The shortcuts: states and tables whose ``__dict__`` is a plain dict
(``engine.core.unshared``), whose field loads CPython 3.11 specializes (in the folds
it left them generic from dicts that share their keys with the class, as copies of an
instance's own ``__dict__`` do), and the knowledge pass's reading stored by event
number."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from engine.cards import INDEX
from engine.core import ReadKnowledge, evolve, gather_knowledge, unshared
from engine.generate import random_game
from engine.replay import deal_table, fold, prepare, replay
from tests.engine.test_fast_paths import replay_module


def _folded(game: str, seats: int, hands: bool, seed: int) -> Any:
    record = random_game(seed, game, seats, hands=hands)
    variant, rules, events, undo_error = prepare(record)
    state, error = fold(variant, rules, events, undo_error)
    assert error is None
    return state


def _plain(value: object) -> bool:
    """Is ``value.__dict__`` a plain dict of its own? (One that shares its keys with
    the class is smaller: its values are held apart from the keys.)"""
    d = value.__dict__
    return sys.getsizeof(d) == sys.getsizeof(dict(d))


@pytest.mark.skipif(sys.implementation.name != "cpython", reason="CPython's dict layout")
@pytest.mark.parametrize(
    ("game", "seats", "hands"),
    [
        ("fuchsen", 5, False),
        ("fuchsen", 6, True),
        ("koenigrufen", 4, False),
        ("koenigrufen", 4, True),
    ],
)
def test_the_states_and_tables_of_a_fold_have_plain_dicts(
    game: str, seats: int, hands: bool
) -> None:
    state = _folded(game, seats, hands, 81_003)
    assert _plain(state)
    assert _plain(state.table)
    assert _plain(replay_module._START[game])
    assert _plain(replay_module.VARIANTS[game]._prototype)


def test_unshared_keeps_every_field() -> None:
    state = _folded("fuchsen", 5, False, 81_001)
    copy = object.__new__(type(state))
    object.__setattr__(copy, "__dict__", state.__dict__.copy())
    assert unshared(copy) == state
    assert copy.__dict__ == state.__dict__


def test_the_reading_is_by_event_number_and_only_for_events_numbered_from_0() -> None:
    read = unread = 0
    for seed in range(60):
        record = random_game(82_000 + seed, "fuchsen", 5, hands=False)
        events_field = record["events"]
        for undo_at in (None, 3, len(events_field) - 2):
            case = dict(record)
            if undo_at is not None:
                # An event taken back: the numbers of the effective events skip two.
                case["events"] = [
                    *events_field[:undo_at],
                    events_field[undo_at],
                    {"type": "undo"},
                    *events_field[undo_at:],
                ]
            variant, rules, events, _ = prepare(case)
            start = evolve(replay_module._START[variant.name], rules=rules)
            table = deal_table(start, events[0][1])
            know = gather_knowledge(variant, table, events[0][1], events, events[0][0])
            numbered = events[-1][0] == len(events) - 1
            if len(events) < 16:
                continue
            if not numbered:
                unread += 1
                assert type(know) is not ReadKnowledge
            else:
                read += 1
                assert type(know) is ReadKnowledge
                for k, (i, event) in enumerate(events):
                    assert i == k
                    if event["type"] == "play" and len(event) == 3:
                        p = table.index[event["player"]]
                        assert know.plays[k] == (p, INDEX[event["card"]])
                    else:
                        assert know.plays[k] == (-1, -1)
            # Whatever the numbering, the replay is the plain one's.
            assert replay(case) == replay_module._replay_resolved(case)
    assert read > 20 and unread > 20
