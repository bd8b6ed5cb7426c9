"""The games app's listener to the clubs app (``clubs.listeners``): a season that closes
closes its open evenings. Registered in ``GamesConfig.ready``."""

from __future__ import annotations

from typing import Any

from clubs.listeners import ClubsListener
from clubs.models import Season
from games.services.evenings import season_evenings_close


class SeasonEvenings(ClubsListener):
    """Closes a closing season's open evenings."""

    def season_closing(self, *, season: Season, user: Any) -> None:
        season_evenings_close(season=season, user=user)
