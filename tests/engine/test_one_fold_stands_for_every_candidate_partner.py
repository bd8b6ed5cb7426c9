"""Hindsight rule 4 in one fold: where the record never places the called card,
Fuchsen's fold goes on for every candidate partner at once until an event reads which
of them holds it (``FuchsenState.pending``); an event that refuses some of them ends
their folds there (``NeedPartner.done``), and the candidates' folds go on from where
the shared one stopped (``Variant.open_partner``, ``Fuchsen.assume_partner``).

Each candidate's fold so made must be exactly his own fold from the call on: the same
state, field by field, and the same error. Checked on the reference records and on
random prefixes of random games without hands, changed by raises, the Fuchs, other
cards, the end of the raising, a forfeit, an annulment or a show put in anywhere after
the call, so that the candidates part at every kind of event.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import CODES
from engine.core import NeedPartner
from engine.generate import random_game
from engine.replay import candidate_folds, fold, prepare
from engine.rules import FUCHSEN_LEVELS
from tests.engine._shared import CORPORA, EXAMPLES, example_names, load, seeds, state_fields

Folds = list[tuple[int, dict[str, Any], Any]] | None


def _candidates(record: object, *, shared: bool) -> Folds:
    """Each candidate's fold (seat, state fields, error), or None where the partner
    does not matter. ``shared``: as ``replay`` folds them (one fold for all as long as
    it can); else each from right after the call (a visitor's fold stops there)."""
    try:
        variant, rules, events, undo_error = prepare(record)
    except Exception:  # a record that is no record has no candidates
        return None
    try:
        if shared:
            fold(variant, rules, events, undo_error)
        else:
            fold(variant, rules, events, undo_error, visit=lambda *_: None)
    except NeedPartner as need:
        folds = candidate_folds(variant, rules, events, undo_error, need)
        return [
            (q, state_fields(state), error)
            for q, (state, error) in zip(need.candidates, folds, strict=True)
        ]
    return None


def _agree(record: object) -> bool:
    return _candidates(record, shared=True) == _candidates(record, shared=False)


@pytest.mark.parametrize("corpus", CORPORA, ids=lambda path: path.name)
def test_every_corpus_records_candidates_fold_as_each_ones_own(corpus: Path) -> None:
    differ = [n for n, case in enumerate(load(corpus)) if not _agree(case["record"])]
    assert not differ, f"{len(differ)} differ, first: case {differ[0]}"


def test_every_examples_candidates_fold_as_each_ones_own() -> None:
    for name in example_names():
        assert _agree(load(EXAMPLES / name)["record"]), name


@pytest.mark.parametrize("seats", [4, 5, 6])
def test_every_prefix_of_generated_games_folds_each_candidate_as_his_own(seats: int) -> None:
    differ = []
    for seed in range(120):
        record = random_game(seed, "fuchsen", seats, contract="partner", hands=False)
        events = record["events"]
        for end in range(2, len(events) + 1):
            if not _agree({**record, "events": events[:end]}):
                differ.append((seed, end))
    assert not differ, f"{len(differ)} differ, first: seed and prefix {differ[0]}"


def _changed(record: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """A prefix of ``record`` with up to four events put in after the call, or a play's
    card or Fuchs changed."""
    events = list(record["events"])
    end = data.draw(st.integers(min_value=2, max_value=len(events)), label="prefix")
    events = events[:end]
    names = events[0]["players"]
    call = next((k for k, e in enumerate(events) if e["type"] == "call"), None)
    if call is None:
        return {**record, "events": events}
    for _ in range(data.draw(st.integers(min_value=0, max_value=4), label="changes")):
        at = data.draw(st.integers(min_value=call + 1, max_value=len(events)), label="at")
        player = data.draw(st.sampled_from(names), label="player")
        kind = data.draw(
            st.sampled_from(["raise", "fuchs", "card", "end_raising", "forfeit", "annul", "show"]),
            label="kind",
        )
        if kind == "raise":
            level = data.draw(st.sampled_from(FUCHSEN_LEVELS[:4]), label="level")
            events.insert(at, {"type": "raise", "player": player, "level": level})
        elif kind in ("fuchs", "card"):
            plays = [k for k in range(call + 1, len(events)) if events[k]["type"] == "play"]
            if plays:
                k = data.draw(st.sampled_from(plays), label="play")
                if kind == "fuchs":
                    events[k] = {**events[k], "fuchs": True}
                else:
                    card = data.draw(st.sampled_from(CODES), label="card")
                    events[k] = {**events[k], "card": card}
        elif kind == "end_raising":
            events.insert(at, {"type": "end_raising"})
        elif kind == "forfeit":
            events.insert(at, {"type": "forfeit", "player": player})
        elif kind == "annul":
            events.insert(at, {"type": "annul", "reason": "misdeal"})
        else:
            card = data.draw(st.sampled_from(CODES), label="shown")
            events.insert(at, {"type": "show", "player": player, "cards": [card]})
    return {**record, "events": events}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, st.sampled_from([4, 5, 6]), st.data())
def test_each_candidates_fold_is_his_own_fold_from_the_call(
    seed: int, seats: int, data: st.DataObject
) -> None:
    record = random_game(seed, "fuchsen", seats, contract="partner", hands=False)
    changed = _changed(record, data)
    assert _candidates(changed, shared=True) == _candidates(changed, shared=False)


def test_a_kontra_by_a_candidate_ends_his_fold_alone() -> None:
    # anna calls SA; bert, carl and dora may hold it. bert's kontra is the opponents'
    # level: as the Hilfer he could not say it, so his fold ends there and the others
    # go on together.
    record = {
        "game": "fuchsen",
        "events": [
            {"type": "deal", "dealer": "dora", "players": ["anna", "bert", "carl", "dora"]},
            {"type": "call", "player": "anna", "card": "SA"},
            {"type": "play", "player": "anna", "card": "EO"},
            {"type": "play", "player": "bert", "card": "G9"},
            {"type": "raise", "player": "bert", "level": "kontra"},
        ],
    }
    variant, rules, events, undo_error = prepare(record)
    with pytest.raises(NeedPartner) as raised:
        fold(variant, rules, events, undo_error)
    need = raised.value
    assert need.candidates == (1, 2, 3)
    assert set(need.done) == {1}
    assert need.done[1][1].index == 4 and need.done[1][1].code == "invalid_raise"
    assert need.position == len(events)
    assert _agree(record)
