"""Trick play shared by both games: whose turn, adding a card, collecting a trick.

The cards go on the state's board (``engine.board``: the game's ranking, the trick's
winner, the tricks collected); the game supplies the obligations. This module keeps
the state's own records of the play beside the board's.
"""

from __future__ import annotations

from engine.core import GameState

__all__ = ["SEATS_FROM", "add_card", "board_into", "on_table", "trick_on_table"]


def add_card(state: GameState, p: int, card: int, index: int) -> bool:
    """Put ``card`` on the table: push it on the state's board (``p`` is the board's
    ``to_act``), which keeps the trick's class and winner and collects a complete
    trick, and keep the state's own records of the play (the cards played, each
    player's first play, whose turn). Returns whether the card completed the trick.
    Checks nothing: the game's ``play`` has judged the card."""
    board = state.board
    assert board is not None
    first_play = state.first_play
    if first_play[p] < 0:
        state.first_play = (*first_play[:p], index, *first_play[p + 1 :])
    state.played |= 1 << card
    state.last_play = index
    board.push(card)
    state.to_act = board.to_act
    return not board.trick


def on_table(state: GameState) -> bool:
    """Is a trick begun and not complete (cards on the table)?"""
    board = state.board
    return board is not None and bool(board.trick)


def trick_on_table(state: GameState) -> tuple[tuple[tuple[int, int], ...], int]:
    """The trick on the table as ``((seat, card), ...)`` in play order (empty where none
    is) and the seat winning it so far (-1: none)."""
    board = state.board
    if board is None or not board.trick:
        return (), -1
    return tuple(zip(SEATS_FROM[board.n][board.leader], board.trick, strict=False)), board.winner


def board_into(state: GameState, indexes: list[int]) -> None:
    """Bring the state's own records of the play up to date after the fold's board
    phase pushed cards on ``state.board`` (``replay._on_board``), exactly as
    ``add_card`` card by card leaves them: ``indexes`` are the pushed cards' event
    indexes."""
    board = state.board
    assert board is not None
    first_play = state.first_play
    if -1 in first_play:
        first = list(first_play)
        # The pushes are the stack's last card entries (a collected trick's between).
        pushed = [entry for entry in board.stack if len(entry) > 1][-len(indexes) :]
        for entry, i in zip(pushed, indexes, strict=True):
            if first[entry[0]] < 0:
                first[entry[0]] = i
        state.first_play = tuple(first)
    # Every card played lies in a trick won or on the table: the pushed ones too.
    played = state.played
    for cards in board.won:
        played |= cards
    for card in board.trick:
        played |= 1 << card
    state.played = played
    state.last_play = indexes[-1]
    state.to_act = board.to_act


# Per number of active players and leader: the seats in the order they play a trick.
SEATS_FROM = {n: [tuple((leader + k) % n for k in range(n)) for leader in range(n)] for n in (4, 5)}
