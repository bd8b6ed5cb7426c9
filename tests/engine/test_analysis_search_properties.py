"""Properties of the double-dummy search on random deals (hypothesis over seeds).

The deals come from ``engine.generate`` (every hand known); the positions are reached
by playing random legal cards from the board's own legal masks (``engine.board``).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import analyse, table_view
from engine.analysis import _Deal, _read, card_cost
from engine.board import Board
from engine.cards import CODES, INDEX
from engine.generate import random_game
from engine.solver import Solver, naive_value, settle

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)
games = st.sampled_from([("fuchsen", 5), ("fuchsen", 4), ("fuchsen", 6), ("koenigrufen", 4)])


def _deal(seed: int, game: str, seats: int) -> _Deal | None:
    record = random_game(seed, game, seats)
    deal = _read(record)
    return None if isinstance(deal, str) else deal


def _random_position(deal: _Deal, rng: random.Random, least: int) -> Board | None:
    """The deal's board after a random number (``least`` or more) of random legal
    cards, or None if the goal was settled on the way."""
    board = deal.board
    for _ in range(rng.randrange(least, board.n * 6)):
        moves = [c for c in range(32) if board.legal() >> c & 1]
        if settle(board, deal.goal, rng.choice(moves))[1]:
            return None
    return board


@SETTINGS
@given(seeds, games)
def test_the_search_finds_the_value_of_the_naive_reference(
    seed: int, game: tuple[str, int]
) -> None:
    deal = _deal(seed, *game)
    if deal is None:
        return
    # From trick 2 on: the naive reference is slow at the first card.
    board = _random_position(deal, random.Random(seed), deal.board.n)
    if board is None:
        return
    assert Solver(board, deal.goal, deal.equivalence).value() == naive_value(board, deal.goal)


@SETTINGS
@given(seeds, games)
def test_push_then_pop_leaves_the_board_as_it_was(seed: int, game: tuple[str, int]) -> None:
    deal = _deal(seed, *game)
    if deal is None:
        return
    rng = random.Random(seed)
    board = deal.board
    keys = []
    for _ in range(board.n * 6):
        keys.append(board.key_state())
        moves = [c for c in range(32) if board.legal() >> c & 1]
        board.push(rng.choice(moves))
    while keys:
        board.pop()
        assert board.key_state() == keys.pop()


@SETTINGS
@given(seeds, games)
def test_the_boards_legal_cards_are_the_views_legal_cards(seed: int, game: tuple[str, int]) -> None:
    record = random_game(seed, *game)
    deal = _read(record)
    if isinstance(deal, str):
        return
    board = deal.board
    events = _turned_card_named(record["events"])
    for k, (index, _, card) in enumerate(deal.plays):
        # Bettler's face-down first trick is not searched (analysis.md).
        if k >= deal.skip:
            view = table_view({**record, "events": events[:index]})
            offered = {INDEX[c] for c in (*view.legal.cards, *view.legal.face_down)}
            mask = board.legal()
            assert {c for c in range(32) if mask >> c & 1} == offered, CODES[card]
        board.push(card)


def _turned_card_named(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events with the Macher's turned card named in the call: the analysis knows
    every card, so the view of a prefix must know which card is the blank too."""
    blank = next(
        (
            e["card"]
            for e in events
            if e.get("turned") is True and "card" in e and e["type"] == "play"
        ),
        None,
    )
    if blank is None:
        return events
    return [{**e, "turned": blank} if e["type"] == "call" else e for e in events]


def _every_after(deal: _Deal, solver: Solver, won: int) -> dict[int, int]:
    """The exact value after each legal card of the player to act (each searched in
    full, not by the analysis' zero-window tests)."""
    board = solver.board
    out = {}
    moves = board.legal()
    for c in range(32):
        if moves >> c & 1:
            gain, end = settle(board, deal.goal, c)
            out[c] = won + gain + (0 if end else solver.value())
            board.pop()
    return out


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, games)
def test_before_is_the_best_after_over_the_legal_cards_and_best_holds_those(
    seed: int, game: tuple[str, int]
) -> None:
    record = random_game(seed, *game)
    deal = _read(record)
    if isinstance(deal, str):
        return
    analysis = analyse(record)
    board = deal.board
    solver = Solver(board, deal.goal, deal.equivalence)
    won = 0
    entries = iter(analysis["cards"])
    numeric = game[0] == "fuchsen"
    for k, (_, p, card) in enumerate(deal.plays):
        if k >= deal.skip:
            entry = next(entries, None)
            if entry is None:
                break
            after = _every_after(deal, solver, won)
            pick = max if deal.goal.ours[p] else min
            best_value = pick(after.values())
            assert entry["before"] == (best_value if numeric else best_value == 1)
            assert entry["after"] == (after[card] if numeric else after[card] == 1)
            assert entry["best"] == sorted(CODES[c] for c, v in after.items() if v == best_value)
            assert card_cost(analysis, entry) >= 0
        gain, end = settle(board, deal.goal, card)
        won += gain
        if end:
            break


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, st.sampled_from([("fuchsen", 5), ("fuchsen", 4), ("koenigrufen", 4)]))
def test_the_value_before_the_first_card_holds_along_the_best_line(
    seed: int, game: tuple[str, int]
) -> None:
    deal = _deal(seed, *game)
    if deal is None or deal.skip:
        return
    rng = random.Random(seed)
    board = deal.board
    line = Solver(board, deal.goal, deal.equivalence)  # chooses the best cards along the line
    start = line.value()
    won = 0
    while True:
        if board.tricks >= 1:
            # A fresh solver at each position from trick 2 on: computed from scratch.
            assert won + Solver(board, deal.goal, deal.equivalence).value() == start
        after = _every_after(deal, line, won)
        best = [c for c, v in after.items() if v == start]
        assert best
        gain, end = settle(board, deal.goal, rng.choice(best))
        won += gain
        if end:
            assert won == start
            return


def test_cost_is_never_negative_on_the_analysed_cards_of_random_deals() -> None:
    for seed in range(4):
        for game, seats in (("fuchsen", 5), ("koenigrufen", 4)):
            analysis: dict[str, Any] = analyse(random_game(seed, game, seats))
            for entry in analysis.get("cards", []):
                cost = card_cost(analysis, entry)
                assert cost >= 0
                assert (cost == 0) == (entry["card"] in entry["best"])
