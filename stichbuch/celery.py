"""The Celery application: ``celery -A stichbuch worker`` / ``celery -A stichbuch beat``.

Its configuration lives in the Django settings under the ``CELERY_`` prefix.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stichbuch.settings")

app = Celery("stichbuch")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Catch up on projections as soon as a worker (re)connects to the broker.
from stichbuch.catch_up import CatchUpOnConnect  # noqa: E402

app.steps["consumer"].add(CatchUpOnConnect)
