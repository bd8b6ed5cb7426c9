"""The rebuild: a season's projections from all its finished games, and their rows."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ledger.projections.head_to_head import _h2h_from, _h2h_numerators, _Numerators
from ledger.projections.outcomes import GameRow, ratable_outcome, readable_outcome
from ledger.projections.player_games import _player_games_of
from ledger.ratings import rate_games_from
from ledger.series import as_cents
from ledger.standings import (
    GameOutcome,
    StandingsConfig,
    TableRow,
    in_game_order,
    player_standings,
    season_table,
)


@dataclass
class SeasonProjections:
    """Everything projected for one season, ready to store."""

    games: int = 0
    table: list[TableRow] = field(default_factory=list)
    evening_tables: dict[int, list[TableRow]] = field(default_factory=dict)
    ratings: dict[str, dict[str, Any]] = field(default_factory=dict)
    rated_games: dict[str, int] = field(default_factory=dict)
    numerators: _Numerators = field(default_factory=dict)
    head_to_head: dict[str, dict[str, float]] = field(default_factory=dict)
    # ``PlayerGame`` rows as tuples of ``PLAYER_GAME_FIELDS``' values, in game order.
    player_games: list[tuple[Any, ...]] = field(default_factory=list)


def compute_season(*, rows: Iterable[GameRow], rules: StandingsConfig) -> SeasonProjections:
    """Run standings, tables, ratings and head-to-head over a season's finished games,
    from nothing but their results (the rebuild's path).

    A game whose result cannot be read as an outcome, or cannot be rated, is
    logged and left out of what it breaks (its money is in the ledger all the
    same): one bad row must not stop a club's tables.
    """
    outcomes: list[GameOutcome] = []
    by_evening: dict[int, list[GameOutcome]] = defaultdict(list)
    evening_of: dict[int, int] = {}
    for row in rows:
        outcome = readable_outcome(row)
        if outcome is None:
            continue
        outcomes.append(outcome)
        by_evening[row.evening_id].append(outcome)
        evening_of[row.game_id] = row.evening_id

    projected = SeasonProjections(games=len(outcomes))
    tie_break = tuple(rules.tie_break)
    for evening_id, evening_outcomes in sorted(by_evening.items()):
        projected.evening_tables[evening_id] = season_table(
            player_standings(evening_outcomes), 0, tie_break
        )
    projected.table = season_table(player_standings(outcomes), rules.min_games, tie_break)
    ratable = [outcome for outcome in outcomes if ratable_outcome(outcome)]
    rated = rate_games_from(ratable, None)
    projected.ratings = {
        player: {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal}
        for player, rating in rated.ratings.ratings.items()
    }
    projected.rated_games = {p: len(h) for p, h in rated.ratings.history.items()}
    projected.numerators = _h2h_numerators(outcomes)
    projected.head_to_head = as_cents(_h2h_from([projected.numerators]))
    projected.player_games = _player_games_of(in_game_order(outcomes), evening_of, rated)
    return projected


def standing_row_values(
    *, season_id: int, evening_id: int | None, position: int, row: TableRow
) -> dict[str, Any]:
    s = row.standing
    return {
        "season_id": season_id,
        "evening_id": evening_id,
        "player_id": int(s.player_id),
        "position": position,
        "rank": row.rank,
        "net": s.net,
        "games": s.games,
        "wins": s.wins,
        "win_pct": s.win_pct,
        "per_game": s.per_game,
        "macher_games": s.macher_games,
        "macher_wins": s.macher_wins,
        "partner_games": s.partner_games,
    }


def standing_values(*, season_id: int, computed: SeasonProjections) -> list[dict[str, Any]]:
    """The fields of the season table's rows (``evening`` null) and of every evening's
    table: one :class:`~ledger.models.StandingRow` each."""
    rows = [
        standing_row_values(season_id=season_id, evening_id=None, position=i, row=row)
        for i, row in enumerate(computed.table, start=1)
    ]
    for evening_id, table in computed.evening_tables.items():
        rows += [
            standing_row_values(season_id=season_id, evening_id=evening_id, position=i, row=row)
            for i, row in enumerate(table, start=1)
        ]
    return rows


def rating_values(*, season_id: int, computed: SeasonProjections) -> list[dict[str, Any]]:
    """The fields of each player's :class:`~ledger.models.PlayerRating` row."""
    return [
        {
            "season_id": season_id,
            "player_id": int(player),
            "mu": rating["mu"],
            "sigma": rating["sigma"],
            "ordinal": rating["ordinal"],
            "games": computed.rated_games[player],
        }
        for player, rating in computed.ratings.items()
    ]
