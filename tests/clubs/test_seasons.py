"""Seasons: at most one open season per club and game."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from clubs import services
from clubs.models import Club, GameKind, Season
from tests.conftest import PersonaClient
from tests.factories import ClubFactory, RuleProfileFactory, SeasonFactory

pytestmark = pytest.mark.django_db

JAN_1 = datetime.date(2026, 1, 1)


def test_a_second_open_season_of_the_same_game_is_refused() -> None:
    club = ClubFactory.create()
    services.season_create(club=club, name="2026", game_kind=GameKind.FUCHSEN, start=JAN_1)
    with pytest.raises(ValidationError) as excinfo:
        services.season_create(club=club, name="Zweite", game_kind=GameKind.FUCHSEN, start=JAN_1)
    assert "game_kind" in excinfo.value.message_dict


def test_the_database_refuses_a_second_open_season_even_past_the_service() -> None:
    season = SeasonFactory.create(game_kind=GameKind.FUCHSEN)
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(
            club=season.club, name="Race", game_kind=GameKind.FUCHSEN, start=JAN_1
        )


def test_each_game_may_have_its_own_open_season() -> None:
    club = ClubFactory.create()
    services.season_create(club=club, name="F", game_kind=GameKind.FUCHSEN, start=JAN_1)
    services.season_create(club=club, name="K", game_kind=GameKind.KOENIGRUFEN, start=JAN_1)
    assert Season.objects.filter(club=club, status=Season.Status.OPEN).count() == 2


def test_closing_a_season_allows_opening_the_next() -> None:
    club = ClubFactory.create()
    first = services.season_create(club=club, name="1", game_kind=GameKind.FUCHSEN, start=JAN_1)
    closed = services.season_close(season=first, end=datetime.date(2026, 6, 30))
    assert (closed.status, closed.end) == (Season.Status.CLOSED, datetime.date(2026, 6, 30))
    assert closed.closed_at is not None
    services.season_create(
        club=club, name="2", game_kind=GameKind.FUCHSEN, start=datetime.date(2026, 7, 1)
    )


def test_a_closed_season_cannot_be_closed_again() -> None:
    season = SeasonFactory.create(start=JAN_1)
    services.season_close(season=season)
    with pytest.raises(ValidationError):
        services.season_close(season=season)


def test_a_season_cannot_end_before_it_starts() -> None:
    club = ClubFactory.create()
    with pytest.raises(ValidationError) as excinfo:
        services.season_create(
            club=club,
            name="x",
            game_kind=GameKind.FUCHSEN,
            start=JAN_1,
            end=datetime.date(2025, 12, 31),
        )
    assert "end" in excinfo.value.message_dict


def test_a_season_takes_only_its_own_clubs_rules_for_its_own_game() -> None:
    club = ClubFactory.create()
    koenig = RuleProfileFactory.create(club=club, game_kind=GameKind.KOENIGRUFEN)
    foreign = RuleProfileFactory.create(game_kind=GameKind.FUCHSEN)
    for profile in (koenig, foreign):
        with pytest.raises(ValidationError) as excinfo:
            services.season_create(
                club=club,
                name="x",
                game_kind=GameKind.FUCHSEN,
                start=JAN_1,
                rule_profile=profile,
            )
        assert "rule_profile" in excinfo.value.message_dict


def test_over_the_api_a_second_open_season_is_a_400_naming_the_game(
    club: Club, admin: PersonaClient
) -> None:
    body = {"name": "Fuchsen 2026", "game_kind": "fuchsen", "start": "2026-01-01"}
    url = f"/api/clubs/{club.slug}/seasons/create/"
    assert admin.post(url, body, format="json").status_code == 201
    response = admin.post(url, {**body, "name": "Noch eine"}, format="json")
    assert response.status_code == 400
    assert "game_kind" in response.json()


def test_the_season_list_is_newest_first_and_filters_by_game(
    club: Club, member: PersonaClient
) -> None:
    SeasonFactory.create(club=club, name="Alt", start=datetime.date(2025, 1, 1), status="closed")
    SeasonFactory.create(club=club, name="Neu", start=JAN_1)
    SeasonFactory.create(club=club, name="König", start=JAN_1, game_kind=GameKind.KOENIGRUFEN)
    names = [s["name"] for s in member.get(f"/api/clubs/{club.slug}/seasons/").json()["results"]]
    assert names.index("Neu") < names.index("Alt")
    only = member.get(f"/api/clubs/{club.slug}/seasons/?game_kind=koenigrufen").json()["results"]
    assert [s["name"] for s in only] == ["König"]
