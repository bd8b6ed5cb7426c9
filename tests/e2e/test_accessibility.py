"""axe-core (vendored from npm: tests/e2e/vendor/axe-core/) finds no serious or critical
accessibility violation on any main page, on a phone in German, in real Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from clubs.models import Role
from ledger import services as ledger_services
from tests.e2e.conftest import PHONE, shoot
from tests.e2e.pages import log_in
from tests.e2e.tables import open_evening, players_of, record_game
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.records import RE_PLAYED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


@pytest.fixture
def axe_phone(browser: Any) -> Any:
    # bypass_csp: axe is the test's own script, not the page's (the page's CSP allows
    # no script but its own files).
    context = browser.new_context(viewport=PHONE, locale="de-AT", bypass_csp=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


def _violations(page: Any) -> list[dict[str, Any]]:
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"
    )
    return found


def test_no_main_page_has_a_serious_or_critical_violation(live_server: Any, axe_phone: Any) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.ADMIN)
    players = players_of(club)
    evening = open_evening(club, players)
    game = record_game(evening, players, RE_PLAYED_OUT)
    ledger_services.settlement_plan_create(club=club, created_by=None, evening=evening)
    pages = {
        "start": reverse("home"),
        "club": reverse("club-detail-page", args=[club.slug])
        if _has("club-detail-page")
        else f"/clubs/{club.slug}/",
        "club book": reverse("club-book", args=[club.slug]),
        "new evening": reverse("evening-new", args=[club.slug]),
        "evening": reverse("evening-page", args=[evening.pk]),
        "new game": reverse("game-new", args=[evening.pk]),
        "recording": reverse("game-page", args=[game.pk]),
        "replay": reverse("game-replay", args=[game.pk]),
        "season table": reverse("season-current", args=[club.slug]),
        "player": reverse("player-page", args=[club.slug, players["bert"].pk]),
    }
    log_in(axe_phone, live_server.url, "schreiber", "/")
    found: dict[str, list[dict[str, Any]]] = {}
    for name, url in pages.items():
        axe_phone.goto(f"{live_server.url}{url}")
        axe_phone.wait_for_load_state("networkidle")
        if name == "recording":
            axe_phone.wait_for_selector("#record[data-seq]")
        # Serious and critical everywhere; on the recording page the heading order too.
        bad = [
            v
            for v in _violations(axe_phone)
            if v["impact"] in SERIOUS or (name == "recording" and v["id"] == "heading-order")
        ]
        if bad:
            found[name] = bad
            shoot(axe_phone, f"axe-{name.replace(' ', '-')}")
    assert not found, found


def _has(name: str) -> bool:
    from django.urls import NoReverseMatch

    try:
        reverse(name, args=["x"])
    except NoReverseMatch:
        return False
    return True
