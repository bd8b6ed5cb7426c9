"""The ledger's listener to the games app (``games.listeners``, the one seam upwards).

Registered in ``LedgerConfig.ready``. It books a game's money in the transaction
that records the game: a game that ends, is taken back into play, is annulled or
is changed after its end is synced (``ledger_sync_locked_game``); an import's
games are booked in bulk (``ledger_book_new_games``), and the projections an
import asks for are asked for once, after it (``projection_requests_deferred``).
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Collection, Sequence

from games.listeners import GamesListener, LockedGame
from games.models import Evening, Game
from ledger.services import (
    ledger_book_new_games,
    ledger_sync_locked_game,
    projection_requests_deferred,
)


class LedgerListener(GamesListener):
    """Books games' money as the games app records them."""

    def game_changed(
        self, *, locked: LockedGame, previous_status: str, club_players: Collection[int]
    ) -> None:
        # A game in play before and after holds no money: nothing to compare.
        status = locked.game.status
        if previous_status == status == Game.Status.IN_PROGRESS:
            return
        ledger_sync_locked_game(
            locked=locked,
            club_players=club_players,
            record_changed=previous_status == status == Game.Status.FINISHED,
        )

    def games_added(
        self,
        *,
        evening: Evening,
        games: Sequence[tuple[Game, datetime.datetime]],
        club_players: Collection[int],
    ) -> None:
        ledger_book_new_games(evening=evening, games=games, club_players=club_players)

    def bulk(self) -> contextlib.AbstractContextManager[None]:
        return projection_requests_deferred()
