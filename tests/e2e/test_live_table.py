"""The live table in real Chromium: a viewer without an account follows a scorer's taps.

The viewer opens the evening's live link in a context of its own (no login);
the scorer records on the game page in another. Each append appears on the
viewer's screen, pushed; the time from the tap to the viewer's screen is
printed, and asserted only as "appears".
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from clubs.models import Role
from live import services as live_services
from tests.e2e.pages import RecordingPage, log_in
from tests.e2e.tables import open_evening, players_of, start
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.records import RE_PLAYED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FIRST_TRICK = ["EO", "RA", "R10", "R9"]  # four of five: the trick is still on the table


def test_a_viewer_on_the_live_link_sees_each_append_pushed(live_server: Any, browser: Any) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    players = players_of(club)
    evening = open_evening(club, players)
    game = start(evening, players, RE_PLAYED_OUT["events"][0])
    token = live_services.link_token(live_services.live_link_create(evening=evening, user=user))

    viewer_context = browser.new_context(locale="de-AT")
    scorer_context = browser.new_context(locale="de-AT")
    try:
        viewer = viewer_context.new_page()
        viewer.goto(f"{live_server.url}/live/{token}/")
        viewer.wait_for_selector("#live-status.live-on")  # the push connection is open
        assert viewer.inner_text("#h-live-current") == f"Spiel {game.number}"

        scorer = scorer_context.new_page()
        log_in(scorer, live_server.url, "schreiber", f"/games/{game.pk}/")
        table = RecordingPage(scorer, players)
        table.wait_ready()
        scorer.click('#record button[data-act="pick-call"][data-card="E10"]')
        taps = ['#record button[data-act="call"]'] + [
            f'#record button[data-act="play"][data-card="{card}"]' for card in FIRST_TRICK
        ]
        delays = []
        for selector in taps:
            tapped = time.perf_counter()
            table.tap(selector)
            seq = table.seq()
            viewer.wait_for_selector(f'#live-current[data-seq="{seq}"]', timeout=10_000)
            delays.append(time.perf_counter() - tapped)
        print("tap → shown on the live link: " + ", ".join(f"{d * 1000:.0f} ms" for d in delays))
        # The trick on the table, drawn as card faces named in words.
        cards = viewer.locator("#live-current .live-card").evaluate_all(
            "ls => ls.map(l => l.dataset.card)"
        )
        assert cards == FIRST_TRICK
        faces = viewer.locator("#live-current .live-card .pc").evaluate_all(
            "cs => cs.map(c => c.getAttribute('aria-label'))"
        )
        assert faces[0] == "Eichel-Ober" and len(faces) == 4
        assert viewer.locator("#live-current .live-card.winning").count() == 1
        called = viewer.locator("#live-current .live-facts").inner_text()
        assert "Eichel-Zehner" in called
        assert viewer.locator("#live-current .seat.to-act").count() == 1
        events = viewer.inner_text("#live-current .live-events")
        assert "E10" not in events
        # Whose turn: the viewer says it as the scorer's table does.
        turn = viewer.locator("#live-current .live-facts dd").first.inner_text()
        assert turn == players[str(table.to_act())].display_name
        # Nothing on the live page writes: no form, no recording buttons.
        assert viewer.locator("form[method=post] button, #record").count() == 0
    finally:
        viewer_context.close()
        scorer_context.close()
