"""Writing many ``PlayerGame`` rows at once, past the ORM's per-row cost.

A rebuild writes one row per player and game: half a million rows for a
100,000-game club. Through ``bulk_create`` most of the rebuild's CPU went to
building model instances and preparing each field's value (profiled: about
six of every ten seconds), so the rows are written as plain tuples
(``stichbuch.sql.rows_insert``: PostgreSQL's ``COPY``, one ``executemany`` on
SQLite); runs inside the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ledger.models import PlayerGame
from ledger.projections import PLAYER_GAME_FIELDS
from stichbuch.sql import rows_insert


def player_games_insert(*, season_id: int, rows: Iterable[Sequence[Any]]) -> None:
    """Insert the ``PlayerGame`` rows (each a tuple of ``PLAYER_GAME_FIELDS``' values)
    of the season."""
    rows_insert(
        model=PlayerGame,
        fields=["season_id", *PLAYER_GAME_FIELDS],
        rows=((season_id, *row) for row in rows),
    )
