"""The games app's one seam upwards (``games.listeners``): the apps above register their
listeners in ``AppConfig.ready``, and the games services tell them in their transaction."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pytest

from games import listeners, services
from games.listeners import GamesListener, LockedGame
from games.models import Game, GameEvent
from ledger.listeners import LedgerListener
from ledger.models import LedgerEntry
from live.listeners import LiveListener
from tests.games import records

pytestmark = pytest.mark.django_db


class Heard(GamesListener):
    """Writes down what it is told."""

    def __init__(self) -> None:
        self.changes: list[tuple[int, str, str]] = []
        self.evenings: list[int] = []

    def game_changed(
        self, *, locked: LockedGame, previous_status: str, club_players: Collection[int]
    ) -> None:
        self.changes.append((locked.game.pk, previous_status, locked.game.status))

    def evening_changed(self, *, evening_id: int) -> None:
        self.evenings.append(evening_id)


class Refuses(GamesListener):
    def game_changed(self, **kwargs: Any) -> None:
        raise RuntimeError("the listener refused")


def test_the_ledger_and_the_live_views_listen_in_the_order_of_the_installed_apps() -> None:
    kinds = [type(listener) for listener in listeners.registered()]
    assert kinds.index(LedgerListener) < kinds.index(LiveListener)


def test_a_game_recorded_with_no_app_listening_is_stored_and_books_no_money(
    dealt_game: Game, as_ids: Any
) -> None:
    with listeners.only():
        game = services.game_events_append(
            game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA)
        ).game
    assert game.status == Game.Status.FINISHED
    assert GameEvent.objects.filter(game=game).count() == 8
    assert not LedgerEntry.objects.filter(game=game).exists()


def test_a_listener_hears_each_append_with_the_status_before_and_after(
    dealt_game: Game, as_ids: Any
) -> None:
    heard = Heard()
    with listeners.only(heard):
        services.game_events_append(
            game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA[:2])
        )
        services.game_events_append(
            game=dealt_game, user=None, expected_seq=3, events=as_ids(records.NO_KONTRA[2:])
        )
    assert heard.changes == [
        (dealt_game.pk, "in_progress", "in_progress"),
        (dealt_game.pk, "in_progress", "finished"),
    ]
    assert heard.evenings == [dealt_game.evening_id] * 2


def test_a_listener_that_raises_rolls_the_whole_append_back(dealt_game: Game, as_ids: Any) -> None:
    with (
        listeners.only(*listeners.registered(), Refuses()),
        pytest.raises(RuntimeError, match="refused"),
    ):
        services.game_events_append(
            game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA)
        )
    assert GameEvent.objects.filter(game=dealt_game).count() == 1
    assert not LedgerEntry.objects.filter(game=dealt_game).exists()
