"""The games' facts (``engine.game_facts``) for the projections, cached in
``GameFacts`` at each game's last seq: a game is replayed for its facts once, when it
finished or changed, not on every run of its season's projections."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

import engine
from ledger import projections, selectors
from ledger.models import GameFacts
from stichbuch.sql import rows_insert

logger = logging.getLogger(__name__)


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
