"""Recording events: the service replays the stored events plus the new ones."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Player
from games import services
from games.errors import EngineRejected, EveningClosed, StaleSequence
from games.models import Game, GameEvent
from tests.games import records

pytestmark = pytest.mark.django_db


def test_a_deal_is_the_first_event_of_a_started_game(dealt_game: Game) -> None:
    assert dealt_game.last_seq == 1
    assert dealt_game.status == Game.Status.IN_PROGRESS
    assert list(dealt_game.events.values_list("seq", "type")) == [(1, "deal")]
    assert dealt_game.result["awaiting"] == "call"


def test_appended_events_get_consecutive_seqs_and_finish_the_game(
    dealt_game: Game, as_ids: Any, players: dict[str, Player]
) -> None:
    game = services.game_events_append(
        game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA)
    ).game
    assert game.last_seq == 8
    assert list(game.events.values_list("seq", flat=True)) == list(range(1, 9))
    assert game.status == Game.Status.FINISHED
    assert game.finished_at is not None
    expected = {str(players[n].pk): v for n, v in records.NO_KONTRA_PAYOUTS.items()}
    assert game.result["payouts"] == expected
    game.refresh_from_db()
    assert game.result["payouts"] == expected


def test_it_refuses_an_append_on_a_stale_seq_and_names_the_current_one(
    dealt_game: Game, as_ids: Any
) -> None:
    services.game_events_append(
        game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA[:1])
    )
    with pytest.raises(StaleSequence) as caught:
        services.game_events_append(
            game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA[1:2])
        )
    assert caught.value.current_seq == 2
    assert GameEvent.objects.filter(game=dealt_game).count() == 2


def test_an_illegal_event_is_rejected_with_the_engines_index_and_nothing_is_written(
    dealt_game: Game, as_ids: Any
) -> None:
    with pytest.raises(EngineRejected) as caught:
        services.game_events_append(
            game=dealt_game, user=None, expected_seq=1, events=as_ids(records.ILLEGAL_PLAY)
        )
    assert caught.value.error["index"] == 3
    assert caught.value.error["code"] == "card_not_in_hand"
    assert caught.value.event_offset == 1
    dealt_game.refresh_from_db()
    assert dealt_game.last_seq == 1
    assert GameEvent.objects.filter(game=dealt_game).count() == 1


def test_an_undo_is_recorded_as_an_event_and_takes_the_last_one_back(
    dealt_game: Game, as_ids: Any
) -> None:
    game = services.game_events_append(
        game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA)
    ).game
    assert game.status == Game.Status.FINISHED
    game = services.game_events_append(
        game=game, user=None, expected_seq=8, events=[{"type": "undo"}]
    ).game
    assert game.status == Game.Status.IN_PROGRESS
    assert game.finished_at is None
    assert game.result["awaiting"] == "raise_or_end"
    assert list(game.events.values_list("type", flat=True))[-2:] == ["end_raising", "undo"]
    game = services.game_events_append(
        game=game, user=None, expected_seq=9, events=[{"type": "end_raising"}]
    ).game
    assert game.status == Game.Status.FINISHED
    assert game.last_seq == 10


def test_an_annulment_is_recorded_as_an_event_and_voids_the_game(
    dealt_game: Game, as_ids: Any
) -> None:
    game = services.game_events_append(
        game=dealt_game,
        user=None,
        expected_seq=1,
        events=[*as_ids(records.NO_KONTRA[:3]), {"type": "annul", "reason": "misdeal"}],
    ).game
    assert game.status == Game.Status.ANNULLED
    assert game.result == {"status": "annulled", "game": "fuchsen"}
    assert game.finished_at is not None


def test_it_records_nothing_in_a_closed_evening(dealt_game: Game, as_ids: Any) -> None:
    services.evening_close(evening=dealt_game.evening)
    with pytest.raises(EveningClosed):
        services.game_events_append(
            game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA)
        )
    assert GameEvent.objects.filter(game=dealt_game).count() == 1
