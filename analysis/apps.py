from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    """The analysis of played deals ("Analyse"): stored per game, shown on its page.

    Depends on ``games`` and ``clubs``; neither of them imports it. The analysis is
    asked for by the one hook in ``ledger.services`` that runs whenever a game's
    result or finished record changes (``_game_changed``).
    """

    name = "analysis"
    verbose_name = _("Analysis")
    default_auto_field = "django.db.models.BigAutoField"
