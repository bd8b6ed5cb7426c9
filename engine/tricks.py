"""Trick play shared by both games: whose turn, adding a card, collecting a trick.

The game supplies the card ranking (``GameState.led_of``/``keys``, set when the play
opens) and the obligations; this module moves cards and keeps the trick's winner.
Keys: a card that cannot win the trick has key -1; otherwise the higher key wins
(Fuchsen trumps are 100 + their rank).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import GameState

if TYPE_CHECKING:
    from engine.board import Board

__all__ = ["SEATS_FROM", "add_card", "board_into"]


def add_card(
    state: GameState,
    p: int,
    card: int,
    index: int,
    extra: dict[str, Any] | None = None,
    own: bool = False,
) -> GameState:
    """Put ``card`` on the table; collect the trick when every active player has played.

    Returns the state after the card (with the ``extra`` field changes of the variant
    applied in the same step); the trick's class, winner and winning key (``led``,
    ``winner``, ``wkey``) are kept up to date by the game's ranking (``led_of``,
    ``keys``); ``state.tricks`` grows by one when a trick is complete and its winner
    leads next. ``own``: the caller (the fold) holds the only reference to ``state``,
    which is then changed in place and returned; otherwise ``state`` is left as it was
    and a copy is returned.
    """
    table = state.table
    assert table is not None
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
    if own:
        # The replay's innermost step: no copy of the state per card.
        new = state
        d = state.__dict__
    else:
        d = state.__dict__.copy()
        new = _new(type(state))
        _set_attr(new, "__dict__", d)
    if extra:
        d.update(extra)
    first_play = d["first_play"]
    if first_play[p] < 0:
        d["first_play"] = (*first_play[:p], index, *first_play[p + 1 :])
    d["played"] |= 1 << card
    d["last_play"] = index
    d["led"] = led
    d["winner"] = winner
    d["wkey"] = wkey
    n = len(table.active)
    if len(trick) < n:
        d["trick"] = trick
        d["to_act"] = p + 1 if p + 1 < n else 0
        return new
    mask = 0
    for _, c in trick:
        mask |= 1 << c
    won = d["won_cards"]
    d["won_cards"] = (*won[:winner], won[winner] | mask, *won[winner + 1 :])
    d["tricks"] = (*d["tricks"], (d["leader"], trick, winner))
    d["trick"] = ()
    d["leader"] = d["to_act"] = winner
    return new


def board_into(
    state: GameState,
    board: Board,
    indexes: list[int],
    collected: list[tuple[int, tuple[tuple[int, int], ...], int]],
    own: bool = False,
) -> GameState:
    """The state after the cards pushed on ``board`` (built from ``state``, its undo
    stack holding only those pushes), exactly as ``add_card`` card by card gives it:
    ``indexes`` are the pushed cards' event indexes, ``collected`` the tricks they
    completed as ``(leader, cards, winner)``. ``own`` as for ``add_card``."""
    d = state.__dict__ if own else state.__dict__.copy()
    first_play = d["first_play"]
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
        d["first_play"] = tuple(first)
    # Every card played lies in a trick won or on the table: the pushed ones too.
    played = d["played"]
    for cards in board.won:
        played |= cards
    for card in board.trick:
        played |= 1 << card
    d["played"] = played
    d["last_play"] = indexes[-1]
    d["led"] = board.led
    d["winner"] = board.winner
    d["wkey"] = board.wkey
    d["led_of"] = board.led_of
    d["keys"] = board.keys
    leader = board.leader
    # A trick on the table holds fewer cards than seats.
    d["trick"] = tuple(zip(SEATS_FROM[board.n][leader], board.trick, strict=False))
    d["to_act"] = board.to_act
    d["leader"] = leader
    d["won_cards"] = tuple(board.won)
    if collected:
        d["tricks"] = (*d["tricks"], *collected)
    if own:
        return state
    new = _new(type(state))
    _set_attr(new, "__dict__", d)
    return new


# Per number of active players and leader: the seats in the order they play a trick.
SEATS_FROM = {n: [tuple((leader + k) % n for k in range(n)) for leader in range(n)] for n in (4, 5)}

_new = object.__new__
_set_attr = object.__setattr__  # bypasses a frozen dataclass's __setattr__
