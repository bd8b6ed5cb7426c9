"""Trick play shared by both games: whose turn, adding a card, collecting a trick.

The game supplies the card ranking (``GameState.led_of``/``keys``, set when the play
opens) and the obligations; this module moves cards and keeps the trick's winner.
Keys: a card that cannot win the trick has key -1; otherwise the higher key wins
(Fuchsen trumps are 100 + their rank).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import GameState

if TYPE_CHECKING:
    from engine.board import Board

__all__ = ["SEATS_FROM", "add_card", "board_into"]


def add_card(state: GameState, p: int, card: int, index: int) -> None:
    """Put ``card`` on the table (in ``state``, changed in place); collect the trick
    when every active player has played.

    The trick's class, winner and winning key (``led``, ``winner``, ``wkey``) are kept
    up to date by the game's ranking (``led_of``, ``keys``); ``state.tricks`` grows by
    one when a trick is complete and its winner leads next. Checks nothing: the game's
    ``play`` has judged the card.
    """
    before = state.trick
    trick = (*before, (p, card))
    keys = state.keys
    if not before:
        led = state.led_of[card]
        winner, wkey = p, keys[led][card]
    else:
        led, winner, wkey = state.led, state.winner, state.wkey
        if led < 0 and len(before) == 1:
            # The first card set no class (a blank led alone): this one does.
            led = state.led_of[card]
            wkey = keys[led][before[0][1]]
        k = keys[led][card]
        if k > wkey:
            winner, wkey = p, k
    first_play = state.first_play
    if first_play[p] < 0:
        state.first_play = (*first_play[:p], index, *first_play[p + 1 :])
    state.played |= 1 << card
    state.last_play = index
    state.led = led
    state.winner = winner
    state.wkey = wkey
    n = len(first_play)  # one entry per active player
    if len(trick) < n:
        state.trick = trick
        state.to_act = p + 1 if p + 1 < n else 0
        return
    mask = 0
    for _, c in trick:
        mask |= 1 << c
    won = state.won_cards
    state.won_cards = (*won[:winner], won[winner] | mask, *won[winner + 1 :])
    state.tricks = (*state.tricks, (state.leader, trick, winner))
    state.trick = ()
    state.leader = state.to_act = winner


def board_into(
    state: GameState,
    board: Board,
    indexes: list[int],
    collected: list[tuple[int, tuple[tuple[int, int], ...], int]],
) -> None:
    """Change ``state`` in place to the position after the cards pushed on ``board``
    (built from ``state``, its undo stack holding only those pushes), exactly as
    ``add_card`` card by card leaves it: ``indexes`` are the pushed cards' event
    indexes, ``collected`` the tricks they completed as ``(leader, cards, winner)``."""
    first_play = state.first_play
    if -1 in first_play:
        first = list(first_play)
        j = 0
        for entry in board.stack:
            if len(entry) == 1:
                continue  # a trick collected
            p = entry[0]
            if first[p] < 0:
                first[p] = indexes[j]
            j += 1
        state.first_play = tuple(first)
    # Every card played lies in a trick won or on the table: the pushed ones too.
    played = state.played
    for cards in board.won:
        played |= cards
    for card in board.trick:
        played |= 1 << card
    state.played = played
    state.last_play = indexes[-1]
    state.led = board.led
    state.winner = board.winner
    state.wkey = board.wkey
    state.led_of = board.led_of
    state.keys = board.keys
    leader = board.leader
    # A trick on the table holds fewer cards than seats.
    state.trick = tuple(zip(SEATS_FROM[board.n][leader], board.trick, strict=False))
    state.to_act = board.to_act
    state.leader = leader
    state.won_cards = tuple(board.won)
    if collected:
        state.tricks = (*state.tricks, *collected)


# Per number of active players and leader: the seats in the order they play a trick.
SEATS_FROM = {n: [tuple((leader + k) % n for k in range(n)) for leader in range(n)] for n in (4, 5)}
