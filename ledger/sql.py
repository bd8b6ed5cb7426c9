"""The ledger's statements on the append that finishes a game, written once in plain SQL.

The append that finishes a game (or takes it back into play, or annuls it)
syncs the game's entries inside its own transaction: it sums what is booked
for the game, books the entries that take it to its new result, and counts the
change in the season's ``ProjectionState``. Built by the ORM, those three
statements cost more CPU to build (0.3–0.7 ms each) than PostgreSQL spent
running them, on the request a table waits for after its last card; so they
are here as fixed SQL text, as ``games.sql`` does for every append.

Table and column names come from the models' ``_meta``; the statements run on
SQLite and PostgreSQL alike (prepared per connection on PostgreSQL, see
``stichbuch.db``), inside the caller's transaction.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.db import connection

from ledger.models import LedgerEntry, ProjectionState
from stichbuch import db

_table, _col = db.table, db.column


@functools.cache
def _booked_sql() -> str:
    player, amount, game = (_col(LedgerEntry, name) for name in ("player", "amount", "game"))
    return (
        f"SELECT {player}, SUM({amount}) FROM {_table(LedgerEntry)} "
        f"WHERE {game} = %s GROUP BY {player} ORDER BY {player}"
    )


def booked_amounts(*, game_id: int) -> dict[int, int]:
    """What the ledger holds for the game: {player pk: sum of its entries}, zeros left out."""
    rows = db.execute(connection, _booked_sql(), [game_id], fetch=True)
    # SQLite may hand a SUM back as any integer kind; amounts are whole numbers.
    return {player_id: int(total) for player_id, total in rows if total}


# The columns an entry of a game is written with (a payment's entries go through the ORM).
_ENTRY_FIELDS = ("club", "season", "evening", "game", "player", "amount", "kind", "created_at")


@functools.cache
def _entries_insert_sql(count: int) -> str:
    columns = ", ".join(_col(LedgerEntry, name) for name in _ENTRY_FIELDS)
    row = "(" + ", ".join(["%s"] * len(_ENTRY_FIELDS)) + ")"
    return f"INSERT INTO {_table(LedgerEntry)} ({columns}) VALUES {', '.join([row] * count)}"


def entries_insert(entries: Sequence[LedgerEntry]) -> None:
    """Insert a game's new entries in one statement, as ``bulk_create`` would (their
    ``pk`` stays unset). Each entry names its club, season, evening, game and player by
    id and has no payment."""
    if not entries:
        return
    params: list[Any] = []
    for entry in entries:
        if entry.payment_id is not None:
            raise ValueError("a payment's entries are booked through the ORM")
        params += [
            entry.club_id,
            entry.season_id,
            entry.evening_id,
            entry.game_id,
            entry.player_id,
            entry.amount,
            entry.kind,
            connection.ops.adapt_datetimefield_value(entry.created_at),
        ]
    db.execute(connection, _entries_insert_sql(len(entries)), params)


@functools.cache
def _version_bump_sql() -> str:
    version = _col(ProjectionState, "version")
    return (
        f"UPDATE {_table(ProjectionState)} SET {version} = {version} + 1 "
        f"WHERE {_col(ProjectionState, 'season')} = %s"
    )


def version_bump(*, season_id: int) -> bool:
    """Add one to the season's projection version; False if the season has no
    ``ProjectionState`` row yet (nothing was changed)."""
    if connection.vendor == "postgresql":
        # Prepared, and the row it changed says whether there was one.
        statement = f"{_version_bump_sql()} RETURNING {_col(ProjectionState, 'id')}"
        return bool(db.execute(connection, statement, [season_id], fetch=True))
    # SQLite before 3.35 has no RETURNING: the cursor's row count says it.
    with connection.cursor() as cursor:
        cursor.execute(_version_bump_sql(), [season_id])
        return cursor.rowcount > 0
