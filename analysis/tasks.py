"""Celery task of the analysis: a thin adapter that takes a game id and calls the service.

``analyse_game(game_id)`` is enqueued on commit by ``analysis.services.analysis_request``
whenever a game finishes or its finished record changes. Idempotent: a game whose
stored analysis is at its current seq is not analysed again, so ``acks_late``
redelivery and retries are harmless. With no broker it runs in-process.

``repair_analyses()`` (beat, every few minutes): enqueue the games left without a
current analysis (a broker that was down when they finished, a lost worker), a
batch at a time. Both are routed to the queue ``analysis``
(``CELERY_TASK_ROUTES``): a worker of its own, so that analyses, seconds each,
never hold up the standings' projections.
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.db import DatabaseError
from django.utils import timezone

from analysis import selectors, services

# Games enqueued per repair run: a backlog is worked off over several runs.
REPAIR_BATCH = 200
# The repair looks at the games finished this recently (a broker outage, a lost worker);
# older games without an analysis (the history before the analysis existed) are
# ``manage.py rebuild_analyses``' work.
REPAIR_WINDOW = timedelta(days=2)


@shared_task(
    name="analysis.analyse_game",
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def analyse_game(game_id: int, force: bool = False) -> str | None:
    """Analyse one game at its last seq (``force``: again, even if it is analysed);
    returns the stored status (None: nothing stored)."""
    row = services.game_analyse(game_id=game_id, force=force)
    return str(row.status) if row is not None else None


@shared_task(name="analysis.repair_analyses")
def repair_analyses() -> list[int]:
    """Enqueue the analysis of up to ``REPAIR_BATCH`` games finished within
    ``REPAIR_WINDOW`` whose analysis is missing or out of date (a stale claim
    included); returns their ids."""
    from ledger.tasks import send_quietly

    since = timezone.now() - REPAIR_WINDOW
    behind = selectors.games_behind(fresh_claims=False, finished_since=since)[:REPAIR_BATCH]
    for game_id in behind:
        send_quietly(analyse_game, game_id)
    return behind
