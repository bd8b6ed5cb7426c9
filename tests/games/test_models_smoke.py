from __future__ import annotations

import pytest

from games.models import AppendOnlyError, Evening, Game, GameEvent
from tests.factories import ClubFactory, SeasonFactory, UserFactory

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
    user.delete()
    event = GameEvent.objects.get(pk=event.pk)
    assert event.recorded_by is None
    assert event.as_event() == {"type": "annul"}
