"""The page "Analyse" in real Chromium on a phone, in German: a deal played out on the
recording page is analysed in-process as its last card commits and shows where it
was lost; a game kept only as a tally says why it has none. Both pages axe-clean."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clubs.models import Role
from games import services
from tests.analysis.records import LOST_IN_TRICK_2
from tests.e2e.conftest import PHONE, no_horizontal_scroll, shoot
from tests.e2e.pages import RecordingPage, log_in
from tests.e2e.tables import open_evening, players_of, to_ids
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"


@pytest.fixture
def phone_for_axe(browser: Any) -> Any:
    # bypass_csp: axe is the test's own script (the page's CSP allows only its own files).
    context = browser.new_context(viewport=PHONE, locale="de-AT", bypass_csp=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    context.close()


def serious_violations(page: Any) -> list[dict[str, Any]]:
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => ({id: v.id, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target)}))"
    )
    return found


def _table() -> tuple[Any, Any, dict[str, Any]]:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    players = players_of(club)
    return club, open_evening(club, players), players


def test_a_deal_played_out_on_the_recording_page_shows_where_it_was_lost(
    live_server: Any, phone_for_axe: Any
) -> None:
    _club, evening, players = _table()
    events = to_ids(LOST_IN_TRICK_2["events"], players)
    # The deal, the call and the first trick with its raises through the service; the
    # tricks after it tapped card by card, the last one finishing the game.
    first = events.index({"type": "end_raising"}) + 1
    game = services.game_start(evening=evening, user=None, deal=events[0])
    services.game_events_append(game=game, user=None, expected_seq=1, events=events[1:first])
    page = phone_for_axe
    log_in(page, live_server.url, "schreiber", f"/games/{game.pk}/")
    table = RecordingPage(page, players)
    table.wait_ready()
    for event in LOST_IN_TRICK_2["events"][first:]:
        assert table.to_act() == event["player"]
        table.play(event["card"])
    page.wait_for_selector('#record[data-status="finished"]')

    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    page.click("#analysis-link")
    turning = page.wait_for_selector("#turning-point")
    assert turning.inner_text() == (
        "Hier wurde das Spiel verloren: Stich 2, Dora spielt Eichel-Unter — mit "
        "Schellen-Neuner hätte die Machermannschaft 69 statt 43 Augen gemacht."
    )
    assert page.locator(".analysis-cards li").count() == 30
    # Tap the costly card: its best cards open below it.
    costly = page.locator(".analysis-cards li.turning").first
    costly.locator("summary").click()
    assert "Beste Karten:" in costly.inner_text()
    assert costly.locator('.best-cards [data-card="S9"]').count() == 1
    assert no_horizontal_scroll(page)
    shoot(page, "phone-analysis")
    assert serious_violations(page) == []

    # The evening lists the turning point, linked to the analysis.
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    listed = page.wait_for_selector("#turning-points")
    assert "Wendepunkte des Abends" in listed.inner_text()
    assert "Stich 2, Dora spielt Eichel-Unter" in listed.inner_text()
    page.click(f'#turning-points a[href="/games/{game.pk}/analysis/"]')
    page.wait_for_selector("#turning-point")


def test_a_tally_only_game_says_why_it_has_no_analysis(
    live_server: Any, phone_for_axe: Any
) -> None:
    _club, evening, players = _table()
    deal = LOST_IN_TRICK_2["events"][0]
    tally = [
        deal,
        {"type": "call", "player": "dora", "card": "S10"},
    ]
    events = [
        *to_ids(tally, players),
        {"type": "tally", "level": "re", "augen": 43, "partner": str(players["carl"].pk)},
    ]
    game = services.game_started(evening=evening, user=None, events=events).game
    page = phone_for_axe
    log_in(page, live_server.url, "schreiber", f"/games/{game.pk}/analysis/")
    why = page.wait_for_selector("#analysis-why")
    assert why.inner_text().startswith("Keine Karten aufgezeichnet")
    assert no_horizontal_scroll(page)
    assert serious_violations(page) == []
