"""Opening a closed evening again: for a game typed in afterwards, or a close by
mistake. Admins and up, not in a closed season, exactly once."""

from __future__ import annotations

import pytest

from clubs import services as club_services
from clubs.models import Club
from games import services
from games.errors import EveningClosed, EveningOpen
from games.models import Evening, Game
from tests.conftest import PersonaClient


def test_a_reopened_evening_records_games_again(evening: Evening) -> None:
    services.evening_close(evening=evening)
    reopened = services.evening_reopen(evening=evening)
    assert reopened.is_open and reopened.closed_at is None
    game = services.game_start(evening=reopened, user=None)
    assert Game.objects.get(pk=game.pk).evening_id == evening.pk


def test_an_open_evening_is_not_opened_again(evening: Evening) -> None:
    with pytest.raises(EveningOpen):
        services.evening_reopen(evening=evening)
    services.evening_close(evening=evening)
    services.evening_reopen(evening=evening)
    with pytest.raises(EveningOpen):  # a second tap (or a second admin) changes nothing
        services.evening_reopen(evening=evening)


def test_an_evening_of_a_closed_season_stays_closed(evening: Evening) -> None:
    services.evening_close(evening=evening)
    club_services.season_close(season=evening.season)
    with pytest.raises(EveningClosed) as refused:
        services.evening_reopen(evening=evening)
    assert evening.season.name in refused.value.message
    evening.refresh_from_db()
    assert not evening.is_open


def test_the_api_lets_admins_reopen_and_answers_409_when_there_is_nothing_to_do(
    evening: Evening, admin: PersonaClient, scorer: PersonaClient
) -> None:
    url = f"/api/evenings/{evening.pk}/reopen/"
    open_already = admin.post(url)
    assert open_already.status_code == 409 and open_already.json()["detail"]
    assert scorer.post(f"/api/evenings/{evening.pk}/close/").status_code == 200
    assert scorer.post(url).status_code == 403  # a scorer closes, an admin reopens
    reopened = admin.post(url)
    assert reopened.status_code == 200 and reopened.json()["status"] == "open"
    assert scorer.post(f"/api/evenings/{evening.pk}/games/", {}).status_code == 201


def test_the_evening_page_offers_admins_to_reopen_a_closed_evening(
    evening: Evening, admin: PersonaClient, scorer: PersonaClient
) -> None:
    page = f"/evenings/{evening.pk}/"
    assert 'id="reopen-evening"' not in admin.get(page).content.decode()  # open: nothing
    scorer.post(f"/evenings/{evening.pk}/close/", {}, format="multipart")
    assert 'id="reopen-evening"' in admin.get(page).content.decode()
    assert 'id="reopen-evening"' not in scorer.get(page).content.decode()
    answer = admin.post(f"/evenings/{evening.pk}/reopen/", {}, format="multipart", follow=True)
    assert "wieder offen" in answer.content.decode()
    evening.refresh_from_db()
    assert evening.is_open
    again = admin.post(f"/evenings/{evening.pk}/reopen/", {}, format="multipart", follow=True)
    assert "Dieser Spielabend ist offen." in again.content.decode()


def test_the_page_offers_no_reopen_in_a_closed_season(
    club: Club, evening: Evening, admin: PersonaClient
) -> None:
    services.evening_close(evening=evening)
    club_services.season_close(season=evening.season)
    html = admin.get(f"/evenings/{evening.pk}/").content.decode()
    assert 'id="reopen-evening"' not in html
