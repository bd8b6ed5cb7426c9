"""Opening a closed season again: for a season closed by mistake or a late evening.
Admins only, once, and never beside another open season of the same game."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from clubs import services
from clubs.models import Club, GameKind, Season
from tests.conftest import PersonaClient
from tests.factories import SeasonFactory


def _closed(club: Club, game_kind: str = GameKind.KOENIGRUFEN) -> Season:
    season = SeasonFactory.create(club=club, game_kind=game_kind)
    return services.season_close(season=season)


def test_a_reopened_season_goes_on_without_an_end(club: Club) -> None:
    season = _closed(club)
    assert season.end is not None
    reopened = services.season_reopen(season=season)
    assert reopened.is_open and reopened.end is None and reopened.closed_at is None


def test_an_open_season_is_not_opened_again(club: Club) -> None:
    season = SeasonFactory.create(club=club, game_kind=GameKind.KOENIGRUFEN)
    with pytest.raises(ValidationError):
        services.season_reopen(season=season)


def test_a_season_stays_closed_while_another_of_its_game_is_open(club: Club) -> None:
    season = _closed(club)
    SeasonFactory.create(club=club, game_kind=GameKind.KOENIGRUFEN, name="Neu")
    with translation.override("en"), pytest.raises(ValidationError, match="close it"):
        services.season_reopen(season=season)
    season.refresh_from_db()
    assert not season.is_open


def test_another_games_open_season_is_no_obstacle(club: Club) -> None:
    SeasonFactory.create(club=club, game_kind=GameKind.FUCHSEN)
    assert services.season_reopen(season=_closed(club)).is_open


def test_the_api_lets_admins_reopen_a_closed_season(
    club: Club, admin: PersonaClient, scorer: PersonaClient
) -> None:
    season = _closed(club)
    url = f"/api/clubs/{club.slug}/seasons/{season.pk}/reopen/"
    assert scorer.post(url).status_code == 403
    reopened = admin.post(url)
    assert reopened.status_code == 200 and reopened.json()["status"] == "open"
    assert admin.post(url).status_code == 400


def test_the_club_page_offers_admins_to_reopen_a_closed_season(
    club: Club, admin: PersonaClient, scorer: PersonaClient
) -> None:
    season = _closed(club)
    marker = f'data-reopen="{season.pk}"'
    assert marker in admin.get(f"/clubs/{club.slug}/").content.decode()
    assert marker not in scorer.get(f"/clubs/{club.slug}/").content.decode()
    url = f"/clubs/{club.slug}/seasons/{season.pk}/reopen/"
    answer = admin.post(url, {}, format="multipart", follow=True)
    assert "ist wieder offen" in answer.content.decode()
    season.refresh_from_db()
    assert season.is_open
