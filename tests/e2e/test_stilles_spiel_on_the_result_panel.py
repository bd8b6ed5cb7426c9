"""The recording page's result names a Stilles Spiel's bonus beside the value it is part
of ("Wert 35 ct (Stilles Spiel +10 ct)"), from the engine's table view: a Supp game's
35 ct is never left unexplained on the phone either (issue 41, point 8)."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Role
from games.models import Game
from tests.e2e.pages import RecordingPage, log_in
from tests.e2e.tables import open_evening, players_of, record_game
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _tally_game(live_server: Any, page: Any, **tally: Any) -> Game:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    MembershipFactory.create(
        club=club, user=UserFactory.create(username="schreiber"), role=Role.SCORER
    )
    players = players_of(club, ("Anna", "Bert", "Carl", "Dora", "Emil"))
    evening = open_evening(club, players)
    five = ["anna", "bert", "carl", "dora", "emil"]
    record = {
        "game": "fuchsen",
        "events": [
            {"type": "deal", "dealer": "anna", "players": five},
            {"type": "call", "player": "bert", "card": "EA"},
            {
                "type": "tally",
                "partner": str(players["carl"].pk),
                "level": "supp",
                "won": True,
                **tally,
            },
        ],
    }
    game = record_game(evening, players, record)
    log_in(page, live_server.url, "schreiber", f"/games/{game.pk}/")
    RecordingPage(page, players).wait_ready()
    return game


def test_the_result_of_a_stilles_spiel_names_its_bonus_beside_the_value(
    live_server: Any, phone: Any
) -> None:
    game = _tally_game(live_server, phone, silent=True)
    assert game.result["value"] == 35
    text = phone.inner_text("#record .panel.result")
    assert "Wert 35 ct (Stilles Spiel +10 ct)" in text


def test_the_result_of_a_plain_game_names_no_bonus(live_server: Any, phone: Any) -> None:
    game = _tally_game(live_server, phone)
    assert game.result["value"] == 25
    text = phone.inner_text("#record .panel.result")
    assert "Wert 25 ct" in text and "Stilles Spiel" not in text
