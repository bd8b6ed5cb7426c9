"""The event store: append-only rows, upcast on read, the ledger booked in the same transaction."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Sum

from clubs.models import Player
from games import events as event_schema
from games import services
from games.errors import EngineRejected
from games.models import Evening, Game, GameEvent
from ledger.models import LedgerEntry
from stichbuch.append_only import AppendOnlyError
from tests.factories import ClubFactory, SeasonFactory, UserFactory
from tests.games import records

pytestmark = pytest.mark.django_db


def test_a_stored_event_can_be_neither_changed_nor_deleted() -> None:
    club = ClubFactory.create()
    season = SeasonFactory.create(club=club)
    user = UserFactory.create()
    evening = Evening.objects.create(
        club=club, season=season, game_kind="fuchsen", date=season.start
    )
    game = Game.objects.create(evening=evening, number=1, game_kind="fuchsen")
    event = GameEvent.objects.create(game=game, seq=1, type="annul", payload={}, recorded_by=user)
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        GameEvent.objects.filter(pk=event.pk).update(type="undo")
    with pytest.raises(AppendOnlyError):
        GameEvent.objects.filter(pk=event.pk).delete()
    # A user may still leave: his events stay, without the name of who recorded them.
    user.delete()
    event = GameEvent.objects.get(pk=event.pk)
    assert event.recorded_by is None
    assert event.as_event() == {"type": "annul"}


def test_an_old_payload_is_upcast_when_read(
    monkeypatch: pytest.MonkeyPatch, dealt_game: Game
) -> None:
    # Pretend version 2 renamed "card" to "c" in calls: a v1 row reads as v2.
    def v1_to_v2(event_type: str, payload: dict[str, Any]) -> dict[str, Any]:
        if event_type == "call" and "card" in payload:
            payload = {**{k: v for k, v in payload.items() if k != "card"}, "c": payload["card"]}
        return payload

    monkeypatch.setattr(event_schema, "CURRENT_SCHEMA_VERSION", 2)
    monkeypatch.setitem(event_schema.UPCASTERS, 1, v1_to_v2)
    old = GameEvent.objects.create(
        game=dealt_game, seq=2, type="call", payload={"player": "7", "card": "E10"}
    )
    assert old.schema_version == 1
    assert old.as_event() == {"type": "call", "player": "7", "c": "E10"}
    assert GameEvent.objects.get(pk=old.pk).payload == {"player": "7", "card": "E10"}


def test_finishing_a_game_books_its_payouts_in_the_ledger(
    dealt_game: Game, as_ids: Any, players: dict[str, Player]
) -> None:
    assert not LedgerEntry.objects.filter(game=dealt_game).exists()
    services.game_events_append(
        game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA)
    )
    booked = dict(
        LedgerEntry.objects.filter(game=dealt_game)
        .values_list("player_id")
        .annotate(total=Sum("amount"))
    )
    assert booked == {players[n].pk: v for n, v in records.NO_KONTRA_PAYOUTS.items()}


def test_an_undo_after_the_finish_takes_the_booking_back(dealt_game: Game, as_ids: Any) -> None:
    game = services.game_events_append(
        game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA)
    ).game
    services.game_events_append(game=game, user=None, expected_seq=8, events=[{"type": "undo"}])
    totals = LedgerEntry.objects.filter(game=game).values("player_id").annotate(t=Sum("amount"))
    assert {row["t"] for row in totals} == {0}


def test_a_rejected_append_books_nothing(dealt_game: Game, as_ids: Any) -> None:
    with pytest.raises(EngineRejected):
        services.game_events_append(
            game=dealt_game,
            user=None,
            expected_seq=1,
            events=[*as_ids(records.NO_KONTRA), {"type": "jump"}],
        )
    assert not LedgerEntry.objects.filter(game=dealt_game).exists()
