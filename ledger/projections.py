"""From games' stored results to the rows of the projections — no database access.

Two ways to the same rows, and the tests hold them equal:

- **The rebuild** (:func:`compute_season`): every finished game of the season, read
  by ``ledger.selectors.season_game_rows``, through the pure functions (standings,
  tables, ratings, head-to-head) from nothing.
- **Per game** (``ledger.services.season_projections_recompute``): each finished game
  has one ``PlayerGame`` row per player holding its contribution (payout and role:
  the standings' sums; the running net: the chart's point) and the rating after it.
  A game added after the others costs one rating step (:func:`fold_games`) and the
  sums of its rows (:func:`standing_contribution`, :func:`numerators_of_rows`); a
  game changed out of order folds the games from it on again.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from itertools import combinations
from typing import Any

from openskill.models import PlackettLuce

from ledger.ratings import RatedGames, RatingStep, rate_games_from, rating_teams
from ledger.series import as_cents
from ledger.standings import (
    GameOutcome,
    StandingsConfig,
    TableRow,
    in_game_order,
    player_standings,
    season_table,
)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameRow:
    """What the projections need of one finished game, as read from the database."""

    game_id: int
    evening_id: int
    played_at: datetime
    kind: str
    result: Mapping[str, Any]
    seq: int = 0  # the game's last seq, the key of its cached facts
    # ``engine.game_facts(record).to_dict()`` with player ids (``ledger.models.GameFacts``),
    # or None when not known.
    facts: Mapping[str, Any] | None = None


def outcome_from_result(row: GameRow) -> GameOutcome:
    """The :class:`GameOutcome` of a finished game's stored engine result.

    Players are ``str(player.pk)`` as in the result's ``payouts``. The result
    does not list who sat out, so the active players are taken from an
    ``"active"`` list if the result carries one, else they are the players
    with a non-zero payout plus the declarers (a seated player who sat out is
    paid 0; in both games every active player otherwise wins or pays).
    Raises ``ValueError`` when the result contradicts itself. The row's ``facts``
    give Stilles Spiel and the raises (``GameOutcome.silent``, ``raises``).
    """
    result = row.result
    payouts = {str(p): amount for p, amount in (result.get("payouts") or {}).items()}
    declarers = tuple(str(p) for p in (result.get("declarers") or ()))
    if isinstance(result.get("active"), list):
        active = tuple(str(p) for p in result["active"])
    else:
        active = tuple(
            sorted({p for p, amount in payouts.items() if amount} | set(declarers), key=str)
        )
    strangers = [p for p in (*payouts, *declarers, *active) if not p.isdigit()]
    if strangers:
        raise ValueError(f"game {row.game_id}: {strangers[0]!r} is not a player id")
    won = result.get("won")
    value = result.get("value")
    facts = row.facts or {}
    silent = facts.get("silent")
    stored_raises = facts.get("raises")
    raises = (
        {str(p): (int(pair[0]), int(pair[1])) for p, pair in stored_raises.items()}
        if isinstance(stored_raises, Mapping)
        else None
    )
    return GameOutcome(
        game_id=row.game_id,
        played_at=row.played_at,
        kind=row.kind,
        payouts=payouts,
        active=active,
        declarers=declarers,
        won=won if isinstance(won, bool) else None,
        contract=str(result.get("contract") or ""),
        value=value if type(value) is int else None,
        reason=str(result.get("reason") or ""),
        silent=silent if isinstance(silent, bool) else None,
        raises=raises,
    )


# Per pair of players (a, b), a < b: per total winnings of a game, the summed numerators
# of what a took from b (see ``head_to_head_exact``).
_Numerators = dict[tuple[str, str], dict[int, int]]


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


def readable_outcome(row: GameRow) -> GameOutcome | None:
    """The row's outcome, or ``None`` (logged) when its result cannot be projected."""
    try:
        return outcome_from_result(row)
    except (ValueError, TypeError, AttributeError):
        logger.exception("game %s: its result cannot be projected; left out", row.game_id)
        return None


def ratable_outcome(outcome: GameOutcome) -> bool:
    """Whether the game can be rated (else it is logged and left out of the ratings)."""
    try:
        rating_teams(outcome)
    except ValueError:
        logger.warning("game %s cannot be rated; left out of the ratings", outcome.game_id)
        return False
    return True


def role_of(outcome: GameOutcome, player: str) -> str:
    """The player's ``PlayerGame.Role`` value in the game."""
    if player not in outcome.active:
        return "out"
    if not outcome.declarers:
        return "alone"
    if player == outcome.declarers[0]:
        return "macher"
    return "partner" if player in outcome.declarers else "opponent"


def _players_of(outcome: GameOutcome) -> list[str]:
    return sorted({*outcome.payouts, *outcome.active}, key=int)


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


def outcome_from_rows(rows: Sequence[Mapping[str, Any]]) -> GameOutcome:
    """The outcome of a game as its ``PlayerGame`` rows (all of them) hold it: what
    the rating step and the sums need, without reading the game's result again (which
    may have changed since: that change is applied by its own ``ProjectionChange``)."""
    first = rows[0]
    by_role: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        by_role[row["role"]].append(str(row["player_id"]))
    return GameOutcome(
        game_id=first["game_id"],
        played_at=first["played_at"],
        kind="",
        payouts={str(row["player_id"]): row["payout"] for row in rows},
        active=tuple(str(row["player_id"]) for row in rows if row["role"] != "out"),
        declarers=(*by_role["macher"], *by_role["partner"]),
        won=first["won"],
        contract=first["contract"],
        value=first["value"],
        reason=first["reason"],
        silent=first["silent"],
        raises=_raises_of_rows(rows),
    )


# The fields of a game's ``PlayerGame`` rows that its rating step needs.
RATING_FIELDS = ("game_id", "played_at", "player_id", "role", "payout", "won")


def rating_outcome_from_rows(rows: Sequence[Sequence[Any]]) -> GameOutcome:
    """The outcome of a game as far as its rating step needs it (the sides, who won,
    the payouts), from its rows' ``RATING_FIELDS`` (as tuples, all rows of the game):
    what :func:`outcome_from_rows` gives for those, read with six of the row's fields."""
    game_id, played_at, _player, _role, _payout, won = rows[0]
    macher = [str(r[2]) for r in rows if r[3] == "macher"]
    partners = [str(r[2]) for r in rows if r[3] == "partner"]
    return GameOutcome(
        game_id=game_id,
        played_at=played_at,
        kind="",
        payouts={str(r[2]): r[4] for r in rows},
        active=tuple(str(r[2]) for r in rows if r[3] != "out"),
        declarers=(*macher, *partners),
        won=won,
    )


def _raises_of_rows(rows: Sequence[Mapping[str, Any]]) -> dict[str, tuple[int, int]] | None:
    """``GameOutcome.raises`` as a game's rows hold it: each row with counts (a player
    who sat out has none; a game whose raising is not known, none at all)."""
    raises = {
        str(row["player_id"]): (row["raise_chances"], row["raises"])
        for row in rows
        if row["raise_chances"] is not None
    }
    return raises or None


# --- A game's contribution, as the incremental projection adds and subtracts it ------------

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


# A game's place in game order: (played_at, game id).
GameKey = tuple[datetime, int]


def game_key(row: Mapping[str, Any]) -> tuple[Any, int]:
    """A projection row's place in game order (``GameKey``)."""
    return row["played_at"], row["game_id"]
