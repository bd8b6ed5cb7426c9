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

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from openskill.models import PlackettLuce

from ledger.standings import GameOutcome, in_game_order

__all__ = [
    "RatedGames",
    "Rating",
    "RatingPoint",
    "RatingStep",
    "Ratings",
    "rate_games",
    "rate_games_from",
    "rating_teams",
]


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


class RatingStep:
    """``model.rate(teams, ranks=ranks)`` of openskill, game after game, with the very
    same floats (``tests/ledger/test_rating_step.py`` holds them equal), without the
    work ``rate`` repeats for every game.

    ``rate`` checks its arguments, deep-copies the teams and gives every rating object
    a fresh ``uuid4`` (also in ``model.rating``): most of its cost, paid once per game
    of a rebuild (``bench/rebuild.py`` times a rebuild). The step here does what ``rate`` does
    for ranks without scores, weights or ``limit_sigma`` — add ``tau`` to each sigma,
    order the teams by rank, the model's own ``_compute``, order them back — on one
    reused rating object per player. A model with ``limit_sigma`` goes through ``rate`` itself.
    """

    def __init__(self, model: PlackettLuce | None = None) -> None:
        self.model = model if model is not None else PlackettLuce()
        self._tau_squared = self.model.tau * self.model.tau
        self._objects: dict[str, Any] = {}

    def __call__(
        self,
        teams: Sequence[Sequence[str]],
        ranks: list[float],
        before: Mapping[str, tuple[float, float]],
    ) -> list[list[tuple[float, float, float]]]:
        """The ``(mu, sigma, ordinal)`` after the game of each player of ``teams``
        (ranked by ``ranks``, lower is better), who stood at ``before[player]``
        (``(mu, sigma)``; the model's default rating when missing), team by team."""
        model = self.model
        if model.limit_sigma:
            rated = model.rate(
                [
                    [model.rating(*before[p]) if p in before else model.rating() for p in team]
                    for team in teams
                ],
                ranks=ranks,
            )
            return [[(r.mu, r.sigma, r.ordinal()) for r in team] for team in rated]
        default = (model.mu, model.sigma)
        tau_squared = self._tau_squared
        objects = self._objects
        sides = []
        for team in teams:
            side = []
            for player in team:
                rating = objects.get(player)
                if rating is None:
                    rating = objects[player] = model.rating()
                mu, sigma = before.get(player, default)
                rating.mu = mu
                # As ``rate`` corrects sigma with tau, the same expression.
                rating.sigma = math.sqrt(sigma * sigma + tau_squared)
                side.append(rating)
            sides.append(side)
        # The teams by rank and back, as ``rate`` orders them (its ``_unwind``: a
        # stable sort on the rank alone), by hand: ``_unwind`` cost more than ``_compute``.
        order = sorted(range(len(sides)), key=ranks.__getitem__)
        result = model._compute(teams=[sides[i] for i in order], ranks=sorted(ranks))
        back: list[list[tuple[float, float, float]]] = [[] for _ in sides]
        for i, after in zip(order, result, strict=True):
            back[i] = [(r.mu, r.sigma, r.ordinal()) for r in after]
        return back


def rate_games(outcomes: Iterable[GameOutcome], model: PlackettLuce | None = None) -> Ratings:
    """Replay ``outcomes`` in game order through ``model`` and return the ratings.

    ``model`` defaults to ``PlackettLuce()`` with openskill's default parameters
    (mu 25, sigma 25/3); every player starts from the model's default rating.
    Raises ``ValueError`` on a game that cannot be rated (see :func:`rating_teams`).
    """
    return rate_games_from(outcomes, None, model).ratings


@dataclass(frozen=True)
class RatedGames:
    """A rating run: the games it rated, in game order, and the ratings they gave.

    A later run over games that begin the same way goes on from here instead of
    from the first game (:func:`rate_games_from`). Never changed once made.
    """

    outcomes: tuple[GameOutcome, ...]
    ratings: Ratings


def rate_games_from(
    outcomes: Iterable[GameOutcome],
    previous: RatedGames | None,
    model: PlackettLuce | None = None,
) -> RatedGames:
    """:func:`rate_games`, going on from ``previous`` where the games agree.

    The ratings are a fold over the games in game order, so after the first ``n``
    games they depend on those games alone. With ``previous`` (a run with the same
    model), the longest run of games at the start that equals its games is not
    rated again: each player's ratings after them are the last point of his history
    among them (his points are in game order, so those points are a prefix of his
    history). Only the games after it are rated. The result is exactly what
    :func:`rate_games` gives for ``outcomes``; ``previous`` is not changed.
    """
    model = model if model is not None else PlackettLuce()
    ordered = tuple(in_game_order(outcomes))
    current: dict[str, tuple[float, float]] = {}
    history: dict[str, list[RatingPoint]] = {}
    start = 0
    if previous is not None:
        old = previous.outcomes
        limit = min(len(old), len(ordered))
        while start < limit and old[start] == ordered[start]:
            start += 1
        if start:
            kept = {outcome.game_id for outcome in old[:start]}
            for player, points in previous.ratings.history.items():
                n = len(points)
                while n and points[n - 1].game_id not in kept:
                    n -= 1
                if n:
                    history[player] = points[:n]  # a copy: ``previous`` stays as it was
                    current[player] = (points[n - 1].mu, points[n - 1].sigma)
    step = RatingStep(model)
    for outcome in ordered[start:]:
        teams, ranks = rating_teams(outcome)
        after = step(teams, ranks, current)
        for team, rated in zip(teams, after, strict=True):
            for player, (mu, sigma, ordinal) in zip(team, rated, strict=True):
                current[player] = (mu, sigma)
                history.setdefault(player, []).append(
                    RatingPoint(outcome.game_id, mu, sigma, ordinal)
                )
    ratings = {p: Rating(*history[p][-1][1:]) for p in sorted(current)}
    return RatedGames(ordered, Ratings(ratings, {p: history[p] for p in sorted(history)}))
