"""The card play as one mutable board: ``push(card)`` / ``pop()``, legal cards as a mask.

Like python-chess's ``Board``: the state is a few ints and small lists, ``push`` changes
it in place and ``pop`` restores it from a small undo record; ``copy()`` only where
several lines must be followed at once. The rules of a trick are each written once, as
functions of masks in the game's module (``fuchsen.obligations``,
``koenigrufen.obligations``): the engine's own play check (``Variant.duties``) and
this board ask the same functions.

Building a board
----------------
``engine.replay.board_at(record, index=None)`` gives the board of a valid record just before event
number ``index`` of ``record["events"]`` (by default before the record's first card),
or None where that cannot be: the record is invalid up to there, the card play has not
begun (the call, raising or auction still open) or is over, or a hand is not known
(every active player's six cards must be known: from the deal's ``hands`` or from where
the whole record places them, played or shown). ``undo`` is resolved first (an index
inside the undone part counts as the position of the next effective event).
``board.pending`` are the record's card plays from there on, in order (as cards: the
player is always ``board.to_act``), so ``for c in board.pending: board.push(c)``
replays them.

The replay's own state holds its card play as such a board (``GameState.board``, opened
when the play opens, its hands set only for the fold's board phase): every card the
engine accepts is pushed on it, so the replay, the table view, the statistics and the
analysis collect a trick by the one ``push``. ``board_at`` and ``Variant.card_board``
give a copy of it with the hands set and no pushes to undo.

Cards and seats
---------------
A card is an int 0-31, ``engine.cards.CODES[c]`` its code and ``engine.cards.INDEX``
the reverse; a set of cards is an int mask with bit ``c`` set (``engine.cards.bits``
iterates one). A seat is the player's index among the active players in seating order,
``board.names[seat]`` his name; ``board.n`` is 4 or 5.

The board
---------
- ``board.hands[seat]``: the cards he still holds (mask); ``board.won[seat]``: the cards
  of the tricks he has won (mask).
- ``board.to_act``: whose turn; ``board.leader``: who led the trick on the table;
  ``board.trick``: its cards in play order (a list; the players are ``leader``,
  ``leader + 1``, ... mod ``n``); ``board.tricks``: how many tricks are complete
  (6 at the end of the deal: ``board.over``).
- ``board.legal()``: the cards ``to_act`` may play now (mask), the intersection of the
  game's obligations; ``board.refusal(card)``: the error code of the first obligation
  a card breaks (or None).
- ``board.push(card)``: ``to_act`` plays ``card`` (which must be legal: ``push`` does
  not check); a complete trick is collected at once (``won`` and ``tricks`` grow, its
  winner leads). ``board.pop()`` takes the last card back, the trick too if it completed
  one.
- ``board.winner``: the seat winning the trick on the table so far (kept up to date
  on ``push``; after a trick is collected it is the winner of that trick, who leads).
- ``board.side``: the seats of the declaring side (Fuchsen: the Macher and his Hilfer,
  or the Macher alone; Königrufen: the declarer with the holder of the called card in
  ``durchmarsch``/``durchmarsch_hundert``, with the joiner in ``bettler``/``plauderer``,
  else alone) as a mask of seats (bit ``seat``).
- ``board.points(seat)``: the Augen (Fuchsen) in the tricks he won; ``board.side_points()``
  those of the declaring side.
- ``board.copy()``: an independent board at the same position (its undo stack too).
- ``board.history()``: the tricks collected since the board was made, each as
  ``(leader, ((seat, card), ...), winner)`` (read from the undo stack).
- ``board.ends_play()``: whether the trick just collected ends the card play (the deal's
  last; in Königrufen any trick that decides the contract, ``koenigrufen.trick_end``).
- ``board.not_plain``: cards never played by a plain play of player and card (Fuchsen's
  turned card, played face down). The fold's card play on the board
  (``replay.fold``, ``Variant.fold_board``) leaves them to the game's ``play``.

The game's own facts stay on the game's board class: ``FuchsenBoard`` has ``macher``,
``alone``, ``called_suit`` and ``blank`` (the card the Macher turned face down, -1 for
none: it keeps its meaning from the spec, the lowest card of the called suit);
``KoenigBoard`` has ``contract``, ``declarer``, ``ten_high``.
"""

from __future__ import annotations

from typing import Any, Self

from engine.errors import Code

__all__ = ["Board"]


class Board:
    """The card play of one deal (see the module's docstring). A game's subclass
    supplies its ranking (``led_of``, ``keys``) and ``filters``; everything else is
    shared."""

    __slots__ = (
        "hands",
        "keys",
        "leader",
        "led",
        "led_of",
        "n",
        "names",
        "not_plain",
        "pending",
        "side",
        "stack",
        "to_act",
        "trick",
        "tricks",
        "winner",
        "wkey",
        "won",
    )

    def __init__(
        self,
        names: tuple[str, ...],
        hands: list[int],
        side: int,
        led_of: tuple[int, ...],
        keys: tuple[tuple[int, ...], ...],
    ) -> None:
        self.names = names
        # The game's ranking:
        # per card the class a trick it leads follows (-1: none, the next card sets it);
        # per class followed (the last row: none yet) each card's key (-1: it cannot
        # win; the first card of the highest key wins).
        self.led_of = led_of
        self.keys = keys
        self.n = len(names)
        self.hands = hands
        self.won = [0] * self.n
        self.side = side
        self.leader = 0
        self.to_act = 0
        self.trick: list[int] = []
        self.tricks = 0
        self.led = -1  # the class (suit) the trick on the table follows
        self.winner = -1
        self.wkey = -1  # how strongly the winning card holds (``key``)
        self.stack: list[tuple[Any, ...]] = []
        self.pending: list[int] = []
        # Cards played only by an event of their own, never by a plain play of the
        # player and the card (Fuchsen's turned card, played face down): the fold's
        # board phase leaves such a play to the game's ``play`` (see ``replay.fold``).
        self.not_plain = 0

    # --- the game's hooks ---------------------------------------------------------
    def filters(self, p: int) -> list[tuple[Code, int]]:
        """The obligations of seat ``p`` now, in the spec's code-table order: each the
        error code and the cards it allows (masks over the deck)."""
        raise NotImplementedError

    def points_of(self, cards: int) -> int:
        """The Augen of a set of cards (0 where the game counts none)."""
        return 0

    def ends_play(self) -> bool:
        """Does the trick just collected end the card play (decide the game)? By
        default only the deal's last trick does; a game whose tricks can decide it
        earlier asks its own rule."""
        return self.tricks == 6

    # --- shared -------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.tricks == 6

    def legal(self) -> int:
        """The cards ``to_act`` may play now (a mask)."""
        allowed = self.hands[self.to_act]
        for _code, mask in self.filters(self.to_act):
            allowed &= mask
        return allowed

    def refusal(self, card: int) -> Code | None:
        """The code of the first obligation ``card`` breaks, played by ``to_act`` now,
        or None (the card is taken to be in his hand)."""
        for code, mask in self.filters(self.to_act):
            if not mask >> card & 1:
                return code
        return None

    def push(self, card: int) -> None:
        """``to_act`` plays ``card`` (legal: not checked); collects a complete trick."""
        p = self.to_act
        trick = self.trick
        self.stack.append((p, card, self.leader, self.led, self.winner, self.wkey))
        self.hands[p] &= ~(1 << card)
        keys = self.keys
        if not trick:
            self.leader = p
            self.led = led = self.led_of[card]
            self.winner, self.wkey = p, keys[led][card]
        else:
            led = self.led
            if led < 0 and len(trick) == 1:
                # The first card set no class: this one does (a blank led alone).
                self.led = led = self.led_of[card]
                self.wkey = keys[led][trick[0]]
            k = keys[led][card]
            if k > self.wkey:
                self.winner, self.wkey = p, k
        trick.append(card)
        if len(trick) < self.n:
            self.to_act = p + 1 if p + 1 < self.n else 0
            return
        w = self.winner
        mask = 0
        for c in trick:
            mask |= 1 << c
        self.won[w] |= mask
        self.tricks += 1
        self.stack.append((trick,))
        self.trick = []
        self.leader = self.to_act = w

    def pop(self) -> int:
        """Take the last card back (and its trick, if it completed one); returns it."""
        top = self.stack.pop()
        if len(top) == 1:
            trick: list[int] = top[0]
            mask = 0
            for c in trick:
                mask |= 1 << c
            self.won[self.leader] &= ~mask
            self.tricks -= 1
            # A copy: the undo records are never changed, so copies of the board share them.
            self.trick = list(trick)
            top = self.stack.pop()
        p, card, self.leader, self.led, self.winner, self.wkey = top
        self.trick.pop()
        self.hands[p] |= 1 << card
        self.to_act = p
        return int(card)

    def copy(self) -> Self:
        # Every slot written out (as python-chess's ``Board.copy``): a loop of
        # ``setattr`` over the slots costs three times as much, and a state's copy
        # (``GameState.copy``) copies its board.
        other = object.__new__(type(self))
        other.names = self.names
        other.keys = self.keys
        other.led_of = self.led_of
        other.n = self.n
        other.hands = list(self.hands)
        other.won = list(self.won)
        other.side = self.side
        other.leader = self.leader
        other.to_act = self.to_act
        other.trick = list(self.trick)
        other.tricks = self.tricks
        other.led = self.led
        other.winner = self.winner
        other.wkey = self.wkey
        other.stack = self.stack.copy()  # its records are never changed (``pop``)
        other.pending = list(self.pending)
        other.not_plain = self.not_plain
        self.copy_facts(other)
        return other

    def copy_facts(self, other: Self) -> None:
        """Copy the game's own facts (its subclass's slots) onto ``other``."""

    def history(self) -> list[tuple[int, tuple[tuple[int, int], ...], int]]:
        """The tricks collected since the board was made, in order: each its leader,
        its ``(seat, card)`` plays and its winner (``GameState.board``'s: the deal's)."""
        tricks: list[list[tuple[int, int]]] = []
        cards: list[tuple[int, int]] = []
        for entry in self.stack:
            if len(entry) == 1:
                tricks.append(cards)
                cards = []
            else:
                cards.append((entry[0], entry[1]))
        # A trick's winner leads the next one (the trick on the table too).
        leaders = [t[0][0] for t in tricks] + [self.leader]
        return [(leaders[k], tuple(t), leaders[k + 1]) for k, t in enumerate(tricks)]

    def key_state(self) -> tuple[Any, ...]:
        """Everything ``push``/``pop`` change, as a value (to compare two boards)."""
        return (
            tuple(self.hands),
            tuple(self.won),
            self.leader,
            self.to_act,
            tuple(self.trick),
            self.tricks,
            self.led,
            self.winner,
            self.wkey,
            len(self.stack),
        )

    def points(self, seat: int) -> int:
        return self.points_of(self.won[seat])

    def side_points(self) -> int:
        cards = 0
        for q in range(self.n):
            if self.side >> q & 1:
                cards |= self.won[q]
        return self.points_of(cards)
