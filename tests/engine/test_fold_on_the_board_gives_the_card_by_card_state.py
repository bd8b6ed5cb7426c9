"""The fold's card play on the board (``replay.fold``, ``Variant.fold_board``) writes
back exactly the state the game's ``play`` gives card by card, and stops with exactly
its error: on random prefixes of random games, with the deal's hands and without (the
board then holds the cards the record places in each hand), some with a play changed
to another card of the deck; where the partner is not known, in each candidate's
fold."""

from __future__ import annotations

from typing import Any
from unittest.mock import patch

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import CODES
from engine.core import GameState, NeedPartner, Variant
from engine.generate import random_game
from engine.replay import candidate_folds, fold, prepare
from engine.result import EngineError
from tests.engine._shared import generated_games, seeds, state_fields

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _folded(record: dict[str, Any], board: bool) -> list[tuple[dict[str, Any], EngineError | None]]:
    variant, rules, events, undo_error = prepare(record)
    if board:
        return _fields(variant, rules, events, undo_error)
    with patch.object(type(variant), "fold_board", _no_board):
        return _fields(variant, rules, events, undo_error)


def _fields(
    variant: Variant, rules: Any, events: Any, undo_error: int
) -> list[tuple[dict[str, Any], EngineError | None]]:
    """The fold's state (fields) and error, or each candidate partner's."""
    try:
        folds = [fold(variant, rules, events, undo_error)]
    except NeedPartner as need:
        folds = list(candidate_folds(variant, rules, events, undo_error, need))
    return [(state_fields(state), error) for state, error in folds]


def _no_board(self: Variant, state: GameState) -> None:
    return None


@SETTINGS
@given(seeds, generated_games, st.booleans(), st.data())
def test_the_board_phase_writes_back_the_state_play_gives_card_by_card(
    seed: int, spec: tuple[str, int, str | None], hands: bool, data: st.DataObject
) -> None:
    game, seats, contract = spec
    record = random_game(seed, game, seats, contract=contract, hands=hands)
    events = record["events"]
    end = data.draw(st.integers(min_value=1, max_value=len(events)), label="prefix")
    record = {**record, "events": events[:end]}
    with_board = _folded(record, board=True)
    assert with_board == _folded(record, board=False)


@SETTINGS
@given(seeds, generated_games, st.booleans(), st.data())
def test_a_refused_card_on_the_board_gets_the_error_play_gives(
    seed: int, spec: tuple[str, int, str | None], hands: bool, data: st.DataObject
) -> None:
    game, seats, contract = spec
    record = random_game(seed, game, seats, contract=contract, hands=hands)
    events = list(record["events"])
    plays = [i for i, e in enumerate(events) if e["type"] == "play" and len(e) == 3]
    if not plays:
        return
    at = data.draw(st.sampled_from(plays[len(plays) // 3 :]), label="changed play")
    card = data.draw(st.sampled_from(CODES), label="card")
    events[at] = {**events[at], "card": card}
    record = {**record, "events": events}
    with_board = _folded(record, board=True)
    assert with_board == _folded(record, board=False)
