from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    """The analysis of played deals ("Analyse"): stored per game, shown on its page.

    Depends on ``games``, ``clubs`` and ``ledger`` (its broker helper); none of them
    imports it. The analysis is asked for by its listener to the games app
    (``analysis.listeners``, registered below) whenever a game's result or finished
    record changes.
    """

    name = "analysis"
    verbose_name = _("Analysis")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The one seam upwards from the games app (``games.listeners``).
        from analysis.listeners import AnalysisListener
        from games import listeners

        listeners.register(AnalysisListener())
