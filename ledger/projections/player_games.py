"""Per game: each player's ``PlayerGame`` row and the rating, folded game by game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from ledger.projections.outcomes import _players_of, ratable_outcome, role_of
from ledger.ratings import RatedGames, RatingStep, rating_teams
from ledger.standings import GameOutcome


@dataclass(frozen=True)
class PlayerState:
    """A player's figures after some game: his rating, his running net, his rated games."""

    mu: float
    sigma: float
    ordinal: float
    net: int = 0
    rated: int = 0


def fresh_state(model: PlackettLuce | None = None) -> PlayerState:
    """The state of a player before his first game: the model's default rating."""
    rating = (model or PlackettLuce()).rating()
    return PlayerState(rating.mu, rating.sigma, rating.ordinal())


def fold_games(
    ordered: Sequence[tuple[int, GameOutcome]],
    states: dict[str, PlayerState],
    model: PlackettLuce | None = None,
) -> list[dict[str, Any]]:
    """The ``PlayerGame`` rows of ``ordered`` ((evening id, outcome) in game order),
    going on from ``states`` (each player's state before the first of them; a player
    missing starts fresh). ``states`` is brought up to after the last game.

    Cost: one rating step per game, O(players) each. The rating step is the one
    ``ledger.ratings.rate_games_from`` takes, so a fold over every game from fresh
    states equals the rebuild's ratings exactly.
    """
    step = RatingStep(model)
    start = fresh_state(step.model)
    rows: list[dict[str, Any]] = []
    for evening_id, outcome in ordered:
        rated = _rate(step, outcome, states, start)
        for player in _players_of(outcome):
            old = states.get(player, start)
            state = states[player] = PlayerState(
                old.mu, old.sigma, old.ordinal, old.net + outcome.payout(player), old.rated
            )
            rows.append(_player_game(outcome, evening_id, player, player in rated, state))
    return rows


def fold_ratings(
    ordered: Sequence[GameOutcome],
    states: dict[str, PlayerState],
    model: PlackettLuce | None = None,
) -> list[tuple[GameOutcome, str, PlayerState]]:
    """The rating steps of :func:`fold_games` alone: (game, player, his state after it)
    per rated player of each of ``ordered`` (outcomes in game order), players by id.
    ``states`` is brought up to after the last game as there, but for the nets, which
    stay as they were (the all-time rating has none). The same steps as
    :func:`fold_games`, without building its rows: the all-time fold of a rebuild
    rates every game of the club."""
    step = RatingStep(model)
    start = fresh_state(step.model)
    steps: list[tuple[GameOutcome, str, PlayerState]] = []
    for outcome in ordered:
        rated = _rate(step, outcome, states, start)
        steps += [(outcome, player, states[player]) for player in sorted(rated, key=int)]
    return steps


def _rate(
    step: RatingStep, outcome: GameOutcome, states: dict[str, PlayerState], start: PlayerState
) -> set[str]:
    """Rate ``outcome`` (if it can be rated) into ``states``; the players rated."""
    rated: set[str] = set()
    if ratable_outcome(outcome):
        teams, ranks = rating_teams(outcome)
        before = {p: _mu_sigma(states.get(p, start)) for team in teams for p in team}
        after = step(teams, ranks, before)
        for team, new in zip(teams, after, strict=True):
            for player, (mu, sigma, ordinal) in zip(team, new, strict=True):
                old = states.get(player, start)
                states[player] = PlayerState(mu, sigma, ordinal, old.net, old.rated + 1)
                rated.add(player)
    return rated


def _mu_sigma(state: PlayerState) -> tuple[float, float]:
    return state.mu, state.sigma


# The fields of a ``PlayerGame`` row but its season, as :func:`fold_games` gives them.
PLAYER_GAME_FIELDS = (
    "game_id",
    "evening_id",
    "player_id",
    "played_at",
    "payout",
    "role",
    "won",
    "contract",
    "value",
    "reason",
    "silent",
    "raise_chances",
    "raises",
    "rated",
    "mu",
    "sigma",
    "ordinal",
    "net_after",
)


def _player_game(
    outcome: GameOutcome, evening_id: int, player: str, rated: bool, state: PlayerState
) -> dict[str, Any]:
    return dict(
        zip(
            PLAYER_GAME_FIELDS,
            _player_game_values(outcome, evening_id, player, rated, state),
            strict=True,
        )
    )


def _player_game_values(
    outcome: GameOutcome, evening_id: int, player: str, rated: bool, state: PlayerState
) -> tuple[Any, ...]:
    """The player's ``PlayerGame`` row of the game, as ``PLAYER_GAME_FIELDS``' values."""
    role = role_of(outcome, player)
    raises = outcome.raises.get(player) if outcome.raises is not None and role != "out" else None
    return (
        outcome.game_id,
        evening_id,
        int(player),
        outcome.played_at,
        outcome.payout(player),
        role,
        outcome.won,
        outcome.contract,
        outcome.value,
        outcome.reason,
        outcome.silent,
        raises[0] if raises is not None else None,
        raises[1] if raises is not None else None,
        rated,
        state.mu,
        state.sigma,
        state.ordinal,
        state.net,
    )


def _player_games_of(
    ordered: Sequence[GameOutcome], evening_of: Mapping[int, int], rated: RatedGames
) -> list[tuple[Any, ...]]:
    """The rows of the whole season from the rebuild's own ratings (their history),
    not from :func:`fold_games`: the equality tests compare two computations. As
    tuples of ``PLAYER_GAME_FIELDS``' values: a rebuild of 100,000 games makes half a
    million, straight into ``COPY``."""
    points = {
        (point.game_id, player): point
        for player, history in rated.ratings.history.items()
        for point in history
    }
    start = fresh_state()
    states: dict[str, PlayerState] = {}
    rows: list[tuple[Any, ...]] = []
    for outcome in ordered:
        for player in _players_of(outcome):
            old = states.get(player, start)
            point = points.get((outcome.game_id, player))
            if point is not None:
                old = PlayerState(point.mu, point.sigma, point.ordinal, old.net, old.rated + 1)
            state = states[player] = PlayerState(
                old.mu, old.sigma, old.ordinal, old.net + outcome.payout(player), old.rated
            )
            rows.append(
                _player_game_values(
                    outcome, evening_of[outcome.game_id], player, point is not None, state
                )
            )
    return rows


STANDING_FIGURES = ("net", "games", "wins", "macher_games", "macher_wins", "partner_games")


def standing_contribution(row: Mapping[str, Any]) -> tuple[int, ...]:
    """What a ``PlayerGame`` row adds to its player's standing, as ``STANDING_FIGURES``
    (the same counts as ``ledger.standings.player_standings``)."""
    active = row["role"] != "out"
    won = active and row["payout"] > 0
    macher = row["role"] == "macher"
    return (
        row["payout"],
        int(active),
        int(won),
        int(macher),
        int(macher and won),
        int(row["role"] == "partner"),
    )
