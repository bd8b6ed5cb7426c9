"""The double-dummy search of a deal's card play (``../shared/spec/analysis.md``).

The search plays on the engine's own ``Board`` (``engine.board``): ``push(card)``,
``pop()``, ``legal()`` (the game's obligations as masks) and ``winner`` (kept up to date
on ``push``) — the same functions replay and the table view judge a card with. It has
no rule of its own.

A ``Goal`` turns tricks into the value the analysis measures: Fuchsen the Augen of the
declaring side, Königrufen 1 while the declarer's side can make its contract. The
``Solver`` searches as DDS does: alpha-beta with a transposition table at trick
boundaries (keyed by the cards still in play and the leader, holding bounds on the
value still to come, kept for the whole deal), zero-window tests around the previous
card's value, the table's best lead first (else the leads that were best most often)
and followers' cards by who holds the trick, the last trick settled at once, and
equivalent cards searched once (two cards of one hand, of one class, with equal Augen
and no card still in play ranked between them).

Its bounds, at the start of a trick (``Solver.sure``, turned into a range of values by
``Goal.bound``), read only the board's ranking (``led_of``, ``keys``): the leader's
*masters* (cards no card in another hand outranks in the class they lead: he can cash
them one after another, as DDS's quick tricks) and the *top cards* (cards that outrank
every other card in play in every class led, such as the highest trumps: whoever
holds them takes the tricks they fall in), and "no more than what is still in play".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from engine.board import Board

__all__ = [
    "Equivalence",
    "Goal",
    "Solver",
    "Sure",
    "TooCostly",
    "all_tricks",
    "augen_goal",
    "first_tricks",
    "in_play",
    "naive_value",
    "no_trick",
    "settle",
]


class TooCostly(Exception):
    """The search passed its deadline (a ``time.monotonic()`` value) before it was done.

    Raised by ``Solver`` and so by ``engine.analyse``; the caller stores "zu aufwendig"
    rather than waiting longer."""


class Equivalence(NamedTuple):
    """What makes two cards play alike (see ``Solver.groups``): per card index its class
    (cards that follow each other), its power within the class and its Augen; and a
    card that is never equivalent to another (the Fuchsen blank) or -1."""

    cls: Sequence[int]
    power: Sequence[int]
    augen: Sequence[int]
    never: int


class Sure(NamedTuple):
    """What the cards in play guarantee at the start of a trick (``Solver.sure``): the
    leader is of the side ``ours`` or not; he can take ``cash`` tricks one after
    another from now and holds ``held`` cards (``cash == held``: every trick left);
    ``augen`` are the Augen each side (``[0]`` the others, ``[1]`` ours) surely takes
    from here on."""

    leader_ours: bool
    cash: int
    held: int
    augen: tuple[int, int]


class Goal:
    """What the searching side wants, as a value of the tricks still to play.

    ``on_trick(winner, cards, done)`` gives the value the completed ``done``-th trick adds
    and whether the value is settled with it; ``upper(inplay)`` bounds the value still
    to come from the cards in play; ``bound(sure, upper, done)`` the range ``(low,
    high)`` the value still to come lies in, at the start of trick ``done + 1``, given
    what ``sure`` guarantees and ``upper``.
    """

    __slots__ = ("bound", "on_trick", "ours", "upper")

    def __init__(
        self,
        ours: Sequence[bool],
        on_trick: Callable[[int, int, int], tuple[int, bool]],
        upper: Callable[[int], int],
        bound: Callable[[Sure, int, int], tuple[int, int]],
    ) -> None:
        self.ours = tuple(ours)
        self.on_trick = on_trick
        self.upper = upper
        self.bound = bound


def augen_goal(ours: Sequence[bool], augen_of: Callable[[int], int], tricks: int) -> Goal:
    """Fuchsen: the Augen the side ``ours`` takes, to the ``tricks``-th trick."""
    side = tuple(ours)

    def on_trick(winner: int, cards: int, done: int) -> tuple[int, bool]:
        return (augen_of(cards) if side[winner] else 0), done >= tricks

    def bound(sure: Sure, upper: int, done: int) -> tuple[int, int]:
        # At least what ours surely takes, at most what the others do not.
        return sure.augen[1], upper - sure.augen[0]

    return Goal(side, on_trick, augen_of, bound)


def _one(_: int) -> int:
    return 1


def all_tricks(ours: Sequence[bool], tricks: int) -> Goal:
    """Königrufen Durchmarsch and Mord: 1 if the side ``ours`` takes the first
    ``tricks`` tricks (every trick; Durchmarsch am Letzten: the first five)."""
    side = tuple(ours)

    def on_trick(winner: int, cards: int, done: int) -> tuple[int, bool]:
        if not side[winner]:
            return 0, True
        return (1, True) if done >= tricks else (0, False)

    def bound(sure: Sure, upper: int, done: int) -> tuple[int, int]:
        # The leader cashes a trick of those that count: lost if he is the others',
        # made if he is ours and cashes all that are still to come.
        if done >= tricks or not sure.cash:
            return 0, 1
        if sure.leader_ours:
            return (1, 1) if sure.cash >= tricks - done else (0, 1)
        return 0, 0

    return Goal(side, on_trick, _one, bound)


def no_trick(ours: Sequence[bool], tricks: int) -> Goal:
    """Königrufen Bettler and Plauderer: 1 if the side ``ours`` takes no trick."""
    side = tuple(ours)

    def on_trick(winner: int, cards: int, done: int) -> tuple[int, bool]:
        if side[winner]:
            return 0, True
        return (1, True) if done >= tricks else (0, False)

    def bound(sure: Sure, upper: int, done: int) -> tuple[int, int]:
        # A leader who holds only masters takes the trick: lost if he is ours, made
        # if he is the others' (he takes every trick left).
        if not sure.held or sure.cash < sure.held:
            return 0, 1
        return (0, 0) if sure.leader_ours else (1, 1)

    return Goal(side, on_trick, _one, bound)


# Durchmarsch am Letzten: the player ``ours`` takes the first ``tricks`` tricks.
first_tricks = all_tricks


# Checked every so many nodes (a call of ``time.monotonic`` costs about a node).
_CLOCK_EVERY = 2048


class Solver:
    """Exact values of positions of one ``Board`` for one ``Goal``.

    The value of a position is what the side ``goal.ours`` still adds from there on
    (Fuchsen: Augen from the cards in play, the trick on the table included;
    Königrufen: 1 or 0) when both sides play best. The side ``ours`` maximises it, the
    others minimise it. The transposition table lives as long as the solver, so the
    positions along a played deal reuse it. The board is left as it was found.
    """

    def __init__(
        self,
        board: Board,
        goal: Goal,
        equivalence: Equivalence,
        deadline: float | None = None,
    ) -> None:
        self.board = board
        self.goal = goal
        self.deadline = deadline
        self.nodes = 0
        # (cards in play, leader) -> [lower bound, upper bound, best lead or -1]
        self.table: dict[tuple[int, int], list[int]] = {}
        cls, power, augen, never = equivalence
        self._augen = augen
        # Per card: the cards that may play like it (same class, higher power, equal
        # Augen), nearest first, each with the cards of that class ranked between them.
        above: list[list[tuple[int, int]]] = []
        for c in range(len(cls)):
            pairs: list[tuple[int, int]] = []
            if c != never:
                for d in sorted(range(len(cls)), key=lambda d: power[d]):
                    if (
                        d != never
                        and cls[d] == cls[c]
                        and power[d] > power[c]
                        and augen[d] == augen[c]
                    ):
                        between = 0
                        for e in range(len(cls)):
                            if cls[e] == cls[c] and power[c] < power[e] < power[d]:
                                between |= 1 << e
                        pairs.append((d, between))
            above.append(pairs)
        self._above = above
        # The ranking, as masks. ``_beats[c]``: the cards that outrank ``c`` in a trick
        # it leads (every card for a card that sets no class: Fuchsen's blank led
        # alone). ``_under[c]``: the cards ``c`` outranks in every class a trick can
        # follow; ``_top``: the cards that outrank some card so, highest first.
        keys, led_of = board.keys, board.led_of
        deck = range(len(led_of))
        self._beats = [
            sum(1 << d for d in deck if keys[led_of[c]][d] > keys[led_of[c]][c])
            if led_of[c] >= 0
            else (1 << len(led_of)) - 1
            for c in deck
        ]
        lowest = [min(row[c] for row in keys) for c in deck]  # -1: it outranks nothing
        self._under = [
            sum(1 << d for d in deck if all(row[c] > row[d] for row in keys))
            if lowest[c] >= 0
            else 0
            for c in deck
        ]
        self._top = sorted((c for c in deck if self._under[c]), key=lambda c: -lowest[c])
        self._zero = sum(1 << c for c in deck if not augen[c])
        # How often each card was the best lead (ordering the leads the table has no
        # best lead for).
        self._history = [0] * len(led_of)
        self._our_seats = [q for q in range(board.n) if goal.ours[q]]

    def inplay(self) -> int:
        """The cards in the hands and on the table."""
        return in_play(self.board)

    def sure(self, inplay: int) -> Sure:
        """What the cards in play guarantee at the start of a trick (no card on the
        table; ``inplay``: the cards in the hands).

        The leader's masters (cards of his that no card of another hand outranks in
        the class they lead) stay masters while cards leave play: he can cash them one
        after another, and each other hand gives at least its cards of fewest Augen to
        those tricks. The top cards in play (each outranking every card in play below
        it in every class, as the highest trumps), as far down as one side holds them
        all: every trick one of them falls in goes to that side, at least as many tricks
        as one hand holds of them, and each hand holding none gives as many cards."""
        board = self.board
        hands = board.hands
        ours = self.goal.ours
        leader = board.to_act
        lead = hands[leader]
        others = inplay & ~lead
        beats = self._beats
        zero = self._zero
        points_of = board.points_of
        masters = 0
        rest = lead
        while rest:
            low = rest & -rest
            rest ^= low
            if not beats[low.bit_length() - 1] & others:
                masters |= low
        sure = [0, 0]
        cash = masters.bit_count()
        if cash:
            got = points_of(masters)
            for q, hand in enumerate(hands):
                if q != leader and (hand & zero).bit_count() < cash:
                    got += self._fewest(hand, cash)
            sure[ours[leader]] = got
        # The top cards one side holds.
        under = self._under
        top = side = 0
        for c in self._top:
            if inplay >> c & 1:
                if inplay & ~top & ~(1 << c) & ~under[c]:
                    break
                holder = 0
                for q in self._our_seats:
                    holder |= hands[q] >> c & 1
                if top and holder != side:
                    break
                top |= 1 << c
                side = holder
        if top:
            most = max((hand & top).bit_count() for hand in hands)
            got = points_of(top)
            for hand in hands:
                if not hand & top and (hand & zero).bit_count() < most:
                    got += self._fewest(hand, most)
            if got > sure[side]:
                sure[side] = got
        return Sure(bool(ours[leader]), cash, lead.bit_count(), (sure[0], sure[1]))

    def _fewest(self, hand: int, k: int) -> int:
        """The Augen of the ``k`` cards of ``hand`` with fewest."""
        zero = self._zero
        augen = self._augen
        return sum(sorted(augen[c] for c in _cards(hand & ~zero))[: k - (hand & zero).bit_count()])

    # ------------------------------------------------------------------ the value
    def value(self, guess: int | None = None, *, low: int = 0, high: int | None = None) -> int:
        """The exact value of the board's position: two zero-window tests around
        ``guess`` (the previous position's value: usually right, and then they settle
        it), else, or without a guess, one search of the window still open. ``low`` and
        ``high`` are bounds the caller knows the value lies within."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise TooCostly("the analysis passed its deadline")
        inplay = self.inplay()
        lower, upper = max(0, low), self.goal.upper(inplay)
        if high is not None and high < upper:
            upper = high
        if guess is not None and lower <= guess <= upper:
            # "Can it reach more than the guess?", then "the guess?": usually right.
            for beta in (guess + 1, guess):
                if lower < beta <= upper:
                    g = self.search(beta - 1, beta, inplay)
                    if g >= beta:
                        lower = g
                    else:
                        upper = g
            if lower >= upper:
                return lower
        # The rest of the range in one search of the whole window (with the bounds
        # the table keeps, as good as halving it by zero-window tests, and better on
        # a first search from nothing).
        return self.search(lower - 1, upper + 1, inplay)

    def reaches(self, target: int) -> bool:
        """Can the side ``ours`` still add ``target`` or more? (one zero-window test)"""
        if target <= 0:
            return True
        return self.search(target - 1, target, self.inplay()) >= target

    def groups(self, moves: int) -> list[tuple[int, int]]:
        """The cards of ``moves`` (the player to act's legal cards) in groups of equal
        value: ``(representative, mask of the group)``."""
        inplay = self.inplay()
        cards = _cards(moves)
        rep = {c: c for c in cards}
        for c in cards:
            d = self._equal_above(c, moves, inplay)
            if d >= 0:
                rep[c] = d
        out: dict[int, int] = {}
        for c in cards:
            r = c
            while rep[r] != r:
                r = rep[r]
            out[r] = out.get(r, 0) | 1 << c
        return list(out.items())

    def _equal_above(self, c: int, cards: int, inplay: int) -> int:
        """The nearest card of ``cards`` (a mask) above ``c`` that plays exactly like
        it, or -1.

        Sound because every rule compares cards only by class and power (the blank is
        never equivalent): with no card in play between them, swapping the two cards
        in every line changes no legal move, no trick's winner and no Augen."""
        for d, between in self._above[c]:
            if between & inplay:
                return -1
            if cards >> d & 1:
                return d
        return -1

    # ------------------------------------------------------------------ the search
    def search(self, alpha: int, beta: int, inplay: int) -> int:
        """Fail-soft alpha-beta: the value if it lies strictly between ``alpha`` and
        ``beta``, else a bound on the same side of the window. ``inplay``: the cards in
        the hands and on the table."""
        self.nodes += 1
        deadline = self.deadline
        if deadline is not None and not self.nodes % _CLOCK_EVERY and time.monotonic() > deadline:
            raise TooCostly("the analysis passed its deadline")
        board = self.board
        goal = self.goal
        upper = goal.upper(inplay)
        if upper <= alpha:
            return upper
        if beta <= 0:
            return 0
        entry: list[int] | None = None
        first = -1
        trick = board.trick
        if not trick and inplay.bit_count() == board.n:
            # The last trick: every card is forced. Its winner is the lead if no card
            # outranks it, else a top card if one outranks every other; else played out.
            winner = board.to_act
            if self._beats[board.hands[winner].bit_length() - 1] & inplay:
                winner = self._last_winner(inplay)
            return goal.on_trick(winner, inplay, board.tricks + 1)[0]
        if not trick:
            key = (inplay, board.to_act)
            entry = self.table.get(key)
            if entry is None:
                lo, hi = goal.bound(self.sure(inplay), upper, board.tricks)
                entry = [lo, hi, -1]
                self.table[key] = entry
            else:
                lo, hi, first = entry
            if lo == hi:
                return lo
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        a0, b0 = alpha, beta
        p = board.to_act
        maximise = goal.ours[p]
        order = self._order(board.legal(), first, inplay, maximise)
        best = -1 if maximise else upper + 1
        best_card = -1
        completes = len(trick) == board.n - 1
        table_cards = 0
        for c in trick:
            table_cards |= 1 << c
        on_trick = goal.on_trick
        push, pop = board.push, board.pop
        for c in order:
            push(c)
            if completes:
                cards = table_cards | 1 << c
                gain, end = on_trick(board.winner, cards, board.tricks)
                v = gain if end else gain + self.search(alpha - gain, beta - gain, inplay & ~cards)
            else:
                v = self.search(alpha, beta, inplay)
            pop()
            if maximise:
                if v > best:
                    best, best_card = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best, best_card = v, c
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        if entry is not None:
            # A lead that held (raised the maximiser's alpha, lowered the minimiser's beta).
            if (best > a0 if maximise else best < b0) and best_card >= 0:
                self._history[best_card] += 1
            if best <= a0:
                if best < entry[1]:
                    entry[1] = best
            elif best >= b0:
                if best > entry[0]:
                    entry[0] = best
                entry[2] = best_card
            else:
                entry[0] = entry[1] = best
                entry[2] = best_card
        return best

    def _last_winner(self, inplay: int) -> int:
        """The winner of the last trick (one card in each hand) whose lead some card
        outranks."""
        board = self.board
        hands = board.hands
        for c in self._top:
            if inplay >> c & 1:
                if not inplay & ~(1 << c) & ~self._under[c]:
                    q = 0
                    while not hands[q] >> c & 1:
                        q += 1
                    return q
                break
        push, pop = board.push, board.pop
        for _ in range(board.n):
            push(hands[board.to_act].bit_length() - 1)
        winner = board.winner
        for _ in range(board.n):
            pop()
        return winner

    def _order(self, moves: int, first: int, inplay: int, maximise: bool) -> list[int]:
        """The cards to try, one per group of equivalent cards, likely best first: a
        lead as the table's best lead, then the leads that were best most often; a
        follower's card that takes the trick from the other side first (the one with
        most Augen), a card onto his own side's trick with most Augen (fewest if one of
        the others still to play holds a card that outranks it), else the card with
        fewest."""
        cards = _cards(moves)
        if len(cards) < 2:
            return cards
        equal_above = self._equal_above
        cards = [c for c in cards if equal_above(c, moves, inplay) < 0]
        board = self.board
        if not board.trick:
            history = self._history
            cards.sort(key=lambda c: -history[c])
            if first >= 0 and first in cards and cards[0] != first:
                cards.remove(first)
                cards.insert(0, first)
            return cards
        augen = self._augen
        row, wkey = board.keys[board.led], board.wkey
        ours = self.goal.ours
        if ours[board.winner] != maximise:
            cards.sort(key=lambda c: -100 - augen[c] if row[c] > wkey else augen[c])
            return cards
        # His side holds the trick: most Augen onto it, unless one of the others still
        # to play holds a card that outranks it.
        n = board.n
        q = board.to_act
        for _ in range(n - 1 - len(board.trick)):
            q = q + 1 if q + 1 < n else 0
            if ours[q] != maximise:
                for d in _cards(board.hands[q]):
                    if row[d] > wkey:
                        cards.sort(key=lambda c: augen[c])
                        return cards
        cards.sort(key=lambda c: -augen[c])
        return cards


def in_play(board: Board) -> int:
    """The cards of ``board`` in the hands and on the table."""
    cards = 0
    for hand in board.hands:
        cards |= hand
    for c in board.trick:
        cards |= 1 << c
    return cards


def settle(board: Board, goal: Goal, card: int) -> tuple[int, bool]:
    """Push ``card`` and say what it settled: the value of the trick it completed (or
    0) and whether the value is final with it."""
    cards = 0
    if len(board.trick) == board.n - 1:
        for c in board.trick:
            cards |= 1 << c
        cards |= 1 << card
    board.push(card)
    if not cards:
        return 0, False
    return goal.on_trick(board.winner, cards, board.tricks)


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def naive_value(
    board: Board,
    goal: Goal,
    deadline: float | None = None,
    cache: dict[tuple[int, int], int] | None = None,
) -> int:
    """The reference the solver is measured against: plain minimax with exact values
    cached at trick boundaries and alpha-beta inside a trick (no bounds kept, no
    ordering, no equivalent cards). The same value as ``Solver.value``, much slower.
    ``cache`` (the exact values by cards in play and leader) may be shared by the
    positions of one deal."""
    if cache is None:
        cache = {}
    nodes = [0]

    def exact(inplay: int) -> int:
        key = (inplay, board.to_act)
        value = cache.get(key)
        if value is None:
            value = within(0, goal.upper(inplay) + 1, inplay)
            cache[key] = value
        return value

    def within(alpha: int, beta: int, inplay: int) -> int:
        nodes[0] += 1
        if deadline is not None and not nodes[0] % _CLOCK_EVERY and time.monotonic() > deadline:
            raise TooCostly("the reference passed its deadline")
        maximise = goal.ours[board.to_act]
        best = -1 if maximise else goal.upper(inplay) + 1
        completes = len(board.trick) == board.n - 1
        table_cards = 0
        for c in board.trick:
            table_cards |= 1 << c
        for c in _cards(board.legal()):
            board.push(c)
            if completes:
                cards = table_cards | 1 << c
                gain, end = goal.on_trick(board.winner, cards, board.tricks)
                v = gain if end else gain + exact(inplay & ~cards)
            else:
                v = within(alpha, beta, inplay)
            board.pop()
            if maximise:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    inplay = in_play(board)
    if not board.trick:
        return exact(inplay)
    return within(0, goal.upper(inplay) + 1, inplay)
