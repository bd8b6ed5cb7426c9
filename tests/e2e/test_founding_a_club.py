"""Founding a club on a phone, counted: from "Neuer Verein" to the first open evening
with five at the table in at most 20 taps (real Chromium, 390×844). The season comes
filled (the year, from today), the players are typed in one line, and they are
seated by tapping them in the order they sit."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Player, Season
from games.models import Evening
from tests.e2e.conftest import no_horizontal_scroll
from tests.e2e.pages import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


class Counted:
    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.keys = 0

    def tap(self, selector: str, *, navigates: bool = False) -> None:
        self.taps += 1
        if navigates:
            with self.page.expect_navigation():
                self.page.click(selector)
            self.page.wait_for_load_state()
        else:
            self.page.click(selector)

    def type(self, selector: str, text: str) -> None:
        self.taps += 1  # into the field
        self.keys += len(text)
        self.page.fill(selector, text)


def test_a_club_is_founded_and_its_first_evening_opened_in_twenty_taps(
    live_server: Any, phone: Any
) -> None:
    UserFactory.create(username="sepp")
    page = phone
    log_in(page, live_server.url, "sepp", "/clubs/new/")
    count = Counted(page)
    count.type("#id_name", "Kartenrunde Graden")
    count.tap("main form button[type=submit]", navigates=True)
    # The season form comes filled: this year, from today, Fuchsen.
    assert page.input_value("#season-form #id_name")
    count.tap("#season-form button[type=submit]", navigates=True)
    count.type("#id_display_name", "Anna, Bert, Carl, Dora")
    count.tap("#player-form button[type=submit]", navigates=True)
    assert "Anna, Bert, Carl, Dora spielen jetzt im Verein mit." in page.inner_text("#players")
    count.tap("#new-evening", navigates=True)
    founder = Player.objects.get(user__username="sepp")
    ids = {p.display_name: str(p.pk) for p in Player.objects.filter(club=founder.club)}
    for name in (founder.display_name, "Anna", "Bert", "Carl", "Dora"):
        count.tap(f'#seat-order button[data-player="{ids[name]}"]')
    assert no_horizontal_scroll(page)
    count.tap("#evening-form button[type=submit]", navigates=True)
    print(
        f"\nA club founded, five seated, the first evening open: {count.taps} taps,"
        f" {count.keys} keystrokes (after logging in)"
    )
    assert count.taps <= 20
    evening = Evening.objects.get(season__club=founder.club)
    assert evening.seats.count() == 5 and evening.is_open
    assert Season.objects.get(club=founder.club).status == Season.Status.OPEN
