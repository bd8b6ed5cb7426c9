"""Writes of the ledger: keyword-only functions, each one transaction.

Money is written here and nowhere else, always as new ``LedgerEntry`` rows
whose amounts sum to zero per write:

- ``ledger_sync_game`` is the recording service's hook: it makes a game's
  entries match its current result (diff-based, idempotent).
- ``payment_record`` books a payment between two players.
- ``settlement_plan_create`` / ``settlement_transfer_mark_paid`` turn open
  balances into the fewest transfers and book them as they are paid.

The projections (standings, ratings, chart series) are recomputed by
``season_projections_recompute``, called by the Celery tasks in
``ledger.tasks``. A write that changes a season's games asks for that on
commit; if the broker is down the request is logged and dropped, and the
periodic repair task catches up: money never waits for a queue.

Services raise Django's ``ValidationError`` (keyed by field) for anything a
user can get wrong. ``LedgerError`` means a caller handed over a result that
breaks the ledger's invariants (not integers, not zero-sum, players of another
club): that is a bug upstream, and the whole recording must fail rather than
book wrong money.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, F, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from clubs.models import Club, Player, Season
from games.models import Evening, Game
from ledger import projections, selectors
from ledger.bulk import player_games_insert
from ledger.models import (
    AllTimeGame,
    AllTimeRow,
    GameFacts,
    LedgerEntry,
    Payment,
    PlayerGame,
    PlayerRating,
    ProjectionChange,
    ProjectionState,
    SeasonSeries,
    SettlementPlan,
    SettlementTransfer,
    StandingRow,
    StandingsConfig,
)
from ledger.settlement import settle
from ledger.standings import PlayerStanding, season_table
from ledger.standings import StandingsConfig as StandingsRules
from live.push import evening_changed_push
from stichbuch.sql import rows_insert

logger = logging.getLogger(__name__)

GAME_KINDS = (LedgerEntry.Kind.RESULT, LedgerEntry.Kind.REVERSAL)

# A game's place in game order: (played_at, game id).
_GameKey = tuple[datetime, int]


class LedgerError(ValueError):
    """A game result the ledger refuses to book (see the module docstring)."""


# --- Games → ledger ----------------------------------------------------------------------


def game_wanted_amounts(*, game: Game) -> dict[int, int]:
    """What the ledger should hold for ``game``: {player pk: amount}, zeros left out.

    A finished game holds its result's payouts; any other status (in progress
    after an undo, annulled) holds nothing. Raises ``LedgerError`` when a
    finished game's payouts are missing, not integers, not keyed by player
    pks, or do not sum to zero.
    """
    return wanted_amounts(game_id=game.pk, status=game.status, result=game.result)


def wanted_amounts(*, game_id: int, status: str, result: Any) -> dict[int, int]:
    """``game_wanted_amounts`` from the bare fields (the repair reads no model instances)."""
    if status != Game.Status.FINISHED:
        return {}
    payouts = result.get("payouts") if isinstance(result, dict) else None
    if not isinstance(payouts, dict) or not payouts:
        raise LedgerError(f"game {game_id} is finished but its result has no payouts")
    wanted: dict[int, int] = {}
    for key, amount in payouts.items():
        # bool is an int; True as "one cent" is a bug upstream, not data.
        if type(amount) is not int:
            raise LedgerError(f"game {game_id}: payout of {key!r} is not an integer: {amount!r}")
        try:
            player_id = int(key)
        except (TypeError, ValueError):
            raise LedgerError(f"game {game_id}: payout key {key!r} is not a player id") from None
        if amount:
            wanted[player_id] = wanted.get(player_id, 0) + amount
    if sum(wanted.values()) != 0:
        raise LedgerError(f"game {game_id}: payouts sum to {sum(wanted.values())}, not zero")
    return wanted


def _booked_amounts(*, game_id: int) -> dict[int, int]:
    """What the ledger holds for the game now: {player pk: sum of its entries}, zeros left out."""
    booked = (
        LedgerEntry.objects.filter(game_id=game_id)
        .order_by("player_id")
        .values("player_id")
        .annotate(total=Sum("amount"))
        .values_list("player_id", "total")
    )
    return {player_id: total for player_id, total in booked if total}


def _sync_entries(
    *,
    game: Game,
    evening: Evening,
    wanted: Mapping[int, int],
    booked: Mapping[int, int],
    now: datetime | None = None,
) -> list[LedgerEntry]:
    """The entries that take the game from ``booked`` to ``wanted`` (none if they agree),
    stamped ``now`` (default: this moment).

    Reverse-and-rebook rather than a bare delta: the old amounts are reversed
    in full and the new ones booked as results, so the books read as the
    story ("won 40 — taken back — won 20") and each group sums to zero on its
    own (``booked`` was written zero-sum, ``wanted`` is checked zero-sum).
    """
    if dict(wanted) == dict(booked):
        return []
    now = now or timezone.now()
    common = {
        "club_id": evening.club_id,
        "season_id": evening.season_id,
        "evening_id": evening.pk,
        "game_id": game.pk,
        "created_at": now,
    }
    entries = [
        LedgerEntry(player_id=player_id, amount=-amount, kind=LedgerEntry.Kind.REVERSAL, **common)
        for player_id, amount in sorted(booked.items())
    ]
    entries += [
        LedgerEntry(player_id=player_id, amount=amount, kind=LedgerEntry.Kind.RESULT, **common)
        for player_id, amount in sorted(wanted.items())
    ]
    return entries


def _check_players_of_club(
    *, club_id: int, player_ids: Iterable[int], game_id: int, known: Collection[int] = ()
) -> None:
    """Raise ``LedgerError`` unless every id is a player of the club; ``known``: ids the
    caller has read as players of the club (in its transaction), not looked up again."""
    ids = set(player_ids).difference(known)
    if not ids:
        return
    found = set(Player.objects.filter(club_id=club_id, pk__in=ids).values_list("pk", flat=True))
    missing = ids - found
    if missing:
        raise LedgerError(
            f"game {game_id}: players {sorted(missing)} are not players of club {club_id}"
        )


def ledger_sync_game(
    *,
    game: Game,
    locked: bool = False,
    club_players: Collection[int] = (),
    record_changed: bool = False,
) -> None:
    """Make the ledger hold exactly what ``game``'s current result says, and no more.

    Called by the recording service inside the transaction that appends the
    game's events, with the game as it now stands (``status`` and ``result``
    set, saved or not). Idempotent and diff-based: the amounts already booked
    for the game are summed per player and compared with the wanted ones
    (``game_wanted_amounts``); if they differ, the booked amounts are reversed
    and the wanted ones booked (``_sync_entries``), else nothing is written.
    So finishing writes result entries, an undo back into play or an
    annulment writes reversals, a re-finish writes results again, and calling
    it twice writes nothing the second time.

    When it writes, it bumps the season's projection version and asks for the
    season's projections on commit. It never talks to the broker itself.
    Raises ``LedgerError`` for a result that cannot be booked.

    ``locked=True`` is the caller's word (the recording service's) that it runs
    this inside its own transaction, holds the game's row lock (or created the
    row in it), has ``game.evening`` loaded, and lets any error here roll its
    whole transaction back: then the row is not locked again, the evening not
    read again and no savepoint is taken (four round trips fewer on the append
    that finishes a game). Any other caller gets all three.

    ``club_players``: ids the caller has read, in its transaction, as players of
    the game's club (the recording service: the evening's seated players); a
    payout to one of them needs no look at the players' table.

    ``record_changed``: the caller appended events to a game that was finished and
    still is (a ``show`` after the end, a correction). Its money may stay as it was
    while what its projection rows read of the record (the contract, Stilles Spiel,
    the raises per chance) changed, so the game's projection is asked for even when
    no entry is written: one more projection run for such an append, which is rare.
    """
    if locked:
        if not transaction.get_connection().in_atomic_block:
            raise RuntimeError("ledger_sync_game(locked=True) needs the caller's transaction")
        _sync_game(
            game=game,
            evening=game.evening,
            club_players=club_players,
            record_changed=record_changed,
        )
        return
    with transaction.atomic():
        # Two syncs of one game must not both see the old sums and both write the
        # difference: the game's row lock serialises them (the recording service
        # holds it already and says so with ``locked``).
        Game.objects.select_for_update().filter(pk=game.pk).values_list("pk").first()
        evening = Evening.objects.only("pk", "club_id", "season_id").get(pk=game.evening_id)
        _sync_game(game=game, evening=evening, record_changed=record_changed)


def _sync_game(
    *,
    game: Game,
    evening: Evening,
    club_players: Collection[int] = (),
    record_changed: bool = False,
) -> None:
    """``ledger_sync_game``'s work, under the game's row lock."""
    wanted = game_wanted_amounts(game=game)
    booked = _booked_amounts(game_id=game.pk)
    entries = _sync_entries(game=game, evening=evening, wanted=wanted, booked=booked)
    if not entries and not record_changed:
        return
    if entries:
        _check_players_of_club(
            club_id=evening.club_id, player_ids=wanted, game_id=game.pk, known=club_players
        )
        LedgerEntry.objects.bulk_create(entries)
    projection_version_bump(season_id=evening.season_id)
    ProjectionChange.objects.create(season_id=evening.season_id, game_id=game.pk)
    projection_request(season_id=evening.season_id)
    _game_changed(game_ids=[game.pk])


# A ledger entry's columns, for a write of plain rows.
ENTRY_FIELDS = (
    "club_id",
    "season_id",
    "evening_id",
    "game_id",
    "player_id",
    "amount",
    "kind",
    "payment_id",
    "created_at",
)

# Rows per INSERT of a bulk write: a constant number of statements per this many rows.
BULK_BATCH = 2000


def ledger_book_new_games(
    *,
    evening: Evening,
    games: Sequence[tuple[Game, datetime]],
    club_players: Collection[int] = (),
) -> None:
    """Book the payouts of ``games``, each created in the caller's transaction (an
    import) and saved: the rows ``ledger_sync_game`` writes for each, in a constant
    number of statements for them all rather than about six a game.

    Each game is ``(game, booked_at)``, ``booked_at`` the time its entries are stamped
    with (when the game's own sync would have run). A new game has no entries yet, so
    nothing booked is read. Like ``ledger_sync_game(locked=True)``: runs inside the
    caller's transaction, which any error here rolls back whole; ``club_players`` as
    there. The season's version counts one change per game that booked anything, as
    one sync per game would; its projections are asked for once. Raises
    ``LedgerError`` for a result that cannot be booked, before anything is written.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("ledger_book_new_games needs the caller's transaction")
    entries: list[LedgerEntry] = []
    changed: list[int] = []
    for game, booked_at in games:
        wanted = game_wanted_amounts(game=game)
        new = _sync_entries(game=game, evening=evening, wanted=wanted, booked={}, now=booked_at)
        if not new:
            continue
        # No statement when every payee is among ``club_players`` (an import's names).
        _check_players_of_club(
            club_id=evening.club_id, player_ids=wanted, game_id=game.pk, known=club_players
        )
        entries += new
        changed.append(game.pk)
    if not changed:
        return
    # Plain rows through COPY (``stichbuch.sql.rows_insert``), the entries as
    # ``_sync_entries`` built them: ``bulk_create`` prepared every field of every row.
    rows_insert(
        model=LedgerEntry,
        fields=ENTRY_FIELDS,
        rows=([getattr(entry, f) for f in ENTRY_FIELDS] for entry in entries),
    )
    projection_version_bump(season_id=evening.season_id, by=len(changed))
    ProjectionChange.objects.bulk_create(
        [ProjectionChange(season_id=evening.season_id, game_id=pk) for pk in changed],
        batch_size=BULK_BATCH,
    )
    projection_request(season_id=evening.season_id)
    _game_changed(game_ids=changed)


def _game_changed(*, game_ids: list[int]) -> None:
    """The games finished, or their finished record changed (or went back into play,
    or were annulled), in the current transaction: ask for what follows a game's
    record besides the ledger — its analysis (``analysis.services.analysis_request``,
    enqueued on commit).

    The one place this happens, until a registry of such hooks (set up in
    ``AppConfig.ready``) takes its place: the analysis app depends on the games,
    and neither ``games`` nor ``clubs`` imports it.
    """
    from analysis.services import analysis_request

    analysis_request(game_ids=game_ids)


# --- Projections: asking for them, and computing them ----------------------------------------


def projection_version_bump(*, season_id: int, by: int = 1) -> None:
    """Count ``by`` changes to the season's inputs (must run inside the changing transaction).

    The row lock this takes is held until that transaction commits, which
    serializes changes of one season with each other and with the write
    phase of its projection: short, and what makes ``version`` exact.
    """
    bumped = ProjectionState.objects.filter(season_id=season_id).update(version=F("version") + by)
    if not bumped:
        # get_or_create retries the read if a concurrent transaction created it first.
        ProjectionState.objects.get_or_create(season_id=season_id)
        ProjectionState.objects.filter(season_id=season_id).update(version=F("version") + by)


_deferred = threading.local()


@contextmanager
def projection_requests_deferred() -> Iterator[None]:
    """Within the block, ask for each season's projections once, at its end, rather
    than once per change: an import of many games changes them all in one call,
    and one projection run afterwards applies all their changes together (the
    changes wait in ``ProjectionChange``; nothing is lost if the block fails half-way,
    as the requests of what committed are still made)."""
    if getattr(_deferred, "seasons", None) is not None:
        yield  # already deferred by an outer block
        return
    _deferred.seasons = set()
    try:
        yield
    finally:
        seasons, _deferred.seasons = _deferred.seasons, None
        for season_id in sorted(seasons):
            projection_request(season_id=season_id)


def projection_request(*, season_id: int) -> None:
    """Ask for the season's projections to be recomputed once this transaction commits.

    Not ``delay_on_commit``: that lets a broker error escape from the commit
    hook into the request that recorded the game. Here the enqueue goes
    through ``ledger.tasks.send_quietly``, which fails fast on a dead broker
    and logs instead of raising; the season then stays *behind* and
    ``repair_projections`` recomputes it.
    """

    deferred = getattr(_deferred, "seasons", None)
    if deferred is not None:
        deferred.add(season_id)
        return

    def enqueue() -> None:
        from ledger.tasks import project_season, send_quietly

        send_quietly(project_season, season_id)

    transaction.on_commit(enqueue)


def season_projections_recompute(
    *, season_id: int, force: bool = False, all_time: bool = True
) -> ProjectionState:
    """Bring the season's projections up to date with its games; idempotent.

    Per game, not per season: the changes not yet applied are the season's
    ``ProjectionChange`` rows (written with each change, in its transaction). A run
    takes them under the season's ``SeasonSeries`` row lock (one run per season at
    a time), applies them (:func:`_apply_game_changes`) and deletes them in the same
    transaction: a run killed mid-way has written nothing, two runs racing apply
    each change once, and a repeated run finds nothing to do. A change of the whole
    season (``game_id`` null: the club's ranking rules), or ``force`` (the rebuild),
    recomputes the season from its games' results alone (:func:`_rebuild_season`).

    The version is read before the changes, so everything up to it is applied;
    ``computed_from`` never goes back. Returns the state as stored.

    The club's all-time table and rating of the season's game follow in the same
    transaction (:func:`_all_time_ratings_fold` from the first game changed), under
    the club's row lock: the runs of two seasons of one club add to the same lines.
    ``all_time=False`` leaves the all-time rating to the caller (the rebuild of every
    season, which folds it once at its end with :func:`all_time_rebuild`).
    """
    state, _created = ProjectionState.objects.get_or_create(season_id=season_id)
    version = state.version
    if not force and state.computed_from == version:
        return state
    started = time.perf_counter()
    with transaction.atomic():
        SeasonSeries.objects.get_or_create(season_id=season_id)
        series = SeasonSeries.objects.select_for_update().get(season_id=season_id)
        season = Season.objects.only("pk", "club_id", "game_kind").get(pk=season_id)
        # No key update: inserts naming the club (its key share locks) do not wait.
        Club.objects.select_for_update(no_key=True).filter(pk=season.club_id).values_list(
            "pk"
        ).first()
        changes = list(
            ProjectionChange.objects.filter(season_id=season_id).values_list("pk", "game_id")
        )
        if force or any(game_id is None for _pk, game_id in changes):
            how = "rebuilt"
            games, first = _rebuild_season(season_id, series)
        else:
            how = "applied"
            games, first = _apply_game_changes(
                season_id, series, {game_id for _pk, game_id in changes if game_id is not None}
            )
        if all_time and first is not None:
            _all_time_ratings_fold(club_id=season.club_id, game_kind=season.game_kind, first=first)
        if changes:
            ProjectionChange.objects.filter(pk__in=[pk for pk, _game_id in changes]).delete()
        state = ProjectionState.objects.select_for_update().get(pk=state.pk)
        state.computed_from = max(version, state.computed_from or 0)
        state.computed_at = timezone.now()
        state.games += games
        if how == "rebuilt":
            state.games = games
        state.runs += 1
        state.save(update_fields=["computed_from", "computed_at", "games", "runs"])
    logger.info(
        "projected season %s at version %s (%s, %s changes) in %.3f s",
        season_id,
        version,
        how,
        len(changes),
        time.perf_counter() - started,
    )
    return state


def _rebuild_season(season_id: int, series: SeasonSeries) -> tuple[int, _GameKey | None]:
    """Recompute every projection of the season from its finished games' results
    (``projections.compute_season``); returns the number of games projected and the
    first game whose rows may have changed (the season's first, before or after).
    Cost: O(games) rating steps and rows, the rebuild's price."""
    season = Season.objects.select_related("club").get(pk=season_id)
    rules = standings_rules_for(club_id=season.club_id)
    computed = projections.compute_season(
        rows=_with_facts(selectors.season_game_rows(season_id=season_id)), rules=rules
    )
    _all_time_add(
        season,
        _season_figures(season_id),
        {
            int(row.standing.player_id): [getattr(row.standing, f) for f in FIGURES]
            for row in computed.table
        },
    )
    _replace_changed(
        StandingRow.objects.filter(season_id=season_id),
        projections.standing_values(season_id=season_id, computed=computed),
        key=("evening_id", "player_id"),
    )
    _replace_changed(
        PlayerRating.objects.filter(season_id=season_id),
        projections.rating_values(season_id=season_id, computed=computed),
        key=("player_id",),
    )
    keys = [
        _key(dict(zip(projections.PLAYER_GAME_FIELDS, row, strict=True)))
        for row in computed.player_games[:1]
    ]
    stored_first = (
        PlayerGame.objects.filter(season_id=season_id)
        .order_by("played_at", "game_id")
        .values("played_at", "game_id")
        .first()
    )
    if stored_first is not None:
        keys.append(_key(stored_first))
    PlayerGame.objects.filter(season_id=season_id).delete()
    player_games_insert(season_id=season_id, rows=computed.player_games)
    series.head_to_head = computed.head_to_head
    series.h2h_numerators = projections.numerators_as_json(computed.numerators)
    series.save(update_fields=["head_to_head", "h2h_numerators"])
    return computed.games, min(keys) if keys else None


def _with_facts(rows: Iterable[projections.GameRow]) -> Iterator[projections.GameRow]:
    """The rows with their games' facts (``engine.game_facts``), read from the
    ``GameFacts`` cache where it holds them at the game's last seq; the others (a game
    finished or changed since, or never seen) are replayed from their events, once,
    and cached: a run per game replays the games it applies, a rebuild none but those.
    Two statements per 2,000 games, two more and a replay per game not cached."""
    chunk: list[projections.GameRow] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) >= 2000:
            yield from _facts_of_chunk(chunk)
            chunk = []
    if chunk:
        yield from _facts_of_chunk(chunk)


def _facts_of_chunk(chunk: list[projections.GameRow]) -> list[projections.GameRow]:
    cached = selectors.game_facts_cached(game_ids=[row.game_id for row in chunk])
    stale = [row for row in chunk if row.game_id not in cached or cached[row.game_id][0] != row.seq]
    if stale:
        records = selectors.game_records(game_ids=[row.game_id for row in stale])
        # The season's run holds its series lock: no other run writes these games' rows.
        # Only those stored at another seq are deleted (a rebuild of games never seen
        # deletes nothing), and the fresh ones go in as tuples (COPY), not instances.
        outdated = [row.game_id for row in stale if row.game_id in cached]
        fresh: list[tuple[int, int, int, Any]] = []
        for row in stale:
            facts = _facts_of_record(row.game_id, records.get(row.game_id))
            cached[row.game_id] = (row.seq, facts)
            fresh.append((row.game_id, row.evening_id, row.seq, facts))
        if outdated:
            GameFacts.objects.filter(game_id__in=outdated).delete()
        rows_insert(model=GameFacts, fields=["game_id", "evening_id", "seq", "facts"], rows=fresh)
    return [replace(row, facts=cached[row.game_id][1]) for row in chunk]


def _facts_of_record(game_id: int, record: dict[str, Any] | None) -> dict[str, Any] | None:
    """``engine.game_facts(record).to_dict()``, or None (logged, should the engine
    fail): the facts are for the statistics, and must not stop the projections."""
    if record is None:
        return None
    try:
        facts = engine.game_facts(record)
    except Exception:
        logger.exception("game %s: engine.game_facts raised; its facts are left out", game_id)
        return None
    return facts.to_dict() if facts is not None else None


def _key(row: Mapping[str, Any]) -> tuple[Any, int]:
    return row["played_at"], row["game_id"]


def _apply_game_changes(
    season_id: int, series: SeasonSeries, game_ids: set[int]
) -> tuple[int, _GameKey | None]:
    """Apply the changes of ``game_ids`` (each finished, taken back, annulled or with
    a new result) to the stored projections; returns the change in finished games and
    the first changed game's key (``None``: nothing changed).

    The cost, per run: let P be the first changed game in game order (the earlier of
    its old and its new place). Sums (season and evening standings, head-to-head
    numerators, rated games) subtract the changed games' old rows and add their new
    ones: O(players) a game. Ratings and running nets are a fold in game order, so the
    ``PlayerGame`` rows from P on are folded again from each player's state before P:
    O(games after P) rating steps and rows. A game finished after all others (the
    table's every game) has nothing after it: one step. A late game, an undo or an
    annulment deep in the season pays for the games after it; the tables are ranked
    again over the players of the season and of the evenings touched (O(players)).
    """
    old_rows = list(
        PlayerGame.objects.filter(game_id__in=game_ids).values(*projections.PLAYER_GAME_FIELDS)
    )
    new_outcomes: list[tuple[int, projections.GameOutcome]] = []
    for row in _with_facts(selectors.season_game_rows(season_id=season_id, game_ids=game_ids)):
        outcome = projections.readable_outcome(row)
        if outcome is not None:
            new_outcomes.append((row.evening_id, outcome))
    keys = [(r["played_at"], r["game_id"]) for r in old_rows]
    keys += [(o.played_at, o.game_id) for _e, o in new_outcomes]
    if not keys:
        return 0, None
    first = min(keys)
    # ``played_at >= `` is a range of the (season, played_at, game) index; the games
    # at the same instant but before ``first`` are dropped here (an OR of both in SQL
    # made SQLite scan the season).
    later = [
        r
        for r in PlayerGame.objects.filter(season_id=season_id, played_at__gte=first[0])
        .exclude(game_id__in=game_ids)
        .values(*projections.PLAYER_GAME_FIELDS)
        if _key(r) >= first
    ]
    # The games after the first changed one are folded from their own rows: a result
    # read from the games now could hold a change committed since the changes were
    # read, which its own ProjectionChange will apply (subtracting what is stored).
    later_games: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for r in later:
        later_games[r["game_id"]].append(r)
    refold = list(new_outcomes)
    refold += [
        (rows[0]["evening_id"], projections.outcome_from_rows(rows))
        for rows in later_games.values()
    ]
    refold.sort(key=lambda item: (item[1].played_at, item[1].game_id))

    removed = old_rows + later  # every row at or after ``first``
    players = {str(r["player_id"]) for r in removed}
    for _e, outcome in refold:
        players.update(outcome.payouts, outcome.active)
    ratings = {str(r.player_id): r for r in PlayerRating.objects.filter(season_id=season_id)}
    nets = dict(
        StandingRow.objects.filter(season_id=season_id, evening__isnull=True).values_list(
            "player_id", "net"
        )
    )
    states = _states_before(season_id, first, players, removed, ratings, nets)
    fresh_rows = projections.fold_games(refold, states)
    PlayerGame.objects.filter(game_id__in=game_ids | later_games.keys()).delete()
    player_games_insert(
        season_id=season_id,
        rows=([r[f] for f in projections.PLAYER_GAME_FIELDS] for r in fresh_rows),
    )

    changed_new = [r for r in fresh_rows if r["game_id"] in game_ids]
    _apply_standings(season_id, old_rows, changed_new)
    _apply_ratings(season_id, states, removed, fresh_rows, ratings)
    numerators = projections.numerators_from_json(series.h2h_numerators)
    projections.merge_numerators(numerators, projections.numerators_of_rows(old_rows), -1)
    projections.merge_numerators(numerators, projections.numerators_of_rows(changed_new))
    _drop_lone_pairs(season_id, numerators, old_rows)
    series.h2h_numerators = projections.numerators_as_json(numerators)
    series.head_to_head = projections.head_to_head_of(numerators)
    series.save(update_fields=["head_to_head", "h2h_numerators"])
    changed = len({r["game_id"] for r in changed_new}) - len({r["game_id"] for r in old_rows})
    return changed, first


def _states_before(
    season_id: int,
    first: tuple[Any, int],
    players: set[str],
    removed: list[dict[str, Any]],
    ratings: Mapping[str, PlayerRating],
    nets: Mapping[int, int],
) -> dict[str, projections.PlayerState]:
    """Each of ``players``' state right before the game ``first``: his stored rating
    and net when no row of his is at or after it (the common case, no query), else
    his last rated row before it (one indexed query per such player). The net and
    the rated games before it are what is stored less the removed rows'."""
    removed_net: dict[str, int] = {}
    removed_rated: dict[str, int] = {}
    for r in removed:
        player = str(r["player_id"])
        removed_net[player] = removed_net.get(player, 0) + r["payout"]
        removed_rated[player] = removed_rated.get(player, 0) + r["rated"]
    start = projections.fresh_state()
    states: dict[str, projections.PlayerState] = {}
    for player in players:
        net = nets.get(int(player), 0) - removed_net.get(player, 0)
        stored = ratings.get(player)
        rated = (stored.games if stored is not None else 0) - removed_rated.get(player, 0)
        if not rated:
            states[player] = projections.PlayerState(start.mu, start.sigma, start.ordinal, net, 0)
            continue
        if not removed_rated.get(player) and stored is not None:
            states[player] = projections.PlayerState(
                stored.mu, stored.sigma, stored.ordinal, net, rated
            )
            continue
        before = (
            PlayerGame.objects.filter(
                season_id=season_id, player_id=int(player), rated=True, played_at__lte=first[0]
            )
            .order_by("-played_at", "-game_id")
            .values("played_at", "game_id", "mu", "sigma", "ordinal")
        )
        # The newest row before ``first``: the first one, but for rows at its instant.
        last = next(r for r in before.iterator(chunk_size=20) if _key(r) < first)
        states[player] = projections.PlayerState(
            last["mu"], last["sigma"], last["ordinal"], net, rated
        )
    return states


def _apply_standings(season_id: int, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> None:
    """Subtract the old rows' contributions and add the new ones' to the season table
    and the tables of their evenings, then rank those tables again."""
    deltas: dict[int | None, dict[int, list[int]]] = defaultdict(dict)
    for rows, sign in ((old, -1), (new, 1)):
        for r in rows:
            contribution = projections.standing_contribution(r)
            for scope in (None, r["evening_id"]):
                total = deltas[scope].setdefault(r["player_id"], [0] * len(contribution))
                for i, figure in enumerate(contribution):
                    total[i] += sign * figure
    season = Season.objects.only("club_id", "game_kind").get(pk=season_id)
    rules = standings_rules_for(club_id=season.club_id)
    # A player whose figures come to nothing is still listed if he sat in a game of
    # the table (paid 0): the rows of the new games say so, else one indexed look.
    appearing = {(None, r["player_id"]) for r in new}
    appearing |= {(r["evening_id"], r["player_id"]) for r in new}
    for scope, delta in deltas.items():
        stored = StandingRow.objects.filter(season_id=season_id)
        stored = (
            stored.filter(evening__isnull=True)
            if scope is None
            else stored.filter(evening_id=scope)
        )
        figures = {
            player: list(values) for player, *values in stored.values_list("player_id", *FIGURES)
        }
        for player, change in delta.items():
            total = figures.setdefault(player, [0] * len(change))
            for i, figure in enumerate(change):
                total[i] += figure
        gone = [
            player
            for player, total in figures.items()
            if not any(total)
            and (scope, player) not in appearing
            and not _appears(season_id, scope, player)
        ]
        for player in gone:
            del figures[player]
        if scope is None:
            _all_time_add(season, _season_figures(season_id), figures)
        standings = [PlayerStanding(str(player), *figures[player]) for player in sorted(figures)]
        table = season_table(standings, rules.min_games if scope is None else 0, rules.tie_break)
        rows = [
            projections.standing_row_values(
                season_id=season_id, evening_id=scope, position=i, row=row
            )
            for i, row in enumerate(table, start=1)
        ]
        _replace_changed(stored, rows, key=("player_id",))


FIGURES = projections.STANDING_FIGURES


def _season_figures(season_id: int) -> dict[int, list[int]]:
    """The season table's figures as stored: {player id: ``FIGURES``}."""
    return {
        player: list(values)
        for player, *values in StandingRow.objects.filter(
            season_id=season_id, evening__isnull=True
        ).values_list("player_id", *FIGURES)
    }


def _all_time_add(
    season: Season, before: Mapping[int, list[int]], after: Mapping[int, list[int]]
) -> None:
    """Add the difference between the season table's figures ``before`` and ``after``
    a change to the club's all-time table of the season's game (O(players changed)).
    A season counts for a player while he has games in it."""
    games = FIGURES.index("games")
    rows = {
        row.player_id: row
        for row in AllTimeRow.objects.filter(
            club_id=season.club_id,
            game_kind=season.game_kind,
            player_id__in=set(before) | set(after),
        )
    }
    for player in sorted(set(before) | set(after)):
        old = before.get(player, [0] * len(FIGURES))
        new = after.get(player, [0] * len(FIGURES))
        if old == new:
            continue
        row = rows.get(player) or AllTimeRow(
            club_id=season.club_id, game_kind=season.game_kind, player_id=player
        )
        for name, was, now in zip(FIGURES, old, new, strict=True):
            setattr(row, name, getattr(row, name) + now - was)
        row.seasons += int(new[games] > 0) - int(old[games] > 0)
        row.save()


def all_time_rebuild(*, club_id: int | None = None) -> int:
    """Recompute the all-time lines (of one club, or of all) from the stored season
    tables, and their all-time ratings from the seasons' ``PlayerGame`` rows; returns
    how many lines there are. The rebuild's last step, after every season was rebuilt
    from the results."""
    lines = (
        AllTimeRow.objects.all() if club_id is None else AllTimeRow.objects.filter(club_id=club_id)
    )
    seasons = StandingRow.objects.filter(evening__isnull=True)
    if club_id is not None:
        seasons = seasons.filter(season__club_id=club_id)
    sums = (
        seasons.values("season__club_id", "season__game_kind", "player_id")
        .annotate(
            seasons_played=Count("season_id", filter=Q(games__gt=0)),
            **{f"sum_{name}": Sum(name) for name in FIGURES},
        )
        .order_by()
    )
    fresh = [
        AllTimeRow(
            club_id=row["season__club_id"],
            game_kind=row["season__game_kind"],
            player_id=row["player_id"],
            seasons=row["seasons_played"],
            **{name: int(row[f"sum_{name}"]) for name in FIGURES},
        )
        for row in sums
    ]
    kinds = sorted({(line.club_id, line.game_kind) for line in fresh})
    with transaction.atomic():
        # The clubs' rows locked first, in id order, as a season's run locks its club
        # (after its season, which this takes none of): the lines are theirs.
        clubs = Club.objects.order_by("pk")
        if club_id is not None:
            clubs = clubs.filter(pk=club_id)
        list(clubs.select_for_update(no_key=True).values_list("pk", flat=True))
        lines.delete()
        AllTimeRow.objects.bulk_create(fresh, batch_size=2000)
        # The all-time ratings folded from nothing: every game of the club's game once.
        steps = AllTimeGame.objects.all()
        if club_id is not None:
            steps = steps.filter(club_id=club_id)
        steps.delete()
        for club, kind in kinds:
            _all_time_ratings_fold(club_id=club, game_kind=kind, first=None)
    return len(fresh)


def _all_time_ratings_fold(*, club_id: int, game_kind: str, first: _GameKey | None) -> None:
    """Bring the club's all-time rating of ``game_kind`` up to date from the game
    ``first`` on (``None``: from the club's first game, the rebuild), under the
    caller's lock of the club's row and inside its transaction.

    The all-time rating is the season rating's fold over every game of every season
    of the game, in game order, from the seasons' ``PlayerGame`` rows (as they stand
    after the season's run; the same rating step, ``projections.fold_ratings``). Cost:
    the games from ``first`` on, one rating step each, and their rows read from every
    season of the game. A game finished after all others (the common case) costs one
    step; a late game, an undo or an annulment, or a season rebuilt, pays for every
    game of the club's game played after it, in any season (the all-time rating of a
    game depends on all games before it). Each player's state before ``first`` is
    his ``AllTimeRow`` rating when no step of his is at or after ``first`` (no
    query), else his last ``AllTimeGame`` row before it (one indexed query).
    """
    seasons = Season.objects.filter(club_id=club_id, game_kind=game_kind).values("pk")
    rows = PlayerGame.objects.filter(season_id__in=seasons)
    steps = AllTimeGame.objects.filter(club_id=club_id, game_kind=game_kind)
    if first is not None:
        rows = rows.filter(played_at__gte=first[0])
        steps = steps.filter(played_at__gte=first[0])
    # Only the fields the rating step needs, as tuples: a rebuild reads every row of
    # the club's game here (half a million for 100,000 games).
    later_games: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for r in rows.values_list(*projections.RATING_FIELDS).iterator(chunk_size=5000):
        # (played_at, game_id) >= first
        if first is None or (r[1], r[0]) >= first:
            later_games[r[0]].append(r)
    old_steps = [
        r
        for r in steps.values("pk", "game_id", "player_id", "played_at")
        if first is None or _key(r) >= first
    ]
    refold = [projections.rating_outcome_from_rows(rows_of) for rows_of in later_games.values()]
    refold.sort(key=lambda outcome: (outcome.played_at, outcome.game_id))
    removed_rated: dict[str, int] = defaultdict(int)
    for r in old_steps:
        removed_rated[str(r["player_id"])] += 1
    players = set(removed_rated)
    for outcome in refold:
        players.update(outcome.payouts, outcome.active)
    lines = {
        str(line.player_id): line
        for line in AllTimeRow.objects.filter(
            club_id=club_id, game_kind=game_kind, player_id__in=[int(p) for p in players]
        )
    }
    start = projections.fresh_state()
    states: dict[str, projections.PlayerState] = {}
    for player in players:
        line = lines.get(player)
        stored_rated = line.rated if line is not None and first is not None else 0
        rated = stored_rated - removed_rated.get(player, 0)
        if rated <= 0:
            states[player] = start
        elif not removed_rated.get(player) and line is not None and line.mu is not None:
            assert line.sigma is not None and line.ordinal is not None
            states[player] = projections.PlayerState(line.mu, line.sigma, line.ordinal, 0, rated)
        else:
            assert first is not None
            before = (
                AllTimeGame.objects.filter(
                    club_id=club_id,
                    game_kind=game_kind,
                    player_id=int(player),
                    played_at__lte=first[0],
                )
                .order_by("-played_at", "-game_id")
                .values("played_at", "game_id", "mu", "sigma", "ordinal")
            )
            last = next(r for r in before.iterator(chunk_size=20) if _key(r) < first)
            states[player] = projections.PlayerState(
                last["mu"], last["sigma"], last["ordinal"], 0, rated
            )
    # Plain tuples through ``rows_insert`` (COPY), as the seasons' ``PlayerGame`` rows:
    # one row per rated player and game, so a rebuild or a long import writes as
    # many of these as of those, and building model instances was most of their cost.
    fresh = [
        (
            club_id,
            game_kind,
            outcome.game_id,
            int(player),
            outcome.played_at,
            state.mu,
            state.sigma,
            state.ordinal,
        )
        for outcome, player, state in projections.fold_ratings(refold, states)
    ]
    if old_steps:
        AllTimeGame.objects.filter(pk__in=[r["pk"] for r in old_steps]).delete()
    rows_insert(
        model=AllTimeGame,
        fields=[
            "club_id",
            "game_kind",
            "game_id",
            "player_id",
            "played_at",
            "mu",
            "sigma",
            "ordinal",
        ],
        rows=fresh,
    )
    changed: list[AllTimeRow] = []
    for player in sorted(players, key=int):
        state = states[player]
        line = lines.get(player)
        if line is None:
            if not state.rated:
                continue
            line = AllTimeRow.objects.create(
                club_id=club_id, game_kind=game_kind, player_id=int(player)
            )
        values = (
            (state.mu, state.sigma, state.ordinal, state.rated)
            if state.rated
            else (None, None, None, 0)
        )
        if (line.mu, line.sigma, line.ordinal, line.rated) != values:
            line.mu, line.sigma, line.ordinal, line.rated = values
            changed.append(line)
    AllTimeRow.objects.bulk_update(changed, ["mu", "sigma", "ordinal", "rated"], batch_size=500)


def _appears(season_id: int, scope: int | None, player_id: int) -> bool:
    """Whether the player has a ``PlayerGame`` row in the season (or the evening)."""
    rows = PlayerGame.objects.filter(season_id=season_id, player_id=player_id)
    if scope is not None:
        rows = rows.filter(evening_id=scope)
    return rows.exists()


def _apply_ratings(
    season_id: int,
    before: Mapping[str, projections.PlayerState],
    removed: list[dict[str, Any]],
    fresh: list[dict[str, Any]],
    ratings: Mapping[str, PlayerRating],
) -> None:
    """Store each touched player's rating after his last game (his state after the
    fold) and his rated games; a player left with none has no rating."""
    touched = {str(r["player_id"]) for r in removed} | {str(r["player_id"]) for r in fresh}
    stale: list[int] = []
    fresh_ratings: list[PlayerRating] = []
    for player in sorted(touched):
        state = before[player]
        old = ratings.get(player)
        values = (state.mu, state.sigma, state.ordinal, state.rated)
        if old is not None and (old.mu, old.sigma, old.ordinal, old.games) == values:
            continue
        if old is not None:
            stale.append(old.pk)
        if state.rated:
            fresh_ratings.append(
                PlayerRating(
                    season_id=season_id,
                    player_id=int(player),
                    mu=state.mu,
                    sigma=state.sigma,
                    ordinal=state.ordinal,
                    games=state.rated,
                )
            )
    if stale:
        PlayerRating.objects.filter(pk__in=stale).delete()
    if fresh_ratings:
        PlayerRating.objects.bulk_create(fresh_ratings, batch_size=500)


def _drop_lone_pairs(
    season_id: int, numerators: dict[tuple[str, str], dict[int, int]], old: list[dict[str, Any]]
) -> None:
    """Forget the pairs of the removed rows that no longer sat in a game together
    (the rebuild lists a pair only if it did)."""
    pairs: set[tuple[str, str]] = set()
    by_game: dict[int, list[str]] = defaultdict(list)
    for r in old:
        if r["role"] != "out":
            by_game[r["game_id"]].append(str(r["player_id"]))
    for players in by_game.values():
        ordered = sorted(players)
        pairs.update((a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :])
    for a, b in pairs:
        if numerators.get((a, b)):
            continue
        together = (
            PlayerGame.objects.filter(season_id=season_id, player_id=int(a))
            .exclude(role="out")
            .filter(
                game_id__in=PlayerGame.objects.filter(season_id=season_id, player_id=int(b))
                .exclude(role="out")
                .values("game_id")
            )
            .exists()
        )
        if not together:
            numerators.pop((a, b), None)


_Row = TypeVar("_Row", StandingRow, PlayerRating)


def _replace_changed(
    stored_rows: QuerySet[_Row],
    rows: list[dict[str, Any]],
    *,
    key: tuple[str, ...],
) -> None:
    """Make ``stored_rows`` equal ``rows`` (each a dict of every field but the id),
    writing only the difference. Rows are matched by ``key`` (unique within the
    rows); a stored row whose fields differ from its new row's, or that has no new
    row, is deleted, and the new rows not stored as they are are inserted (after
    the deletes, as the key is unique)."""
    model = stored_rows.model
    fields = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
    at = [fields.index(name) for name in key]
    stored: dict[tuple[Any, ...], tuple[int, tuple[Any, ...]]] = {}
    for pk, *values in stored_rows.values_list("pk", *fields):
        stored[tuple(values[i] for i in at)] = (pk, tuple(values))
    stale: list[int] = []
    fresh: list[tuple[Any, ...]] = []
    for row in rows:
        values = tuple(row[name] for name in fields)
        old = stored.pop(tuple(values[i] for i in at), None)
        if old is not None and old[1] == values:
            continue  # stored as it is
        if old is not None:
            stale.append(old[0])
        fresh.append(values)
    stale += [pk for pk, _ in stored.values()]
    if stale:
        model.objects.filter(pk__in=stale).delete()
    # Tuples through COPY, not instances through ``bulk_create``: a rebuild of 100,000
    # games writes 40,000 evening table rows, and preparing each instance's fields
    # was most of their cost.
    rows_insert(model=model, fields=fields, rows=fresh)


def standings_rules_for(*, club_id: int) -> StandingsRules:
    """The club's ranking rules (the defaults when it has set none)."""
    config = StandingsConfig.objects.filter(club_id=club_id).first()
    if config is None:
        return StandingsRules()
    return StandingsRules(config.min_games, tuple(config.tie_break))


def ledger_repair_season(*, season_id: int) -> int:
    """Sync every game of the season whose ledger disagrees with its result; return how many.

    One aggregate query compares the books with the stored results, so a
    season of many games in order costs about one query; only the games that
    disagree are synced (each in its own transaction, under its row lock).
    """
    booked: dict[int, dict[int, int]] = defaultdict(dict)
    rows = (
        LedgerEntry.objects.filter(season_id=season_id, kind__in=GAME_KINDS)
        .values("game_id", "player_id")
        .annotate(total=Sum("amount"))
        .order_by()
    )
    for row in rows:
        if row["total"]:
            booked[row["game_id"]][row["player_id"]] = row["total"]
    games = (
        Game.objects.filter(evening__season_id=season_id)
        .values_list("pk", "status", "result")
        .order_by("pk")
    )
    repaired = 0
    for game_id, game_status, result in games.iterator(chunk_size=5000):
        try:
            wanted = wanted_amounts(game_id=game_id, status=game_status, result=result)
        except LedgerError:
            logger.exception("game %s cannot be booked; left as it is", game_id)
            continue
        if wanted != booked.get(game_id, {}):
            with transaction.atomic():
                fresh = Game.objects.select_for_update().get(pk=game_id)
                ledger_sync_game(game=fresh)
            repaired += 1
    return repaired


# --- Payments --------------------------------------------------------------------------------


@transaction.atomic
def payment_record(
    *,
    club: Club,
    payer: Player,
    payee: Player,
    amount: int,
    recorded_by: Any | None,
    evening: Evening | None = None,
    season: Season | None = None,
) -> Payment:
    """Book money handed from ``payer`` to ``payee``.

    Writes the ``Payment`` and two entries: the payer +amount (he owes less),
    the payee −amount (he is owed less), so open balances are results minus
    payments. A payment made for an evening counts for that evening and its
    season. Raises ``ValidationError`` for an amount that is not a whole
    number > 0, a player paying himself, players, an evening or a season of
    another club, or an evening outside the given season.
    """
    errors: dict[str, str] = {}
    if type(amount) is not int or amount <= 0:
        errors["amount"] = _("The amount must be a whole number greater than zero.")
    if payer.club_id != club.pk:
        errors["payer"] = _("This player belongs to another club.")
    if payee.club_id != club.pk:
        errors["payee"] = _("This player belongs to another club.")
    if payer.pk == payee.pk:
        errors["payee"] = _("A player cannot pay himself.")
    if evening is not None and evening.club_id != club.pk:
        errors["evening"] = _("This evening belongs to another club.")
    elif evening is not None:
        # The evening's row locked as ``games.services.evening_delete`` locks it: a
        # payment booked while its (empty) evening is deleted waits, then finds it gone.
        rows = Evening.objects.select_for_update(no_key=True, of=("self",)).filter(pk=evening.pk)
        if not list(rows.values_list("pk", flat=True)):
            errors["evening"] = _("This evening has been deleted.")
    if season is not None and season.club_id != club.pk:
        errors["season"] = _("This season belongs to another club.")
    if (
        evening is not None
        and season is not None
        and "evening" not in errors
        and evening.season_id != season.pk
    ):
        errors["season"] = _("This evening belongs to another season.")
    if errors:
        raise ValidationError(errors)
    season_id = season.pk if season is not None else (evening.season_id if evening else None)
    payment = Payment.objects.create(
        club=club,
        season_id=season_id,
        evening=evening,
        payer=payer,
        payee=payee,
        amount=amount,
        recorded_by=recorded_by,
    )
    _payment_entries(payment)
    if payment.evening_id is not None:
        evening_changed_push(payment.evening_id)
    return payment


def _payment_entries(payment: Payment) -> None:
    """The payment's two entries: the payer +amount (he owes less), the payee −amount."""
    common = {
        "club_id": payment.club_id,
        "season_id": payment.season_id,
        "evening_id": payment.evening_id,
        "payment": payment,
        "kind": LedgerEntry.Kind.PAYMENT,
        "created_at": payment.created_at,
    }
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(player_id=payment.payer_id, amount=payment.amount, **common),
            LedgerEntry(player_id=payment.payee_id, amount=-payment.amount, **common),
        ]
    )


@transaction.atomic
def payment_reverse(*, payment: Payment, recorded_by: Any | None) -> Payment:
    """Book the reversal ("Storno") of a payment booked by mistake: the same amount
    back from its payee to its payer, with its two entries, for the same evening and
    season, so that every balance is as before the payment. Nothing is deleted. A
    settlement transfer marked paid with the payment is open again (to be marked
    paid when the money really changes hands).

    Raises ``ValidationError`` for a payment reversed already or one that is itself a
    reversal (book the payment anew instead).
    """
    locked = Payment.objects.select_for_update().get(pk=payment.pk)
    if locked.reverses_id is not None:
        raise ValidationError(_("This is a reversal: book the payment again instead."))
    if Payment.objects.filter(reverses=locked).exists():
        raise ValidationError(_("This payment has been reversed already."))
    reversal = Payment.objects.create(
        club_id=locked.club_id,
        season_id=locked.season_id,
        evening_id=locked.evening_id,
        payer_id=locked.payee_id,
        payee_id=locked.payer_id,
        amount=locked.amount,
        recorded_by=recorded_by,
        reverses=locked,
    )
    _payment_entries(reversal)
    if reversal.evening_id is not None:
        evening_changed_push(reversal.evening_id)
    SettlementTransfer.objects.filter(payment=locked).update(
        paid_at=None, paid_by=None, payment=None
    )
    return reversal


# --- Settlement --------------------------------------------------------------------------------


@transaction.atomic
def settlement_plan_create(
    *,
    club: Club,
    created_by: Any | None,
    evening: Evening | None = None,
    season: Season | None = None,
) -> SettlementPlan:
    """Plan the fewest transfers that clear the open balances of an evening or a season.

    Exactly one of ``evening`` and ``season`` must be given, of ``club``. The
    balances are read now and stored with the plan; later games or payments do
    not change a plan (make a new one). Open balances that are all zero give a
    plan without transfers. An evening is refused once payments were booked for
    its whole season (a season's plan paid, say): they are in the season's
    balance, not the evening's, so settling the evening would ask for them again.
    """
    if (evening is None) == (season is None):
        raise ValidationError(_("Settle either an evening or a season."))
    if evening is not None and evening.club_id != club.pk:
        raise ValidationError({"evening": _("This evening belongs to another club.")})
    if season is not None and season.club_id != club.pk:
        raise ValidationError({"season": _("This season belongs to another club.")})
    if (
        evening is not None
        and Payment.objects.filter(
            season_id=evening.season_id,
            evening__isnull=True,
            reverses__isnull=True,  # a payment reversed, and its reversal, pay nothing
            reversed_by__isnull=True,
        ).exists()
    ):
        # Payments for a whole season are no evening's: an evening's own balance
        # would still ask for money they paid. The season's balance counts them.
        raise ValidationError(
            {
                "evening": _(
                    "Payments were booked for this evening's whole season; settle the "
                    "season instead, which counts them."
                )
            }
        )
    balances = selectors.balance_map(club=club, evening=evening, season=season)
    transfers = settle({str(player_id): amount for player_id, amount in balances.items()})
    plan = SettlementPlan.objects.create(
        club=club,
        evening=evening,
        season=season,
        balances={str(player_id): amount for player_id, amount in sorted(balances.items())},
        created_by=created_by,
    )
    SettlementTransfer.objects.bulk_create(
        [
            SettlementTransfer(
                plan=plan, payer_id=int(t.payer), payee_id=int(t.payee), amount=t.amount
            )
            for t in transfers
        ]
    )
    return plan


@transaction.atomic
def settlement_transfer_mark_paid(
    *, transfer: SettlementTransfer, paid_by: Any | None
) -> SettlementTransfer:
    """Mark a planned transfer paid and book its payment, once.

    Idempotent: the transfer is claimed with a conditional update, and only the
    caller that changed the row books the payment; a second mark (a retry, a
    double tap, a concurrent request) books nothing and returns the transfer as
    it is.
    """
    claimed = SettlementTransfer.objects.filter(pk=transfer.pk, paid_at__isnull=True).update(
        paid_at=timezone.now(), paid_by=paid_by
    )
    if claimed == 1:
        plan = SettlementPlan.objects.select_related("club", "evening", "season").get(
            pk=transfer.plan_id
        )
        payment = payment_record(
            club=plan.club,
            payer=Player.objects.get(pk=transfer.payer_id),
            payee=Player.objects.get(pk=transfer.payee_id),
            amount=transfer.amount,
            recorded_by=paid_by,
            evening=plan.evening,
            season=plan.season,
        )
        SettlementTransfer.objects.filter(pk=transfer.pk).update(payment=payment)
    transfer.refresh_from_db()
    return transfer


# --- Standings configuration ------------------------------------------------------------------


@transaction.atomic
def standings_config_update(
    *, club: Club, min_games: int | None = None, tie_break: list[str] | None = None
) -> StandingsConfig:
    """Change how the club ranks its tables; every season's projections follow.

    Raises ``ValidationError`` naming the field for a negative minimum or a
    tie-break order that is empty, repeats a key or names an unknown one.
    """
    config, _created = StandingsConfig.objects.select_for_update().get_or_create(club=club)
    if min_games is not None:
        config.min_games = min_games
    if tie_break is not None:
        config.tie_break = list(tie_break)
    try:
        StandingsRules(int(config.min_games), tuple(config.tie_break))
    except (ValueError, TypeError) as error:
        field = "min_games" if "min_games" in str(error) else "tie_break"
        raise ValidationError({field: str(error)}) from None
    config.save()
    # In season order: two writers locking several state rows never wait on each other in a ring.
    for season_id in (
        ProjectionState.objects.filter(season__club=club)
        .order_by("season_id")
        .values_list("season_id", flat=True)
    ):
        projection_version_bump(season_id=season_id)
        ProjectionChange.objects.create(season_id=season_id, game_id=None)
        projection_request(season_id=season_id)
    return config
