"""Asking for a season's projections to be recomputed: on commit, or deferred to the batch's end."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction
from django.db.models import F

from ledger.models import (
    ProjectionState,
)

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
