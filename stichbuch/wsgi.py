"""WSGI entry point: ``gunicorn stichbuch.wsgi``."""

from __future__ import annotations

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stichbuch.settings")

application = get_wsgi_application()


def _warm_and_freeze() -> None:
    """Load what the first requests would load, then take it out of the collector's sight.

    A full (oldest-generation) garbage collection walks every object the process
    holds: with Django, DRF, Celery and the engine's tables loaded that is a pause
    during which the worker answers nobody, and it was the recording API's latency
    tail (``bench/pauses.py``).
    The URLconf (every view module) and both languages' catalogues are loaded
    here, then ``gc.freeze()`` moves everything alive into the permanent
    generation, which collections skip: the code and tables of a long-running
    process are never garbage. What requests create is collected as before.

    The broker's transport is resolved here too (imports only, no connection:
    the broker may be down): else the first finished game of a worker would wait
    for those imports.
    """
    from django.conf import settings
    from django.urls import get_resolver
    from django.utils import translation

    from stichbuch.celery import app as celery_app

    get_resolver().url_patterns  # noqa: B018 - imports every view module
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("German")
    if not celery_app.conf.task_always_eager:
        celery_app.connection_for_write().transport  # noqa: B018 - imports, connects nothing
    gc.collect()
    gc.freeze()


_warm_and_freeze()
