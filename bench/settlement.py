"""Benchmark the settlement plan: exact for 20 players, greedy for 200.

Run: ``.venv/bin/python bench/settlement.py``. Prints, per case, the number of
non-zero balances, the transfers planned, the lower bound it must meet and the
best of a few timed runs. All cases are seeded, so the figures are comparable
between runs. The exact cases aim at < 1 s each in CPython.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ledger.settlement import EXACT_LIMIT, settle

REPEATS = 5


def names(n: int) -> list[str]:
    return [f"player{i:03d}" for i in range(n)]


def hidden_groups(rng: random.Random, sizes: list[int]) -> tuple[dict[str, int], int]:
    """Zero-sum groups of the given sizes, shuffled together; returns (balances, best)."""
    amounts: list[int] = []
    for size in sizes:
        # Powers of two inside a group: no smaller zero-sum subset hides in it...
        unit = rng.randint(1, 9)
        group = [unit * 2**i * rng.choice((1, 3)) for i in range(size - 1)]
        amounts += [*group, -sum(group)]
    rng.shuffle(amounts)
    # ...but subsets across groups may still cancel, so the number of groups is
    # only an upper bound on the transfers: the plan must need at most this many.
    return dict(zip(names(len(amounts)), amounts, strict=True)), len(amounts) - len(sizes)


def small_amounts(rng: random.Random, n: int) -> tuple[dict[str, int], int]:
    """Balances of a few euros each: many zero-sum subsets, many DP levels."""
    amounts = [rng.choice([-1, 1]) * rng.randint(1, 8) * 50 for _ in range(n - 1)]
    while not sum(amounts):
        amounts[0] += 50
    amounts.append(-sum(amounts))
    return dict(zip(names(n), amounts, strict=True)), n - 1


def random_cents(rng: random.Random, n: int) -> tuple[dict[str, int], int]:
    """Fully random balances: almost never a zero-sum subset, so n - 1 transfers."""
    amounts = [rng.randint(-20_000, 20_000) or 1 for _ in range(n - 1)]
    amounts.append(-sum(amounts))
    return dict(zip(names(n), amounts, strict=True)), n - 1


def pairs(rng: random.Random, n: int) -> tuple[dict[str, int], int]:
    """The worst case for the number of zero-sum sets: everyone owes or is owed 1 euro."""
    amounts = [100, -100] * (n // 2)
    rng.shuffle(amounts)
    return dict(zip(names(n), amounts, strict=True)), n // 2


def timed(balances: dict[str, int]) -> tuple[float, int]:
    best = float("inf")
    transfers = 0
    for _ in range(REPEATS):
        start = time.perf_counter()
        plan = settle(balances)
        best = min(best, time.perf_counter() - start)
        transfers = len(plan)
    return best, transfers


def main() -> None:
    rng = random.Random(20261130)
    cases: list[tuple[str, Callable[[], tuple[dict[str, int], int]]]] = [
        ("20 exact: 8 hidden groups (2-4)", lambda: hidden_groups(rng, [2, 3, 2, 4, 3, 2, 2, 2])),
        ("20 exact: 5 hidden groups (4)", lambda: hidden_groups(rng, [4, 4, 4, 4, 4])),
        ("20 exact: small amounts", lambda: small_amounts(rng, EXACT_LIMIT)),
        ("20 exact: all +-1 euro", lambda: pairs(rng, EXACT_LIMIT)),
        ("20 exact: fully random", lambda: random_cents(rng, EXACT_LIMIT)),
        ("200 greedy: fully random", lambda: random_cents(rng, 200)),
        ("200 greedy: small amounts", lambda: small_amounts(rng, 200)),
    ]
    header = f"best of {REPEATS}"
    print(f"{'case':34} {'players':>7} {'transfers':>9} {'at most':>7} {header:>11}")
    for label, make in cases:
        balances, bound = make()
        seconds, transfers = timed(balances)
        players = sum(1 for amount in balances.values() if amount)
        assert transfers <= bound, f"{label}: {transfers} transfers, expected at most {bound}"
        print(f"{label:34} {players:7d} {transfers:9d} {bound:7d} {seconds * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
