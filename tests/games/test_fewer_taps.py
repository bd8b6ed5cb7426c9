"""Taps that need not be: a new evening starts from the season played last and can
take the last evening's seats in one tap; the start and club pages offer
"Neuer Spielabend" where one can be opened."""

from __future__ import annotations

import datetime
import re

from clubs.models import Club, Player
from games.models import Evening
from tests.conftest import PersonaClient
from tests.factories import SeasonFactory


def _selected(html: str, select_id: str) -> str:
    """The value of the option chosen in the select ``select_id`` ("" if none)."""
    block = html[html.index(f'id="{select_id}"') :]
    block = block[: block.index("</select>")]
    found = re.search(r'<option value="([^"]*)" selected>', block)
    return found.group(1) if found else ""


def test_a_new_evening_starts_from_the_season_played_last_not_the_first_listed(
    evening: Evening, club: Club, scorer: PersonaClient
) -> None:
    newer = SeasonFactory.create(
        club=club, game_kind="koenigrufen", start=evening.season.start + datetime.timedelta(days=1)
    )
    html = scorer.get(f"/clubs/{club.slug}/evenings/new/").content.decode()
    assert html.index(f'value="{newer.pk}"') < html.index(f'value="{evening.season_id}"')
    assert _selected(html, "season") == str(evening.season_id)


def test_the_same_seats_as_last_time_fill_the_table_in_its_order(
    evening: Evening, club: Club, scorer: PersonaClient, players: dict[str, Player]
) -> None:
    Evening.objects.filter(pk=evening.pk).update(place="Gasthaus Post")
    page = scorer.get(f"/clubs/{club.slug}/evenings/new/").content.decode()
    assert "Dieselben Plätze wie beim letzten Mal" in page
    assert "Anna, Bert, Carl, Dora, Emil" in page
    assert _selected(page, "seat1") == ""  # nothing chosen until asked
    html = scorer.get(f"/clubs/{club.slug}/evenings/new/?seats=last").content.decode()
    seated = [_selected(html, f"seat{i}") for i in range(1, 7)]
    names = ("anna", "bert", "carl", "dora", "emil")
    assert seated == [str(players[n].pk) for n in names] + [""]
    assert 'value="Gasthaus Post"' in html


def test_a_club_without_an_evening_offers_no_seats_of_last_time(
    club: Club, scorer: PersonaClient
) -> None:
    SeasonFactory.create(club=club)
    html = scorer.get(f"/clubs/{club.slug}/evenings/new/").content.decode()
    assert "Dieselben Plätze" not in html


def test_the_start_and_club_pages_offer_a_new_evening_to_a_scorer_of_a_club_with_a_season(
    club: Club, scorer: PersonaClient, member: PersonaClient
) -> None:
    new = f'href="/clubs/{club.slug}/evenings/new/"'
    assert new not in scorer.get("/").content.decode()  # no season yet: nothing to open
    assert new not in scorer.get(f"/clubs/{club.slug}/").content.decode()
    SeasonFactory.create(club=club)
    for page in ("/", f"/clubs/{club.slug}/"):
        html = scorer.get(page).content.decode()
        assert new in html and "Neuer Spielabend" in html
        assert new not in member.get(page).content.decode()


def test_a_closed_season_alone_offers_no_new_evening(club: Club, admin: PersonaClient) -> None:
    SeasonFactory.create(club=club, status="closed")
    html = admin.get("/").content.decode()
    assert f'href="/clubs/{club.slug}/evenings/new/"' not in html
