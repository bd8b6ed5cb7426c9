"""Projections catch up as soon as the broker is back, not at the next periodic repair.

While the broker is down, finishing a game books its money (same transaction)
but cannot enqueue the projection: the season stays *behind*. Three things make
the catch-up prompt once the broker returns:

* ``CatchUpOnConnect``, a worker consumer step: every time a worker (re)connects
  to the broker it sends one ``stichbuch.catch_up_projections``.
* ``Consumer``: the worker retries a lost broker connection every few seconds
  (``WORKER_RECONNECT_MAX_SECONDS``) rather than kombu's 30, and forever.
* beat runs the same task every ``PROJECTION_REPAIR_SECONDS`` (settings).

``catch_up_projections`` runs the ledger's own ``ledger.repair_projections``
(called by name: this module knows nothing of how projections are computed)
under a lock in the shared cache, so several workers reconnecting at once, and
beat, repair a season once, not once each; the repair itself only touches
seasons that are behind, and the service skips a season already up to date.
"""

from __future__ import annotations

import functools
import logging
import uuid
from typing import Any

from celery import bootsteps, current_app, shared_task
from celery.worker.consumer import Consumer as CeleryConsumer
from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)

LOCK_KEY = "stichbuch:catch-up-projections"
TASK_NAME = "stichbuch.catch_up_projections"


@shared_task(name=TASK_NAME, ignore_result=True)
def catch_up_projections() -> list[int] | None:
    """Repair the seasons that are behind, unless a catch-up is running already.

    Returns the repaired season ids, or ``None`` when another run held the lock."""
    token = uuid.uuid4().hex
    # The lock outlives no run: a worker killed mid-repair frees it after the hard limit.
    if not cache.add(LOCK_KEY, token, timeout=settings.CELERY_TASK_TIME_LIMIT):
        logger.info("a catch-up of the projections is running already")
        return None
    try:
        repaired: list[int] = current_app.tasks["ledger.repair_projections"]()
        return repaired
    finally:
        if cache.get(LOCK_KEY) == token:
            cache.delete(LOCK_KEY)


class CatchUpOnConnect(bootsteps.StartStopStep):
    """Consumer step: started on the first connection and again after every reconnect."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, parent: Any) -> None:
        try:
            parent.app.send_task(TASK_NAME)
        except Exception:  # the broker went away again: the next connect sends it
            logger.warning("could not send the projection catch-up", exc_info=True)


class Consumer(CeleryConsumer):
    """Celery's consumer, reconnecting to a lost broker within a few seconds."""

    def ensure_connected(self, conn: Any) -> Any:
        ceiling = settings.WORKER_RECONNECT_MAX_SECONDS
        conn.ensure_connection = functools.partial(
            conn.ensure_connection, interval_start=1, interval_step=1, interval_max=ceiling
        )
        return super().ensure_connected(conn)
