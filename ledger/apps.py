from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = _("Ledger")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The one seam upwards from the games app (``games.listeners``).
        from games import listeners
        from ledger.listeners import LedgerListener

        listeners.register(LedgerListener())
