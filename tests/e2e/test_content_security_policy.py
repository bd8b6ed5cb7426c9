"""Every main page, and the API docs, run under the Content-Security-Policy with no
violation in real Chromium: no inline script, no inline <style>, nothing from
another origin. The behaviours that were inline handlers still work."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from clubs.models import Role
from ledger import services as ledger_services
from tests.e2e.conftest import DESKTOP, shoot
from tests.e2e.pages import log_in
from tests.e2e.tables import open_evening, players_of, record_game
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.records import RE_PLAYED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Playwright's init script runs before the page's own and is not subject to its CSP.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " "
    + (e.sourceFile || "") + ":" + e.lineNumber);
});
"""


@pytest.fixture
def watched(browser: Any) -> Any:
    """A desktop page that records CSP violations (events and console errors)."""
    context = browser.new_context(viewport=DESKTOP, locale="de-AT")
    context.set_default_timeout(10_000)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.console_errors = []
    page.on(
        "console",
        lambda m: (
            page.console_errors.append(m.text)
            if m.type == "error" and "Content Security Policy" in m.text
            else None
        ),
    )
    yield page
    context.close()


def _violations(page: Any) -> list[str]:
    events: list[str] = page.evaluate("window.__csp || []")
    return events + list(page.console_errors)


def test_no_main_page_and_not_the_api_docs_violate_the_content_security_policy(
    live_server: Any, watched: Any
) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.ADMIN)
    players = players_of(club)
    evening = open_evening(club, players)
    game = record_game(evening, players, RE_PLAYED_OUT)
    ledger_services.settlement_plan_create(club=club, created_by=None, evening=evening)
    public = {
        "login": reverse("login"),
        "sign up": reverse("signup"),
        "password reset": reverse("password-reset"),
        "api docs": reverse("api-docs"),
    }
    members = {
        "start": reverse("home"),
        "club": reverse("club-page", args=[club.slug]),
        "club settings": reverse("club-settings-page", args=[club.slug]),
        "club book": reverse("club-book", args=[club.slug]),
        "evenings": reverse("evening-archive", args=[club.slug]),
        "new evening": reverse("evening-new", args=[club.slug]),
        "evening": reverse("evening-page", args=[evening.pk]),
        "new game": reverse("game-new", args=[evening.pk]),
        "tally": reverse("evening-tally", args=[evening.pk]),
        "recording": reverse("game-page", args=[game.pk]),
        "replay": reverse("game-replay", args=[game.pk]),
        "season table": reverse("season-current", args=[club.slug]),
        "player": reverse("player-page", args=[club.slug, players["bert"].pk]),
        "all time": reverse("all-time-page", args=[club.slug]),
        "password change": reverse("password-change"),
    }
    found: dict[str, list[str]] = {}

    def visit(name: str, url: str) -> None:
        response = watched.goto(f"{live_server.url}{url}")
        assert response is not None and response.status < 400, (name, url)
        assert "script-src 'self'" in (response.headers.get("content-security-policy") or "")
        watched.wait_for_load_state("networkidle")
        if name == "recording":
            watched.wait_for_selector("#record[data-seq]")
        if name == "api docs":
            watched.wait_for_selector(".swagger-ui .opblock", timeout=20_000)
        bad = _violations(watched)
        if bad:
            found[name] = bad
            shoot(watched, f"csp-{name.replace(' ', '-')}")

    for name, url in public.items():
        visit(name, url)
    log_in(watched, live_server.url, "schreiber", "/")
    for name, url in members.items():
        visit(name, url)
    assert not found, found


def test_the_handlers_moved_out_of_the_markup_still_ask_and_still_submit(
    live_server: Any, watched: Any
) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.ADMIN)
    evening = open_evening(club, players_of(club))
    log_in(watched, live_server.url, "schreiber", "/")
    watched.goto(f"{live_server.url}{reverse('evening-page', args=[evening.pk])}")

    # Deleting the (empty) evening asks first; saying no keeps it.
    asked: list[str] = []

    def dismiss(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    watched.once("dialog", dismiss)
    delete = f"form[action='{reverse('evening-delete-page', args=[evening.pk])}'] button"
    watched.click(delete)
    assert asked and "löschen" in asked[0]
    assert watched.url.endswith(reverse("evening-page", args=[evening.pk]))

    # The language menu sends its form on change, as the inline handler did.
    with watched.expect_navigation():
        watched.select_option("#language", "en")
    assert watched.locator("html").get_attribute("lang") == "en"
    assert not _violations(watched)
