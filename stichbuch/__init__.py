"""Stichbuch's configuration: settings, URLs, the Celery app, WSGI/ASGI entry points."""

from __future__ import annotations

# Imported here so that ``@shared_task`` binds to this app whenever Django starts.
from stichbuch.celery import app as celery_app

__all__ = ["celery_app"]
