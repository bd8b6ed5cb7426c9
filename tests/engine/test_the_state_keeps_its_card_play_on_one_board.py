"""A game's state keeps its card play on one board (``GameState.board``): every card the
fold accepts is pushed on it, card by card or in the fold's board phase, so its tricks
and the trick on the table are the record's plays in order; its pushes pop back to the
play's opening; and a copy of a state owns its board."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import Board
from engine.cards import CODES, bits
from engine.core import GameState, Illegal, NeedPartner
from engine.generate import random_game
from engine.replay import apply, fold, prepare
from engine.tricks import SEATS_FROM, trick_on_table
from tests.engine._shared import generated_games, seeds

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _opened(
    seed: int, spec: tuple[str, int, str | None], hands: bool, data: st.DataObject
) -> tuple[GameState, Board] | None:
    """The fold's state after a random prefix of a random game and its board (None
    before the play opens, or where the partner is unknown)."""
    state = _state_and_record(seed, spec, hands, data)[0]
    if state is None:
        return None
    assert state.board is not None
    return state, state.board


def _state_and_record(
    seed: int, spec: tuple[str, int, str | None], hands: bool, data: st.DataObject
) -> tuple[GameState | None, dict[str, Any]]:
    """The state of ``_opened`` (or None) and the prefix it is the state after."""
    game, seats, contract = spec
    record: dict[str, Any] = random_game(seed, game, seats, contract=contract, hands=hands)
    events = record["events"]
    end = data.draw(st.integers(min_value=1, max_value=len(events)), label="prefix")
    prefix = {**record, "events": events[:end]}
    variant, rules, effective, undo_error = prepare(prefix)
    try:
        state, error = fold(variant, rules, effective, undo_error)
    except NeedPartner:
        return None, prefix
    assert error is None
    return (state if state.board is not None else None), prefix


@SETTINGS
@given(seeds, generated_games, st.booleans(), st.data())
def test_the_board_holds_every_card_the_fold_accepted_in_the_record_s_order(
    seed: int, spec: tuple[str, int, str | None], hands: bool, data: st.DataObject
) -> None:
    state, record = _state_and_record(seed, spec, hands, data)
    if state is None:
        return
    board = state.board
    assert board is not None
    # The record's plays, in order: the tricks collected, then the trick on the table.
    plays = [(e["player"], e["card"]) for e in record["events"] if e["type"] == "play"]
    history = board.history()
    assert board.tricks == len(history) == state.tricks_done
    laid = [(board.names[p], CODES[c]) for _leader, cards, _winner in history for p, c in cards]
    laid += [(board.names[p], CODES[c]) for p, c in trick_on_table(state)[0]]
    assert laid == plays
    won = [0] * board.n
    for leader, cards, winner in history:
        assert cards[0][0] == leader
        for _seat, card in cards:
            won[winner] |= 1 << card
    assert board.won == won
    on_table = 0
    for card in board.trick:
        on_table |= 1 << card
    assert sum(won) | on_table == state.played
    if state.decision is None:
        assert board.to_act == state.to_act
        # The next card's player follows the trick's leader round the table.
        assert board.to_act == SEATS_FROM[board.n][board.leader][len(board.trick)]


@SETTINGS
@given(seeds, generated_games, st.booleans(), st.data())
def test_popping_every_card_of_the_state_s_board_goes_back_to_the_play_s_opening(
    seed: int, spec: tuple[str, int, str | None], hands: bool, data: st.DataObject
) -> None:
    opened = _opened(seed, spec, hands, data)
    if opened is None:
        return
    _state, board = opened
    history = board.history()
    played = []
    while board.stack:
        played.append(board.pop())
    assert board.trick == [] and board.tricks == 0 and board.won == [0] * board.n
    first = history[0][0] if history else board.leader
    assert board.to_act == board.leader == first
    # Every card the state holds as played, in the order of its tricks.
    in_order = [card for _leader, cards, _winner in history for _seat, card in cards]
    assert list(reversed(played))[: len(in_order)] == in_order


@SETTINGS
@given(seeds, generated_games, st.booleans(), st.data())
def test_a_copy_of_a_state_owns_its_board(
    seed: int, spec: tuple[str, int, str | None], hands: bool, data: st.DataObject
) -> None:
    opened = _opened(seed, spec, hands, data)
    if opened is None or not opened[1].stack:
        return
    state, board = opened
    before = board.key_state()
    copy = state.copy()
    assert copy.board is not None and copy.board is not board
    copy.board.pop()
    assert board.key_state() == before


@SETTINGS
@given(seeds, generated_games, st.booleans(), st.data())
def test_a_copy_of_a_board_has_every_slot_of_the_board(
    seed: int, spec: tuple[str, int, str | None], hands: bool, data: st.DataObject
) -> None:
    opened = _opened(seed, spec, hands, data)
    if opened is None:
        return
    _state, board = opened
    copy = board.copy()
    for cls in type(board).__mro__:
        for name in getattr(cls, "__slots__", ()):
            assert getattr(copy, name) == getattr(board, name), name


@SETTINGS
@given(seeds, generated_games, st.booleans(), st.data())
def test_a_trial_that_shares_the_board_leaves_it_as_it_was_when_a_card_is_applied(
    seed: int, spec: tuple[str, int, str | None], hands: bool, data: st.DataObject
) -> None:
    state, record = _state_and_record(seed, spec, hands, data)
    if state is None or state.decision is not None or state.know is None:
        return
    board = state.board
    assert board is not None
    trial = state.knowing(state.know)  # as the table view tries an event
    assert trial.board is board
    before = board.key_state()
    p = state.to_act
    for card in bits(state.know.known[p] & ~state.played):
        event = {"type": "play", "player": board.names[p], "card": CODES[card]}
        try:
            after = apply(trial, event, len(record["events"]))
        except (Illegal, NeedPartner):
            continue
        assert after.board is not board
    assert board.key_state() == before
