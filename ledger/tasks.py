"""Celery tasks of the ledger: thin adapters that take ids and call a service.

- ``project_season(season_id)``: apply the season's pending changes to its
  projections, game by game (``ledger.services.season_projections_recompute``);
  enqueued on commit by ``ledger.services.projection_request`` whenever a game
  of the season finishes, is taken back or annulled. A burst of games (an
  import) is taken in by the first run; the others find nothing left.
- ``repair_projections()`` (beat, every few minutes): recompute every season
  whose projections are behind its version — whatever a dead broker, a lost
  worker or a failed run left out.
- ``close_expired_seasons()`` (beat, daily): close open seasons past their end.

Every task is idempotent (each pending change is applied and deleted in one
transaction), so ``acks_late`` redelivery and retries are harmless.
"""

from __future__ import annotations

import logging
from typing import Any

import kombu.pools
from celery import Task, shared_task
from django.db import DatabaseError
from django.utils import timezone

from clubs.models import Season
from ledger import selectors
from ledger.services.season_projections import season_projections_recompute

logger = logging.getLogger(__name__)


def send_quietly(task: Task[Any, Any], *args: Any) -> bool:
    """Enqueue ``task(*args)``; on any failure log it and return False, never raise.

    Used from on-commit hooks, after the money is safely committed: a dead
    broker must not turn a recorded game into an error page. Celery's own
    publish would retry the connection for seconds while the request waits,
    so the connection is checked first with one quick attempt, which a dead
    broker refuses at once. With no broker configured (eager mode) the task runs
    here, and its failure is logged the same way; the periodic repair catches
    up either way. Returns True when the task was handed over (or ran).
    """
    try:
        if task.app.conf.task_always_eager:
            task.apply_async(args=args)
            return True
        # A pooled connection, reused from one finished game to the next rather than
        # a connection opened per game. A link that failed is dropped, not pooled
        # again, so the next game after an outage connects afresh. kombu keys its
        # pools by the broker's address, so a changed broker URL (tests do it) gets
        # a pool of its own rather than the old broker's links.
        pool = kombu.pools.connections[task.app.connection_for_write()]
        with pool.acquire(block=True, timeout=2) as connection:
            try:
                connection.ensure_connection(
                    max_retries=1, interval_start=0, interval_step=0, timeout=2
                )
                task.apply_async(args=args, producer=connection.Producer(), retry=False)
            except Exception:
                connection.collect()
                raise
        return True
    except Exception:
        logger.warning(
            "could not run or enqueue %s%r; the periodic repair will catch up",
            task.name,
            args,
            exc_info=True,
        )
        return False


@shared_task(
    name="ledger.project_season",
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def project_season(season_id: int) -> int | None:
    """Bring one season's projections up to date; returns the version they include."""
    if not Season.objects.filter(pk=season_id).exists():
        logger.info("season %s is gone; nothing to project", season_id)
        return None
    state = season_projections_recompute(season_id=season_id)
    return state.computed_from


@shared_task(name="ledger.repair_projections")
def repair_projections() -> list[int]:
    """Recompute every season whose projections are behind; returns their ids.

    Runs them here, one after the other, rather than enqueueing: a repair must
    not depend on the queue it repairs after. One failing season is logged and
    does not stop the others.
    """
    repaired: list[int] = []
    for season_id in list(selectors.seasons_behind().values_list("season_id", flat=True)):
        try:
            season_projections_recompute(season_id=season_id)
        except Exception:
            logger.exception("repairing the projections of season %s failed", season_id)
            continue
        repaired.append(season_id)
    if repaired:
        logger.info("repaired the projections of seasons %s", repaired)
    return repaired


@shared_task(name="ledger.close_expired_seasons")
def close_expired_seasons() -> list[int]:
    """Close every open season whose end date has passed in its club's time zone."""
    from clubs.services import season_close  # the clubs app's own write

    closed: list[int] = []
    candidates = Season.objects.filter(
        status=Season.Status.OPEN, end__isnull=False, end__lte=timezone.now().date()
    ).select_related("club")
    # A local date is at most one day ahead of UTC: end <= UTC today is a superset;
    # the club's own date decides.
    for season in candidates:
        assert season.end is not None
        if season.end >= timezone.localdate(timezone=season.club.zone):
            continue
        try:
            season_close(season=season)
        except Exception:
            # Closed meanwhile by an admin, or invalid: not this task's business to force.
            logger.info("season %s was not closed", season.pk, exc_info=True)
            continue
        closed.append(season.pk)
    return closed
