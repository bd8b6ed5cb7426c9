"""From games' stored results to the rows of the projections — no database access.

``ledger.selectors.season_game_rows`` reads a season's finished games;
:func:`outcome_from_result` turns each into a :class:`GameOutcome` and
:func:`compute_season` runs the pure functions (standings, season table,
ratings, chart series) over them. The service then replaces the stored rows
with :func:`standing_values` / :func:`rating_values`. The incremental task and
``rebuild_projections`` both go through here, so they cannot differ.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from itertools import combinations
from typing import Any

from ledger.ratings import RatedGames, rate_games_from, rating_teams
from ledger.series import as_cents, cumulative_net
from ledger.standings import (
    GameOutcome,
    PlayerStanding,
    StandingsConfig,
    TableRow,
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
    # A digest of the fields above as stored (``selectors.season_game_fingerprints``),
    # when it was read with them: the memo then knows the row without reading it.
    fingerprint: str | None = None


def outcome_from_result(row: GameRow) -> GameOutcome:
    """The :class:`GameOutcome` of a finished game's stored engine result.

    Players are ``str(player.pk)`` as in the result's ``payouts``. The result
    does not list who sat out, so the active players are taken from an
    ``"active"`` list if the result carries one, else they are the players
    with a non-zero payout plus the declarers (a seated player who sat out is
    paid 0; in both games every active player otherwise wins or pays).
    Raises ``ValueError`` when the result contradicts itself.
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
    return GameOutcome(
        game_id=row.game_id,
        played_at=row.played_at,
        kind=row.kind,
        payouts=payouts,
        active=active,
        declarers=declarers,
        won=won if isinstance(won, bool) else None,
        contract=str(result.get("contract") or ""),
    )


@dataclass
class SeasonProjections:
    """Everything projected for one season, ready to store."""

    games: int = 0
    table: list[TableRow] = field(default_factory=list)
    evening_tables: dict[int, list[TableRow]] = field(default_factory=dict)
    ratings: dict[str, dict[str, Any]] = field(default_factory=dict)
    cumulative: dict[str, Any] = field(default_factory=dict)
    head_to_head: dict[str, dict[str, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class _Evening:
    """One evening as computed: its games, the tie-break keys, its table and its
    head-to-head numerators (``_h2h_numerators``)."""

    games: tuple[GameOutcome, ...]
    tie_break: tuple[str, ...]
    table: list[TableRow]
    numerators: _Numerators


@dataclass(frozen=True)
class _SeasonMemo:
    """What one computation of a season saw and gave, for the next one to go on from."""

    rated: RatedGames
    # game id -> (its row as read, its outcome): an unchanged row keeps its outcome
    games: dict[int, tuple[GameRow, GameOutcome]]
    evenings: dict[int, _Evening]


# The last computation of the most recently projected seasons, in this process. A
# finishing game changes one evening and adds one game at the end of the season:
# the ratings (openskill, game after game: most of a large season's cost) go on
# from the games that did not change, and the evenings that did not change keep
# their tables. Only a shortcut: every entry is compared with the games read from
# the database, so a stale or missing entry costs time, never a wrong figure.
# Bounded by seasons and by the games they hold together: an entry costs about 2.5 kB
# a game with its row (measured: 1.6 kB without), so some 50 MB at most per process.
# The newest season is kept whatever its size.
_MEMO_SEASONS = 32
_MEMO_GAMES = 20_000
_memo: OrderedDict[Hashable, _SeasonMemo] = OrderedDict()
_memo_lock = threading.Lock()


def forget_memo() -> None:
    """Drop every remembered season (the next computation of each starts afresh)."""
    with _memo_lock:
        _memo.clear()


def _remembered(key: Hashable | None) -> _SeasonMemo | None:
    if key is None:
        return None
    with _memo_lock:
        memo = _memo.get(key)
        if memo is not None:
            _memo.move_to_end(key)
        return memo


def _remember(key: Hashable | None, memo: _SeasonMemo) -> None:
    if key is None:
        return
    with _memo_lock:
        _memo[key] = memo
        _memo.move_to_end(key)
        games = sum(len(entry.games) for entry in _memo.values())
        while len(_memo) > 1 and (len(_memo) > _MEMO_SEASONS or games > _MEMO_GAMES):
            _, oldest = _memo.popitem(last=False)
            games -= len(oldest.games)


def known_rows(
    memo_key: Hashable, fingerprints: Mapping[int, str]
) -> tuple[list[GameRow], list[int]]:
    """The rows of ``fingerprints``' games that the last computation for ``memo_key``
    read with the same fingerprint, and the ids of the others (to be read)."""
    memo = _remembered(memo_key)
    read = memo.games if memo is not None else {}
    rows: list[GameRow] = []
    missing: list[int] = []
    for game_id, fingerprint in fingerprints.items():
        known = read.get(game_id)
        if known is not None and known[0].fingerprint == fingerprint:
            rows.append(known[0])
        else:
            missing.append(game_id)
    return rows, missing


def compute_season(
    *, rows: Iterable[GameRow], rules: StandingsConfig, memo_key: Hashable | None = None
) -> SeasonProjections:
    """Run standings, tables, ratings and series over a season's finished games.

    A game whose result cannot be read as an outcome, or cannot be rated, is
    logged and left out of what it breaks (its money is in the ledger all the
    same): one bad row must not stop a club's tables.

    With ``memo_key`` (the season's id) the computation goes on from this
    process's last one for the same key where the games agree (see ``_memo``);
    the result is the same as without it. ``None`` computes everything afresh.
    """
    previous = _remembered(memo_key)
    read = previous.games if previous is not None else {}
    games_read: dict[int, tuple[GameRow, GameOutcome]] = {}
    outcomes: list[GameOutcome] = []
    by_evening: dict[int, list[GameOutcome]] = defaultdict(list)
    for row in rows:
        before_row = read.get(row.game_id)
        if before_row is not None and before_row[0] == row:
            outcome = before_row[1]
        else:
            try:
                outcome = outcome_from_result(row)
            except (ValueError, TypeError, AttributeError):
                logger.exception("game %s: its result cannot be projected; left out", row.game_id)
                continue
        games_read[row.game_id] = (row, outcome)
        outcomes.append(outcome)
        by_evening[row.evening_id].append(outcome)

    projected = SeasonProjections(games=len(outcomes))
    # An evening is one night: everyone who played is ranked, by the club's keys. Its
    # standings and head-to-head sums are kept with its games, and the season's are
    # their sums (every figure of a standing is a count or a sum of payouts), so an
    # unchanged evening is not gone through again.
    tie_break = tuple(rules.tie_break)
    known = previous.evenings if previous is not None else {}
    evenings: dict[int, _Evening] = {}
    for evening_id, evening_outcomes in sorted(by_evening.items()):
        games = tuple(evening_outcomes)
        before = known.get(evening_id)
        if before is not None and before.tie_break == tie_break and before.games == games:
            evening = before
        else:
            evening = _Evening(
                games,
                tie_break,
                season_table(player_standings(games), 0, tie_break),
                _h2h_numerators(games),
            )
        evenings[evening_id] = evening
        projected.evening_tables[evening_id] = evening.table
    projected.table = season_table(
        _summed_standings(evening.table for evening in evenings.values()),
        rules.min_games,
        rules.tie_break,
    )

    ratable = []
    for outcome in outcomes:
        try:
            rating_teams(outcome)
        except ValueError:
            logger.warning("game %s cannot be rated; left out of the ratings", outcome.game_id)
            continue
        ratable.append(outcome)
    rated = rate_games_from(ratable, previous.rated if previous is not None else None)
    ratings = rated.ratings
    _remember(memo_key, _SeasonMemo(rated, games_read, evenings))
    projected.ratings = {
        player: {
            "mu": rating.mu,
            "sigma": rating.sigma,
            "ordinal": rating.ordinal,
            "history": [list(point) for point in ratings.history[player]],
            "digest": history_digest(ratings.history[player]),
        }
        for player, rating in ratings.ratings.items()
    }
    projected.cumulative = cumulative_net(outcomes).as_dict()
    projected.head_to_head = as_cents(
        _h2h_from(evening.numerators for evening in evenings.values())
    )
    return projected


def _summed_standings(tables: Iterable[list[TableRow]]) -> list[PlayerStanding]:
    """The standings over the games of all ``tables`` (each an evening's), sorted by
    player id: ``player_standings`` of all their games, as every field adds up."""
    totals: dict[str, list[int]] = {}
    for table in tables:
        for row in table:
            s = row.standing
            figures = (
                s.net,
                s.games,
                s.wins,
                s.macher_games,
                s.macher_wins,
                s.partner_games,
            )
            total = totals.get(s.player_id)
            if total is None:
                totals[s.player_id] = list(figures)
            else:
                for i, figure in enumerate(figures):
                    total[i] += figure
    return [PlayerStanding(player, *totals[player]) for player in sorted(totals)]


_Numerators = dict[tuple[str, str], dict[int, int]]


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
        payouts = outcome.payouts
        winnings = sum(amount for amount in payouts.values() if amount > 0)
        for a, b in combinations(sorted(outcome.active), 2):
            per_total = numerators.setdefault((a, b), {})
            pa, pb = payouts.get(a, 0), payouts.get(b, 0)
            if winnings and pa * pb < 0:
                per_total[winnings] = per_total.get(winnings, 0) + (
                    pa * -pb if pa > 0 else -(pb * -pa)
                )
    return numerators


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


def _standing_values(
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
        _standing_values(season_id=season_id, evening_id=None, position=i, row=row)
        for i, row in enumerate(computed.table, start=1)
    ]
    for evening_id, table in computed.evening_tables.items():
        rows += [
            _standing_values(season_id=season_id, evening_id=evening_id, position=i, row=row)
            for i, row in enumerate(table, start=1)
        ]
    return rows


def history_digest(points: Iterable[Sequence[Any]]) -> str:
    """The digest stored beside a rating's history (its points as lists or as
    :class:`~ledger.ratings.RatingPoint`): comparing it tells whether the history changed
    without reading the history back. Python's hash of a tuple of numbers: the same in
    every process (numbers are not salted like text), fast, and 64 bits wide, which is
    plenty to tell one season's histories apart."""
    whole = tuple(p if isinstance(p, tuple) else tuple(p) for p in points)
    return f"{hash(whole) & 0xFFFF_FFFF_FFFF_FFFF:016x}"


def rating_values(*, season_id: int, computed: SeasonProjections) -> list[dict[str, Any]]:
    """The fields of each player's :class:`~ledger.models.PlayerRating` row."""
    return [
        {
            "season_id": season_id,
            "player_id": int(player),
            "mu": rating["mu"],
            "sigma": rating["sigma"],
            "ordinal": rating["ordinal"],
            "games": len(rating["history"]),
            "history": rating["history"],
            "history_digest": rating["digest"],
        }
        for player, rating in computed.ratings.items()
    ]
