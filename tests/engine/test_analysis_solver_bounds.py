"""The search's sure-value bounds are never wrong (hypothesis over seeds).

At random positions at the start of a trick (random legal cards from the board's own
masks), ``Solver.sure`` and each goal's ``Goal.bound`` must hold the exact value of
the naive reference (``naive_value``, which uses no bound): ``low <= exact <= high``.
Every goal is tried on every game's board: the bounds read only the board's ranking.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.analysis import _Deal, _read
from engine.generate import random_game
from engine.solver import Goal, Solver, all_tricks, augen_goal, in_play, naive_value, no_trick

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)
games = st.sampled_from([("fuchsen", 5), ("fuchsen", 4), ("fuchsen", 6), ("koenigrufen", 4)])


def _at_a_trick_start(seed: int, game: str, seats: int) -> _Deal | None:
    """The deal with its board at the start of a random trick from the second on (the
    naive reference is slow before)."""
    deal = _read(random_game(seed, game, seats))
    if isinstance(deal, str):
        return None
    board = deal.board
    rng = random.Random(seed)
    for _ in range(board.n * rng.randrange(1, 6) - len(board.trick)):
        moves = board.legal()
        board.push(rng.choice([c for c in range(32) if moves >> c & 1]))
    return deal


def _goals(deal: _Deal) -> list[Goal]:
    board = deal.board
    ours = [bool(board.side >> q & 1) for q in range(board.n)]
    others = [not o for o in ours]
    goals = [
        deal.goal,
        all_tricks(ours, 6),
        all_tricks(others, 6),
        all_tricks(ours, 5),
        no_trick(ours, 6),
        no_trick(others, 6),
    ]
    if deal.game == "fuchsen":
        goals.append(augen_goal(others, board.points_of, 6))
    return goals


@SETTINGS
@given(seeds, games)
def test_every_goals_bound_holds_the_exact_value(seed: int, game: tuple[str, int]) -> None:
    deal = _at_a_trick_start(seed, *game)
    if deal is None:
        return
    board = deal.board
    assert not board.trick
    inplay = in_play(board)
    for goal in _goals(deal):
        sure = Solver(board, goal, deal.equivalence).sure(inplay)
        low, high = goal.bound(sure, goal.upper(inplay), board.tricks)
        assert low <= naive_value(board, goal) <= high, sure


@SETTINGS
@given(seeds, games)
def test_the_leader_takes_the_tricks_he_can_cash_and_each_side_its_sure_augen(
    seed: int, game: tuple[str, int]
) -> None:
    deal = _at_a_trick_start(seed, *game)
    if deal is None:
        return
    board = deal.board
    inplay = in_play(board)
    sure = Solver(board, deal.goal, deal.equivalence).sure(inplay)
    leader = board.to_act
    assert 0 <= sure.cash <= sure.held == board.hands[leader].bit_count()
    if sure.cash:
        # The leader alone takes the next ``cash`` tricks against every defence.
        alone = [q == leader for q in range(board.n)]
        assert naive_value(board, all_tricks(alone, board.tricks + sure.cash)) == 1
    ours = [bool(board.side >> q & 1) for q in range(board.n)]
    for side in (0, 1):
        who = [o == bool(side) for o in ours]
        takes = naive_value(board, augen_goal(who, board.points_of, 6))
        assert takes >= sure.augen[side]


@SETTINGS
@given(seeds, games)
def test_the_last_trick_settled_without_playing_it_has_the_naive_value(
    seed: int, game: tuple[str, int]
) -> None:
    deal = _read(random_game(seed, *game))
    if isinstance(deal, str):
        return
    board = deal.board
    rng = random.Random(seed)
    while board.tricks < 5:
        moves = board.legal()
        board.push(rng.choice([c for c in range(32) if moves >> c & 1]))
    for goal in _goals(deal):
        assert Solver(board, goal, deal.equivalence).value() == naive_value(board, goal)
