"""Skill ratings with openskill's Plackett-Luce model, replayed game by game.

Pure Python, no Django import. Each finished game rates the sides as they
played: the declaring side (Macher and partner, or the declarer alone, or a
declarer with his joiner) against the other active players, ranked by
``won``. A game without a declaring side (``schurln``) is a ranking of every
active player by payout, equal payouts sharing a rank. Players who sat out a
game are not part of it and their rating does not move.

The result depends only on the outcomes and the model's parameters: games are
replayed in ``(played_at, game_id)`` order from fresh ratings every time, so a
rebuild equals the incremental projection.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from openskill.models import PlackettLuce

from ledger.standings import GameOutcome, in_game_order

__all__ = ["Rating", "RatingPoint", "Ratings", "rate_games", "rating_teams"]


class Rating(NamedTuple):
    """A player's rating: mean, uncertainty and the conservative ``mu - 3 sigma``."""

    mu: float
    sigma: float
    ordinal: float


class RatingPoint(NamedTuple):
    """A player's rating right after the game ``game_id``."""

    game_id: int
    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True)
class Ratings:
    """Final ratings and each player's history, both keyed by player id.

    ``history[p]`` has one point per game ``p`` was rated in, in game order; its
    last point equals ``ratings[p]``. Players never rated appear in neither.
    """

    ratings: dict[str, Rating]
    history: dict[str, list[RatingPoint]]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (named tuples serialise as lists)."""
        return {
            "ratings": {p: r._asdict() for p, r in self.ratings.items()},
            "history": {p: [list(point) for point in h] for p, h in self.history.items()},
        }


def rating_teams(outcome: GameOutcome) -> tuple[list[tuple[str, ...]], list[float]]:
    """The teams of ``outcome`` as rated, and their ranks (lower is better, ties equal).

    With declarers: ``[declarers, other active players]``, ranked by ``won``; if
    ``won`` is ``None`` the declarers' summed payout decides (zero: a draw).
    Without declarers: every active player alone, sorted by id, ranked by payout
    (1, 2, 2, 4 style). Raises ``ValueError`` when a side would be empty.
    """
    if outcome.declarers:
        opponents = outcome.opponents
        if not opponents:
            raise ValueError(f"game {outcome.game_id}: the declarers have no opponents to rate")
        won = outcome.won
        if won is None:
            side = sum(outcome.payout(p) for p in outcome.declarers)
            won = side > 0 if side else None
        ranks = [1.0, 1.0] if won is None else ([1.0, 2.0] if won else [2.0, 1.0])
        return [outcome.declarers, opponents], ranks
    players = sorted(outcome.active)
    if len(players) < 2:
        raise ValueError(f"game {outcome.game_id}: a ranking needs two active players")
    payouts = [outcome.payout(p) for p in players]
    # Competition ranking: one plus the number of players who did strictly better.
    ranks = [1.0 + sum(other > mine for other in payouts) for mine in payouts]
    return [(p,) for p in players], ranks


def rate_games(outcomes: Iterable[GameOutcome], model: PlackettLuce | None = None) -> Ratings:
    """Replay ``outcomes`` in game order through ``model`` and return the ratings.

    ``model`` defaults to ``PlackettLuce()`` with openskill's default parameters
    (mu 25, sigma 25/3); every player starts from the model's default rating.
    Raises ``ValueError`` on a game that cannot be rated (see :func:`rating_teams`).
    """
    model = model if model is not None else PlackettLuce()
    current: dict[str, tuple[float, float]] = {}
    history: dict[str, list[RatingPoint]] = {}
    for outcome in in_game_order(outcomes):
        teams, ranks = rating_teams(outcome)
        before = [
            [model.rating(*current[p]) if p in current else model.rating() for p in team]
            for team in teams
        ]
        after = model.rate(before, ranks=ranks)
        for team, rated in zip(teams, after, strict=True):
            for player, rating in zip(team, rated, strict=True):
                current[player] = (rating.mu, rating.sigma)
                history.setdefault(player, []).append(
                    RatingPoint(outcome.game_id, rating.mu, rating.sigma, rating.ordinal())
                )
    ratings = {p: Rating(*history[p][-1][1:]) for p in sorted(current)}
    return Ratings(ratings, {p: history[p] for p in sorted(history)})
