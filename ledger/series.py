"""Chart series: each player's running net over a season, and head-to-head balances.

Pure Python, no Django import; both functions take finished games as
:class:`~ledger.standings.GameOutcome` and replay them in ``(played_at,
game_id)`` order.

Head-to-head, defined. Within one game, pool the losses: every player with a
negative payout pays into a pot, and the pot is shared by the players with a
positive payout in proportion to their winnings. So the loser ``b`` pays the
winner ``a``

    flow(b → a) = payout_a × (−payout_b) / total winnings of the game,

and ``h2h[a][b]`` is the sum over the games both played of
``flow(b → a) − flow(a → b)``: what ``a`` took from ``b`` net. This is

- antisymmetric: ``h2h[a][b] == −h2h[b][a]``, and ``h2h[a][a]`` is never listed;
- a split of the net: ``sum(h2h[a].values())`` is ``a``'s net over those games;
- zero between players who both won or both lost a game, so partners on the
  same side settle nothing between them, while in ``schurln`` (every man for
  himself) the losers pay the winners in the same proportions.

A solo Macher who wins +3v from three opponents at −v each thus took exactly
v from each; a 2-against-2 winner took v/2 from each loser. Amounts are exact
``Fraction`` s in the ledger's unit (cents or points); :func:`as_cents` turns
them into JSON-ready floats.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

from ledger.standings import GameOutcome, in_game_order

__all__ = ["CumulativeSeries", "as_cents", "cumulative_net", "head_to_head"]


@dataclass(frozen=True)
class CumulativeSeries:
    """Running net of every player, one point per game, on a shared x axis.

    ``game_ids[i]`` is the i-th game in game order and ``values[p][i]`` is ``p``'s
    net after it; a player who sat out a game keeps his previous value, and one
    who has not played yet stands at 0. So every list is as long as ``game_ids``
    and, at every index, the values of all players sum to zero.
    """

    game_ids: list[int]
    values: dict[str, list[int]]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"game_ids": self.game_ids, "values": self.values}


def cumulative_net(outcomes: Iterable[GameOutcome]) -> CumulativeSeries:
    """Every player's running net over ``outcomes`` (see :class:`CumulativeSeries`)."""
    ordered = in_game_order(outcomes)
    players = sorted({p for o in ordered for p in (*o.active, *o.payouts)})
    running = dict.fromkeys(players, 0)
    values: dict[str, list[int]] = {p: [] for p in players}
    for outcome in ordered:
        for player, amount in outcome.payouts.items():
            running[player] += amount
        for player in players:
            values[player].append(running[player])
    return CumulativeSeries([o.game_id for o in ordered], values)


def head_to_head(outcomes: Iterable[GameOutcome]) -> dict[str, dict[str, Fraction]]:
    """Net amount each player took from each other player, exactly.

    ``result[a][b]`` is defined in the module docstring; it is present for every
    pair that was active in at least one game together (0 if nothing flowed).
    """
    result: dict[str, dict[str, Fraction]] = {}
    for outcome in in_game_order(outcomes):
        winnings = sum(amount for amount in outcome.payouts.values() if amount > 0)
        for a, b in combinations(sorted(outcome.active), 2):
            pa, pb = outcome.payout(a), outcome.payout(b)
            if winnings and pa * pb < 0:
                # One won and one lost: a takes its share of b's loss or vice versa.
                amount = Fraction(pa * -pb if pa > 0 else -(pb * -pa), winnings)
            else:
                amount = Fraction(0)
            row_a, row_b = result.setdefault(a, {}), result.setdefault(b, {})
            row_a[b] = row_a.get(b, Fraction(0)) + amount
            row_b[a] = row_b.get(a, Fraction(0)) - amount
    return {a: dict(sorted(row.items())) for a, row in sorted(result.items())}


def as_cents(matrix: Mapping[str, Mapping[str, Fraction]]) -> dict[str, dict[str, float]]:
    """``matrix`` with every amount as a float rounded to 2 decimals, for JSON.

    Rounding is symmetric about zero, so antisymmetry survives it; row sums may
    be off by rounding.
    """
    return {a: {b: round(float(v), 2) for b, v in row.items()} for a, row in matrix.items()}
