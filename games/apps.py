from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The clubs app's seam upwards (``clubs.listeners``).
        from clubs import listeners
        from games.club_listeners import SeasonEvenings

        listeners.register(SeasonEvenings())
