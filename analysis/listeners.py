"""The analysis's listener to the games app (``games.listeners``, the one seam upwards).

Registered in ``AnalysisConfig.ready``: a game that ended, was changed after its end,
went back into play or was annulled has its analysis asked for on commit
(``analysis_request``, which drops what no longer stands); an import's games are
asked for together.
"""

from __future__ import annotations

import datetime
from collections.abc import Collection, Sequence

from analysis.services import analysis_request
from games.listeners import GamesListener, LockedGame
from games.models import Evening, Game


class AnalysisListener(GamesListener):
    """Asks for a game's analysis whenever its finished record changes."""

    def game_changed(
        self, *, locked: LockedGame, previous_status: str, club_players: Collection[int]
    ) -> None:
        # A game in play before and after has nothing to analyse yet.
        if previous_status == locked.game.status == Game.Status.IN_PROGRESS:
            return
        analysis_request(game_ids=[locked.game.pk])

    def games_added(
        self,
        *,
        evening: Evening,
        games: Sequence[tuple[Game, datetime.datetime]],
        club_players: Collection[int],
    ) -> None:
        analysis_request(game_ids=[game.pk for game, _at in games])
