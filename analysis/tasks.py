"""Celery task of the analysis: a thin adapter that takes a game id and calls the service.

``analyse_game(game_id)`` is enqueued on commit by ``analysis.services.analysis_request``
whenever a game finishes or its finished record changes. Idempotent: a game whose
stored analysis is at its current seq is not analysed again, so ``acks_late``
redelivery and retries are harmless. With no broker it runs in-process.
"""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from analysis import services


@shared_task(
    name="analysis.analyse_game",
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def analyse_game(game_id: int) -> str | None:
    """Analyse one game at its last seq; returns the stored status (None: nothing stored)."""
    row = services.game_analyse(game_id=game_id)
    return str(row.status) if row is not None else None
