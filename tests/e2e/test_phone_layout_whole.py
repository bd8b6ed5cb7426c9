"""At 390×844 nothing is cut off and axe-core finds nothing serious where the issue
found it: the result form's called-card buttons (their names contain what they show),
the sitting-out seat (contrast), the recording page's tools and a six-seat table's
tags ("Geber · setzt aus") whole."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Role
from tests.e2e.conftest import PHONE, shoot
from tests.e2e.pages import log_in
from tests.e2e.tables import open_evening, players_of, start
from tests.e2e.test_accessibility import SERIOUS, _violations
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIX = ("Anna", "Bert", "Carl", "Dora", "Emil", "Franziska")
CLIPPED = """sel => Array.from(document.querySelectorAll(sel))
  .filter(e => e.offsetParent && (e.scrollWidth > e.clientWidth + 1))
  .map(e => e.textContent.trim())"""


@pytest.fixture
def axe_phone(browser: Any) -> Any:
    context = browser.new_context(viewport=PHONE, locale="de-AT", bypass_csp=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


def _serious(page: Any) -> list[dict[str, Any]]:
    return [v for v in _violations(page) if v["impact"] in SERIOUS]


def test_a_six_seat_table_shows_its_tools_and_tags_whole_with_no_serious_violation(
    live_server: Any, axe_phone: Any
) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    players = players_of(club, SIX)
    evening = open_evening(club, players)
    game = start(evening, players, None)  # six seated: the dealer sits out
    log_in(axe_phone, live_server.url, "schreiber", f"/games/{game.pk}/")
    axe_phone.wait_for_selector("#record[data-seq]")
    assert axe_phone.query_selector("#record .seat.out")
    shoot(axe_phone, "phone-six-seats")
    cut = axe_phone.evaluate(CLIPPED, "#record .tools button, #record .seat .tags")
    assert cut == [], f"cut off at 390 px: {cut}"
    bad = _serious(axe_phone)
    assert bad == [], bad


def test_the_result_forms_called_cards_are_named_as_they_show(
    live_server: Any, axe_phone: Any
) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    players = players_of(club, SIX)  # Franziska's name is the longest chip
    evening = open_evening(club, players)
    log_in(axe_phone, live_server.url, "schreiber", f"/evenings/{evening.pk}/")
    with axe_phone.expect_response(lambda r: "/tally/" in r.url):
        axe_phone.click(f'#tally button[value="macher:{players["bert"].pk}"]')
    axe_phone.wait_for_selector('#tally [data-q="called"] button.pc')
    axe_phone.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling')")
    label = axe_phone.get_attribute('#tally button[value="called:E10"]', "aria-label")
    assert label is not None and label.startswith("10")
    bad = _serious(axe_phone)
    assert bad == [], bad
    cut = axe_phone.evaluate(CLIPPED, "#tally .chip")
    assert cut == [], f"cut off at 390 px: {cut}"


def test_no_page_asks_for_a_missing_icon(live_server: Any, phone: Any) -> None:
    missing: list[str] = []
    phone.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    phone.goto(f"{live_server.url}/accounts/login/")
    phone.wait_for_load_state("networkidle")
    icon = phone.get_attribute('link[rel="icon"]', "href")
    assert icon and phone.request.get(f"{live_server.url}{icon}").status == 200
    assert missing == []  # /favicon.ico is no longer asked for
