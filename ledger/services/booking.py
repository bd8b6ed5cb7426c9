"""Games into the ledger: a game's entries made to match its result (diff-based, idempotent)."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from clubs.models import Player
from games.listeners import LockedGame, game_lock
from games.models import Evening, Game
from ledger.models import (
    LedgerEntry,
    PlayerGame,
    ProjectionChange,
)
from ledger.services.projection_requests import projection_request, projection_version_bump
from stichbuch.sql import rows_insert

logger = logging.getLogger(__name__)


GAME_KINDS = (LedgerEntry.Kind.RESULT, LedgerEntry.Kind.REVERSAL)


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


def ledger_sync_game(*, game: Game, record_changed: bool = False) -> None:
    """Make the ledger hold exactly what ``game``'s current result says, and no more.

    Its own transaction: takes the game's row lock (two syncs of one game must not
    both see the old sums and both write the difference), then
    ``ledger_sync_locked_game``. For a repair and for tests; the recording service
    books through the games listeners (``ledger.listeners``) with the lock it holds.
    """
    with transaction.atomic():
        ledger_sync_locked_game(locked=game_lock(game=game), record_changed=record_changed)


def ledger_sync_locked_game(
    *,
    locked: LockedGame,
    club_players: Collection[int] = (),
    record_changed: bool = False,
) -> None:
    """Make the ledger hold exactly what the locked game's current result says.

    Runs inside the transaction that holds the game's row lock (``locked`` is the
    proof: see ``games.listeners.LockedGame``), with the game as it now stands
    (``status`` and ``result`` set, saved or not); any error rolls that whole
    transaction back. Idempotent and diff-based: the amounts already booked for the
    game are summed per player and compared with the wanted ones
    (``game_wanted_amounts``); if they differ, the booked amounts are reversed and
    the wanted ones booked (``_sync_entries``), else nothing is written. So
    finishing writes result entries, an undo back into play or an annulment writes
    reversals, a re-finish writes results again, and calling it twice writes
    nothing the second time.

    When it writes, it bumps the season's projection version and asks for the
    season's projections on commit. It never talks to the broker itself.
    Raises ``LedgerError`` for a result that cannot be booked.

    ``club_players``: ids the caller has read, in its transaction, as players of
    the game's club (the recording service: the evening's seated players); a
    payout to one of them needs no look at the players' table.

    ``record_changed``: the caller appended events to a game that was finished and
    still is (a ``show`` after the end, a correction). Its money may stay as it was
    while what its projection rows read of the record (the contract, Stilles Spiel,
    the raises per chance) changed, so the game's projection is asked for even when
    no entry is written: one more projection run for such an append, which is rare.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("ledger_sync_locked_game needs the transaction that holds the lock")
    _sync_game(
        game=locked.game,
        evening=locked.evening,
        club_players=club_players,
        record_changed=record_changed,
    )


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
    if (
        not entries
        and not record_changed
        and not _projected_elsewhere(game=game, season_id=evening.season_id)
    ):
        return
    if entries:
        _check_players_of_club(
            club_id=evening.club_id, player_ids=wanted, game_id=game.pk, known=club_players
        )
        LedgerEntry.objects.bulk_create(entries)
    projection_version_bump(season_id=evening.season_id)
    ProjectionChange.objects.create(season_id=evening.season_id, game_id=game.pk)
    projection_request(season_id=evening.season_id)


def _projected_elsewhere(*, game: Game, season_id: int) -> bool:
    """Whether the game's projection rows are not where the game now puts them: rows
    of a finished game at another time than its finish (``finished_at``, else its
    creation, as ``selectors.season_game_rows`` reads it), rows of a game no longer
    finished, or a finished game neither projected nor waiting to be. Games are in
    the order they were finished, so a game finished again later with the same
    money (no entry written) must still be projected again, at its new place.

    Made only by a sync that books nothing and was not told the record changed: one
    indexed query (the ``(game, player)`` key), two for a finished game with no rows.
    A game whose change is still waiting is left to that change's run, which reads
    the game as it then stands."""
    projected = set(
        PlayerGame.objects.filter(game_id=game.pk)
        .values_list("played_at", flat=True)
        .distinct()
        .order_by()
    )
    if game.status != Game.Status.FINISHED:
        return bool(projected)
    if not projected:
        # The season's waiting changes (its index), few but while a run is behind.
        waiting = ProjectionChange.objects.filter(season_id=season_id, game_id=game.pk)
        return not waiting.exists()
    return projected != {game.finished_at or game.created_at}


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
    nothing booked is read. Like ``ledger_sync_locked_game``: runs inside the
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
                fresh = (
                    Game.objects.select_for_update(of=("self",))
                    .select_related("evening")
                    .get(pk=game_id)
                )
                ledger_sync_locked_game(locked=LockedGame(game=fresh, evening=fresh.evening))
            repaired += 1
    return repaired
