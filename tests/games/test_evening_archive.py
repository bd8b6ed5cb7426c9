"""The club's list of all its evenings: every one reachable from the pages, the latest
first, a page at a time, with its games counted and narrowed to a season on request."""

from __future__ import annotations

import datetime

from clubs.models import Club, Season
from games.models import Evening, Game
from games.pages.evenings import EVENINGS_PER_PAGE
from tests.conftest import PersonaClient
from tests.factories import ClubFactory, SeasonFactory
from tests.games.factories import EveningFactory, GameFactory

START = datetime.date(2026, 1, 7)


def _weekly(club: Club, season: Season, count: int, start: datetime.date = START) -> list[Evening]:
    """``count`` closed evenings a week apart, the first on ``start``."""
    return [
        EveningFactory.create(
            club=club,
            season=season,
            date=start + datetime.timedelta(weeks=k),
            status=Evening.Status.CLOSED,
        )
        for k in range(count)
    ]


def _listed(html: str) -> list[int]:
    return [int(part.split('"')[0]) for part in html.split('data-evening="')[1:]]


def test_every_evening_is_listed_the_latest_first_a_page_at_a_time(
    club: Club, member: PersonaClient
) -> None:
    season = SeasonFactory.create(club=club)
    evenings = _weekly(club, season, EVENINGS_PER_PAGE + 5)
    url = f"/clubs/{club.slug}/evenings/"
    first = member.get(url).content.decode()
    newest_first = [e.pk for e in reversed(evenings)]
    assert _listed(first) == newest_first[:EVENINGS_PER_PAGE]
    assert "Seite 1 von 2" in first and 'rel="next"' in first
    second = member.get(url + "?page=2").content.decode()
    assert _listed(second) == newest_first[EVENINGS_PER_PAGE:]
    assert 'rel="prev"' in second and 'rel="next"' not in second
    # A page number that is no page: the first page, or the last one past the end.
    assert _listed(member.get(url + "?page=zwei").content.decode()) == _listed(first)
    assert _listed(member.get(url + "?page=99").content.decode()) == _listed(second)


def test_each_evening_shows_its_games_counted(club: Club, member: PersonaClient) -> None:
    season = SeasonFactory.create(club=club)
    [evening] = _weekly(club, season, 1)
    for status in (Game.Status.FINISHED, Game.Status.FINISHED, Game.Status.ANNULLED):
        GameFactory.create(evening=evening, status=status)
    GameFactory.create(evening=evening, status=Game.Status.IN_PROGRESS)
    html = member.get(f"/clubs/{club.slug}/evenings/").content.decode()
    assert "3\u00a0Spiele" in html and "1\u00a0läuft" in html


def test_a_season_narrows_the_list_and_another_clubs_season_is_not_found(
    club: Club, member: PersonaClient
) -> None:
    spring = SeasonFactory.create(club=club, name="Frühjahr", status=Season.Status.CLOSED)
    autumn = SeasonFactory.create(club=club, name="Herbst")
    spring_evenings = _weekly(club, spring, 3)
    _weekly(club, autumn, 2, START + datetime.timedelta(weeks=20))
    url = f"/clubs/{club.slug}/evenings/"
    narrowed = member.get(f"{url}?season={spring.pk}").content.decode()
    assert sorted(_listed(narrowed)) == sorted(e.pk for e in spring_evenings)
    assert len(_listed(member.get(url).content.decode())) == 5
    elsewhere = SeasonFactory.create(club=ClubFactory.create())
    assert member.get(f"{url}?season={elsewhere.pk}").status_code == 404
    assert member.get(f"{url}?season=abc").status_code == 404
    assert member.get(f"{url}?season={'9' * 40}").status_code == 404


def test_the_club_book_and_the_season_table_lead_to_the_list(
    club: Club, member: PersonaClient
) -> None:
    season = SeasonFactory.create(club=club)
    _weekly(club, season, 2)
    book = member.get(f"/clubs/{club.slug}/book/").content.decode()
    assert 'id="all-evenings"' in book
    table = member.get(f"/clubs/{club.slug}/seasons/{season.pk}/table/").content.decode()
    assert f"/clubs/{club.slug}/evenings/?season={season.pk}" in table


def test_a_club_without_evenings_says_so(club: Club, member: PersonaClient) -> None:
    assert "Noch kein Spielabend." in member.get(f"/clubs/{club.slug}/evenings/").content.decode()
