"""Which season "the table" shows: with Fuchsen and Königrufen both open, the one the
club played last, not whichever was opened first."""

from __future__ import annotations

import datetime

import pytest

from clubs.models import Club, GameKind, Season
from games.models import Evening
from ledger import selectors
from tests.conftest import PersonaClient
from tests.e2e.tables import open_evening, players_of
from tests.factories import ClubFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def _played_on(evening: Evening, day: datetime.date) -> None:
    Evening.objects.filter(pk=evening.pk).update(date=day)


def test_the_table_shows_the_open_season_played_last(club: Club, member: PersonaClient) -> None:
    players = players_of(club)
    fuchsen = SeasonFactory.create(club=club, game_kind=GameKind.FUCHSEN, start="2026-01-01")
    koenig = SeasonFactory.create(club=club, game_kind=GameKind.KOENIGRUFEN, start="2026-02-01")
    evening = open_evening(club, players, kind=GameKind.FUCHSEN)
    _played_on(evening, datetime.date(2026, 3, 1))
    # Königrufen started later but nobody has played it: the Fuchsen table it is.
    response = member.get(f"/clubs/{club.slug}/table/")
    assert response["Location"] == f"/clubs/{club.slug}/seasons/{fuchsen.pk}/table/"

    later = open_evening(club, dict(list(players.items())[:4]), kind=GameKind.KOENIGRUFEN)
    _played_on(later, datetime.date(2026, 3, 8))
    response = member.get(f"/clubs/{club.slug}/table/")
    assert response["Location"] == f"/clubs/{club.slug}/seasons/{koenig.pk}/table/"


def test_without_evenings_the_latest_open_season_and_without_open_ones_the_last_played() -> None:
    club = ClubFactory.create()
    assert selectors.season_current(club=club) is None
    old = SeasonFactory.create(
        club=club, game_kind=GameKind.FUCHSEN, start="2025-01-01", status=Season.Status.CLOSED
    )
    assert selectors.season_current(club=club) == old
    first = SeasonFactory.create(club=club, game_kind=GameKind.FUCHSEN, start="2026-01-01")
    second = SeasonFactory.create(club=club, game_kind=GameKind.KOENIGRUFEN, start="2026-02-01")
    assert selectors.season_current(club=club) == second
    Season.objects.filter(pk__in=[first.pk, second.pk]).update(status=Season.Status.CLOSED)
    players = players_of(club)
    Season.objects.filter(pk=first.pk).update(status=Season.Status.OPEN)
    _played_on(open_evening(club, players, kind=GameKind.FUCHSEN), datetime.date(2026, 6, 1))
    Season.objects.filter(pk=first.pk).update(status=Season.Status.CLOSED)
    # All closed: the season played last, though another started later.
    assert selectors.season_current(club=club) == first


def test_the_book_lists_the_open_season_played_last_first(
    club: Club, member: PersonaClient
) -> None:
    players = players_of(club)
    fuchsen = SeasonFactory.create(club=club, game_kind=GameKind.FUCHSEN, start="2026-01-01")
    koenig = SeasonFactory.create(club=club, game_kind=GameKind.KOENIGRUFEN, start="2026-02-01")
    open_evening(club, players, kind=GameKind.FUCHSEN)
    tables = member.get(f"/clubs/{club.slug}/book/").context["tables"]
    assert [t["season"] for t in tables] == [fuchsen, koenig]
