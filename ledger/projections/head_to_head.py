"""Head-to-head as exact numerators per pair: summed game by game, stored as JSON."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from fractions import Fraction
from itertools import combinations
from typing import Any

from ledger.series import as_cents
from ledger.standings import GameOutcome

# Per pair of players (a, b), a < b: per total winnings of a game, the summed numerators
# of what a took from b (see ``head_to_head_exact``).
_Numerators = dict[tuple[str, str], dict[int, int]]


def numerators_of_rows(rows: Iterable[Mapping[str, Any]]) -> _Numerators:
    """The head-to-head numerators of the games whose ``PlayerGame`` rows these are
    (every row of each game): the same as :func:`_h2h_numerators` of their outcomes."""
    by_game: dict[int, dict[str, int]] = defaultdict(dict)
    for row in rows:
        if row["role"] != "out":
            by_game[row["game_id"]][str(row["player_id"])] = row["payout"]
    numerators: _Numerators = {}
    for payouts in by_game.values():
        _add_numerators(numerators, payouts, payouts)
    return numerators


def head_to_head_exact(outcomes: Iterable[GameOutcome]) -> dict[str, dict[str, Fraction]]:
    """``ledger.series.head_to_head``, equal to it (the tests check), for large seasons.

    The reference adds a ``Fraction`` per pair and game, and normalising
    fractions dominated a 100,000-game rebuild. Every game's flow is an
    integer over that game's total winnings, and a season has few distinct
    totals, so this sums the integer numerators per (pair, total) and makes
    one fraction per distinct total at the end: the same exact sums, since
    addition is exact and order-free.
    """
    return _h2h_from([_h2h_numerators(outcomes)])


def _h2h_numerators(outcomes: Iterable[GameOutcome]) -> _Numerators:
    """Per pair of players who sat in a game together, the numerators of what the
    first took from the second, summed per total winnings of a game."""
    numerators: _Numerators = {}
    for outcome in outcomes:
        _add_numerators(numerators, outcome.payouts, outcome.active)
    return numerators


def _add_numerators(
    numerators: _Numerators, payouts: Mapping[str, int], active: Iterable[str], sign: int = 1
) -> None:
    winnings = sum(amount for amount in payouts.values() if amount > 0)
    for a, b in combinations(sorted(active), 2):
        per_total = numerators.setdefault((a, b), {})
        pa, pb = payouts.get(a, 0), payouts.get(b, 0)
        if winnings and pa * pb < 0:
            per_total[winnings] = per_total.get(winnings, 0) + sign * (
                pa * -pb if pa > 0 else -(pb * -pa)
            )


def merge_numerators(into: _Numerators, part: _Numerators, sign: int = 1) -> None:
    """Add (``sign`` 1) or subtract (-1) ``part`` into ``into``; zero sums stay listed,
    as a pair that sat together keeps its cell (0)."""
    for pair, per_total in part.items():
        target = into.setdefault(pair, {})
        for total, n in per_total.items():
            left = target.get(total, 0) + sign * n
            if left:
                target[total] = left
            else:
                target.pop(total, None)


def numerators_as_json(numerators: _Numerators) -> dict[str, dict[str, int]]:
    """``SeasonSeries.h2h_numerators``: pairs as ``"a,b"``, totals as text."""
    return {
        f"{a},{b}": {str(t): n for t, n in sorted(per_total.items()) if n}
        for (a, b), per_total in sorted(numerators.items())
    }


def numerators_from_json(stored: Mapping[str, Mapping[str, int]]) -> _Numerators:
    """The inverse of :func:`numerators_as_json`."""
    result: _Numerators = {}
    for pair, per_total in stored.items():
        a, b = pair.split(",")
        result[(a, b)] = {int(t): int(n) for t, n in per_total.items()}
    return result


def head_to_head_of(numerators: _Numerators) -> dict[str, dict[str, float]]:
    """The stored head-to-head matrix (rounded, ``as_cents``) of these numerators."""
    return as_cents(_h2h_from([numerators]))


def _h2h_from(parts: Iterable[_Numerators]) -> dict[str, dict[str, Fraction]]:
    """The head-to-head matrix of the games whose numerators ``parts`` hold."""
    merged: _Numerators = {}
    for part in parts:
        for pair, per_total in part.items():
            into = merged.setdefault(pair, {})
            for total, n in per_total.items():
                into[total] = into.get(total, 0) + n
    result: dict[str, dict[str, Fraction]] = {}
    for (a, b), per_total in merged.items():
        amount = sum((Fraction(n, total) for total, n in per_total.items()), Fraction(0))
        result.setdefault(a, {})[b] = amount
        result.setdefault(b, {})[a] = -amount
    return {a: dict(sorted(row.items())) for a, row in sorted(result.items())}
