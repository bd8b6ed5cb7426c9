"""The replay's stepper names each step in the page's language (real Chromium):
replay.js asks the JS catalogue for "Geben" and "Stich 1" by the kind of the step the
page marks, and counts where one is."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Role
from tests.e2e.pages import log_in
from tests.e2e.tables import open_evening, players_of, record_game
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.records import RE_PLAYED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_stepper_names_the_deal_and_each_trick_in_german(live_server: Any, phone: Any) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.MEMBER)
    players = players_of(club)
    game = record_game(open_evening(club, players), players, RE_PLAYED_OUT)
    log_in(phone, live_server.url, "schreiber", f"/games/{game.pk}/replay/")
    steps = phone.locator("#replay .replay-step").count()
    assert steps >= 7  # the deal and six tricks
    position = phone.locator("#replay .stepper .pos")
    assert position.inner_text() == f"Geben (1/{steps})"
    phone.click('#replay .stepper [data-step="1"]')
    assert position.inner_text() == f"Stich 1 (2/{steps})"
    phone.click('#replay .stepper [data-step="-1"]')
    assert position.inner_text() == f"Geben (1/{steps})"
