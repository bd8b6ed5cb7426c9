"""A closed season keeps its figures: closing it closes its open evenings, and no game,
evening or reopen changes it afterwards (issue 38, point 6)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubs import services as club_services
from clubs.models import Club
from games import services
from games.errors import EveningClosed
from games.models import Evening, Game
from live.models import EveningChange
from tests.conftest import PersonaClient
from tests.games.factories import seated_evening
from tests.reliability.helpers import make_table, money_by_player

pytestmark = pytest.mark.django_db


def test_a_game_finished_after_the_season_closed_is_refused_and_changes_no_balance() -> None:
    table = make_table()
    record = table.record(seed=7)
    game = table.start(record)
    before = money_by_player(table.club)
    club_services.season_close(season=table.evening.season)
    table.evening.refresh_from_db()
    assert table.evening.status == Evening.Status.CLOSED
    with pytest.raises(EveningClosed):
        services.game_events_append(
            game=game, user=None, expected_seq=1, events=record["events"][1:]
        )
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS  # left in progress, as at an evening's close
    assert money_by_player(table.club) == before


def test_closing_a_season_puts_each_evening_close_on_its_change_log() -> None:
    table = make_table()
    club_services.season_close(season=table.evening.season)
    assert list(
        EveningChange.objects.filter(evening=table.evening).values_list("kind", flat=True)
    ) == ["closed"]


def test_no_evening_opens_in_a_closed_season() -> None:
    table = make_table()
    season = club_services.season_close(season=table.evening.season)
    players = [p.pk for p in list(table.players.values())[:5]]
    with pytest.raises(ValidationError) as refused:
        services.evening_create(club=table.club, user=None, season=season, players=players)
    assert "season" in refused.value.message_dict


def test_the_api_answers_409_to_an_append_in_a_closed_season(
    club: Club, scorer: PersonaClient, admin: PersonaClient
) -> None:
    evening = seated_evening(club, ("Anna", "Bert", "Carl", "Dora", "Emil"))
    started = scorer.post(f"/api/evenings/{evening.pk}/games/", {})
    assert started.status_code == 201
    season = evening.season
    closed = admin.post(f"/api/clubs/{evening.club.slug}/seasons/{season.pk}/close/", {})
    assert closed.status_code == 200, closed.content
    again = scorer.post(f"/api/evenings/{evening.pk}/games/", {})
    assert again.status_code == 409 and again.json()["detail"]
