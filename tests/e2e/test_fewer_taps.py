"""Fewer taps at the table, in real Chromium at 390×844: "Neues Spiel" on a finished
game's result deals the next game at once (the next dealer clockwise), and a new
evening takes the last evening's seats in one tap."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Role
from games.models import Evening, Game
from tests.e2e.pages import RecordingPage, log_in
from tests.e2e.tables import open_evening, players_of, record_game
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.records import RE_PLAYED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _finished(live_server: Any, page: Any) -> tuple[Any, dict[str, Any], Game]:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    MembershipFactory.create(
        club=club, user=UserFactory.create(username="schreiber"), role=Role.SCORER
    )
    players = players_of(club)
    evening = open_evening(club, players)
    game = record_game(evening, players, RE_PLAYED_OUT)
    log_in(page, live_server.url, "schreiber", f"/games/{game.pk}/")
    RecordingPage(page, players).wait_ready()
    return club, players, game


def test_new_game_on_the_result_deals_the_next_game_at_once(live_server: Any, phone: Any) -> None:
    _club, _players, game = _finished(live_server, phone)
    phone.click("#record .panel.result #new-game")
    phone.wait_for_url("**/games/*/")
    phone.wait_for_selector("#record[data-seq]")
    games = list(Game.objects.filter(evening=game.evening).order_by("number"))
    assert [g.number for g in games] == [1, 2]
    assert phone.url.endswith(f"/games/{games[1].pk}/")
    first_deal = game.events.get(seq=1).payload
    next_deal = games[1].events.get(seq=1).payload
    seated = first_deal["players"]
    # The next dealer clockwise, as the evening page's button deals.
    assert next_deal["dealer"] == seated[(seated.index(first_deal["dealer"]) + 1) % len(seated)]


def test_a_new_evening_takes_the_seats_of_last_time_in_one_tap(
    live_server: Any, phone: Any
) -> None:
    club, _players, game = _finished(live_server, phone)
    phone.goto(f"{live_server.url}/clubs/{club.slug}/")
    phone.click("#new-evening")
    with phone.expect_navigation():
        phone.click("#same-seats")
    phone.click("#evening-form button[type=submit]")
    phone.wait_for_url("**/evenings/*/")
    newest = Evening.objects.filter(club=club).order_by("-id").first()
    assert newest is not None and newest.pk != game.evening_id
    assert newest.season_id == game.evening.season_id
    old = [s.player_id for s in game.evening.seats.order_by("position")]
    assert [s.player_id for s in newest.seats.order_by("position")] == old
