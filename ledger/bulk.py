"""Writing many ``PlayerGame`` rows at once, past the ORM's per-row cost.

A rebuild writes one row per player and game: half a million rows for a
100,000-game club. Through ``bulk_create`` most of the rebuild's CPU went to
building model instances and preparing each field's value (profiled: about
six of every ten seconds), so the rows are written here as plain tuples:
PostgreSQL's ``COPY`` (psycopg's ``cursor.copy``), one ``executemany`` on
SQLite. Column names come from the model's ``_meta``; runs inside the caller's
transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import connection

from ledger.models import PlayerGame
from ledger.projections import PLAYER_GAME_FIELDS


def _column(attname: str) -> str:
    # ``get_field`` knows a foreign key by its attname ("game_id") too.
    return str(PlayerGame._meta.get_field(attname).column)  # type: ignore[union-attr]


def player_games_insert(*, season_id: int, rows: Iterable[Mapping[str, Any]]) -> None:
    """Insert the ``PlayerGame`` rows (each a dict of ``PLAYER_GAME_FIELDS``) of the season."""
    table = connection.ops.quote_name(PlayerGame._meta.db_table)
    names = [_column("season_id"), *(_column(f) for f in PLAYER_GAME_FIELDS)]
    columns = ", ".join(connection.ops.quote_name(n) for n in names)
    played_at = PLAYER_GAME_FIELDS.index("played_at")
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row((season_id, *(row[f] for f in PLAYER_GAME_FIELDS)))
            return
        values = []
        for row in rows:
            value = [row[f] for f in PLAYER_GAME_FIELDS]
            value[played_at] = connection.ops.adapt_datetimefield_value(value[played_at])
            values.append((season_id, *value))
        if values:
            marks = ", ".join(["%s"] * len(names))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", values)
