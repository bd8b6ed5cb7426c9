"""The history's reading of ``undo`` is the replay's: the same events stay effective."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.history import undo_targets
from engine.replay import prepare

EVENT = st.sampled_from(
    [{"type": "undo"}, {"type": "play", "player": "a", "card": "EO"}, {"type": "end_raising"}]
)


@given(st.lists(EVENT, max_size=30))
def test_the_events_no_undo_removed_are_the_replays_effective_events(
    events: list[dict[str, Any]],
) -> None:
    _variant, _rules, kept, undo_error = prepare({"game": "fuchsen", "events": events})
    removed, failing = undo_targets(events)
    assert failing == undo_error
    end = failing if failing >= 0 else len(events)
    effective = [i for i in range(end) if i not in removed and events[i]["type"] != "undo"]
    assert effective == [index for index, _event in kept]


def test_each_undo_names_the_latest_event_still_standing() -> None:
    events = [
        {"type": "deal"},
        {"type": "play"},
        {"type": "play"},
        {"type": "undo"},
        {"type": "undo"},
    ]
    assert undo_targets(events) == ({2: 3, 1: 4}, -1)


def test_an_undo_with_nothing_left_is_named_as_the_failing_one() -> None:
    assert undo_targets([{"type": "deal"}, {"type": "undo"}, {"type": "undo"}]) == ({0: 1}, 2)
