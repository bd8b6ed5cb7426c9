from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = _("At the table")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The one seam upwards from the games app (``games.listeners``).
        from games import listeners
        from live.listeners import LiveListener

        listeners.register(LiveListener())
