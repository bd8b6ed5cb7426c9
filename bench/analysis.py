"""Benchmark the double-dummy analysis (``engine.analyse``) of played-out deals.

    python bench/analysis.py [--fuchsen 100] [--fuchsen4 40] [--koenig 100] [--seed 1]
                             [--naive-seconds 20] [--no-naive]

Every card of each deal with ``before``, ``after`` and ``best``, in this process, one
core, CPU time (``time.process_time``). The deals: generated records
(``engine.generate``) that were played out (Fuchsen: six tricks; Königrufen: every
card until the contract was decided; Schurln is not analysed) and the shared examples
(the repository's copy, ``tests/reference/examples``)
that are analysable. Prints per suite the median, p95 and the slowest deal, with the
targets (Fuchsen median <= 0.3 s and p95 <= 1.5 s, Königrufen p95 <= 0.3 s).

The naive reference analyses the same deals the plain way: at every card, each legal
card's value by plain minimax with exact values cached at trick boundaries (shared
across the deal) and alpha-beta inside a trick (``engine.solver.naive_value``). It
stops a deal past ``--naive-seconds`` of wall-clock time and says so; the speed-up is
the naive time over the analysis' time on the deals it finished (the deals it gave up
on would raise it).
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import analyse, replay
from engine.analysis import _read
from engine.generate import random_game
from engine.solver import TooCostly, naive_value, settle

EXAMPLES = Path(__file__).resolve().parents[1] / "tests" / "reference" / "examples"


def _played_out(game: str, seats: int, count: int, seed: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    k = 0
    while len(out) < count:
        record = random_game(seed * 1_000_003 + k, game, seats)
        k += 1
        result = replay(record)
        if game == "fuchsen" and (result.reason != "played_out" or result.tricks != 6):
            continue
        if result.contract == "schurln":
            continue
        out.append(record)
    return out


def _examples(game: str) -> list[dict[str, Any]]:
    out = []
    for path in sorted(EXAMPLES.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))["record"]
        if record.get("game") == game and analyse(record)["status"] == "analysed":
            out.append(record)
    return out


def _naive(record: dict[str, Any], limit: float) -> float | None:
    """CPU seconds of the naive analysis of ``record``, or None past ``limit``."""
    deal = _read(record)
    assert not isinstance(deal, str)
    board, goal = deal.board, deal.goal
    cache: dict[tuple[int, int], int] = {}
    start = time.process_time()
    deadline = time.monotonic() + limit
    try:
        for k, (_, _, card) in enumerate(deal.plays):
            if k >= deal.skip:
                moves = board.legal()
                for c in range(32):
                    if moves >> c & 1:
                        _, end = settle(board, goal, c)
                        if not end:
                            naive_value(board, goal, deadline, cache)
                        board.pop()
            if settle(board, goal, card)[1]:
                break
    except TooCostly:
        return None
    return time.process_time() - start


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _suite(name: str, records: list[dict[str, Any]], naive: bool, limit: float) -> None:
    times: list[tuple[float, int, int]] = []
    for i, record in enumerate(records):
        start = time.process_time()
        analysis = analyse(record)
        times.append((time.process_time() - start, i, len(analysis["cards"])))
    secs = [t for t, _, _ in times]
    slow, slow_i, slow_cards = max(times)
    cards = sum(n for _, _, n in times)
    print(
        f"{name:<28} {len(records):>4} deals {cards:>5} cards"
        f"  median {statistics.median(secs):.3f} s"
        f"  p95 {_pct(secs, 0.95):.3f} s  max {slow:.3f} s (deal {slow_i}, {slow_cards} cards)"
        f"  total {sum(secs):.1f} s"
    )
    if not naive:
        return
    done: list[tuple[float, float]] = []
    gave_up = 0
    for (t, _i, _), record in zip(times, records, strict=True):
        n = _naive(record, limit)
        if n is None:
            gave_up += 1
        else:
            done.append((n, t))
    if done:
        nsecs = [n for n, _ in done]
        speedups = [n / max(t, 1e-6) for n, t in done]
        print(
            f"{'  naive reference':<28} {len(done):>4} deals done,"
            f" {gave_up} stopped past {limit:g} s:"
            f"  median {statistics.median(nsecs):.3f} s  p95 {_pct(nsecs, 0.95):.3f} s"
            f"  max {max(nsecs):.3f} s;  speed-up median {statistics.median(speedups):.1f}x,"
            f" total {sum(nsecs) / sum(t for _, t in done):.1f}x"
        )
    else:
        print(f"{'  naive reference':<28} stopped past {limit:g} s on every deal")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fuchsen", type=int, default=100, help="five-player Fuchsen deals")
    parser.add_argument("--fuchsen4", type=int, default=40, help="four-player Fuchsen deals")
    parser.add_argument("--koenig", type=int, default=100, help="Königrufen deals")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--naive-seconds", type=float, default=20.0)
    parser.add_argument("--no-naive", action="store_true")
    args = parser.parse_args()
    naive = not args.no_naive
    print("targets: Fuchsen median <= 0.3 s, p95 <= 1.5 s; Königrufen p95 <= 0.3 s (CPU, one core)")
    suites = [
        ("Fuchsen, 5 players", _played_out("fuchsen", 5, args.fuchsen, args.seed)),
        ("Fuchsen, 4 players", _played_out("fuchsen", 4, args.fuchsen4, args.seed)),
        ("Königrufen", _played_out("koenigrufen", 4, args.koenig, args.seed)),
        ("examples, Fuchsen", _examples("fuchsen")),
        ("examples, Königrufen", _examples("koenigrufen")),
    ]
    for name, records in suites:
        if records:
            _suite(name, records, naive, args.naive_seconds)


if __name__ == "__main__":
    main()
