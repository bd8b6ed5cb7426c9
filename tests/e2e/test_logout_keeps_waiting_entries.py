"""Logging out never silently drops an entry still waiting in the phone's outbox (real
Chromium). The logout answers ``Clear-Site-Data``, which deletes the outbox (nothing
queued is sent in the next user's name): so "Abmelden" first sends what waits, and what
still waits then (no network, refused by the server) is named in a dialog, where staying
is the default and logging out anyway is the player's choice. Nothing waiting: the
logout is as it always was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clubs.models import Role
from tests.e2e.conftest import PHONE, shoot
from tests.e2e.pages import log_in
from tests.e2e.test_logout_clears_the_phone import OUTBOX_ITEMS
from tests.e2e.test_offline_recording import _queue_offline, _scorer_on_a_game
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.records import RE_PLAYED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
LOG_OUT = "header form button[type=submit]"  # "Abmelden"
DIALOG = "#logout-warning[open]"
LOGGED_OUT = 'header a[href="/accounts/login/"]'  # "Anmelden"
CALL = RE_PLAYED_OUT["events"][1]  # the deal's first entry after the deal itself


def _violations(page: Any, context: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(
        f"async () => (await axe.run({context}, {{resultTypes: ['violations']}})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))}))"
    )
    return found


def _focused(page: Any) -> str:
    text: str = page.evaluate("() => document.activeElement.textContent.trim()")
    return text


def test_offline_abmelden_names_the_waiting_entry_and_bleiben_keeps_the_player_logged_in(
    live_server: Any, browser: Any
) -> None:
    context, page, players, game = _scorer_on_a_game(live_server, browser)
    try:
        _queue_offline(context, page, players, CALL)
        assert page.evaluate(OUTBOX_ITEMS) == 1

        page.click(LOG_OUT)
        dialog = page.wait_for_selector(DIALOG)
        text = dialog.inner_text()
        print(f"\nThe dialog says: {text}")
        assert "Noch nicht alles gesendet" in text
        assert "1 Eintrag ist noch nicht gesendet. Abmelden löscht ihn von diesem Handy." in text
        assert "sobald das Netz wieder da ist" in text
        assert _focused(page) == "Bleiben"  # staying is the default

        page.get_by_role("button", name="Bleiben").click()
        page.wait_for_selector("#logout-warning", state="hidden")
        assert _focused(page) == "Abmelden"  # back where the player was
        assert page.evaluate(OUTBOX_ITEMS) == 1  # the entry still waits
        # Still logged in: back online, the entry is sent in his name and stored.
        context.set_offline(False)
        page.wait_for_function(
            "() => !document.querySelectorAll('#offline-entry .offline-queue li').length",
            timeout=30_000,
        )
        assert game.events.count() == 2
        assert page.locator(LOG_OUT).count() == 1
    finally:
        context.close()


def test_trotzdem_abmelden_logs_out_and_the_outbox_is_cleared_as_before(
    live_server: Any, browser: Any
) -> None:
    context, page, players, game = _scorer_on_a_game(live_server, browser)
    try:
        # Carl plays the Rot-König, which the deal gave Dora: the server refuses it.
        _queue_offline(
            context,
            page,
            players,
            {"type": "call", "player": "bert", "card": "E10"},
            {"type": "play", "player": "bert", "card": "EO"},
            {"type": "play", "player": "carl", "card": "RK"},
        )
        context.set_offline(False)
        page.wait_for_selector("#offline-entry .offline-failed")
        assert game.events.count() == 3

        page.click(LOG_OUT)
        text = page.wait_for_selector(DIALOG).inner_text()
        print(f"\nThe dialog says: {text}")
        assert "1 Eintrag ist noch nicht gesendet" in text
        assert "Was der Server abgelehnt hat" in text
        page.get_by_role("button", name="Trotzdem abmelden").click()
        page.wait_for_selector(LOGGED_OUT)
        assert page.evaluate(OUTBOX_ITEMS) == 0
        assert game.events.count() == 3
    finally:
        context.close()


def test_online_the_waiting_entry_is_sent_first_and_the_logout_goes_through_without_a_dialog(
    live_server: Any, browser: Any
) -> None:
    context, page, players, game = _scorer_on_a_game(live_server, browser)
    try:
        _queue_offline(context, page, players, CALL)
        # The network is back but the API out of reach: the entry keeps waiting.
        context.route("**/api/games/**", lambda route: route.abort())
        context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        assert page.evaluate(OUTBOX_ITEMS) == 1
        assert game.events.count() == 1

        context.unroute("**/api/games/**")
        page.click(LOG_OUT)
        page.wait_for_selector(LOGGED_OUT)
        assert game.events.count() == 2  # sent before the logout deleted the outbox
        stored = game.events.order_by("seq").last()
        assert stored is not None and stored.type == "call"
        assert page.evaluate(OUTBOX_ITEMS) == 0
    finally:
        context.close()


def test_with_nothing_waiting_abmelden_logs_out_at_once(live_server: Any, phone: Any) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    log_in(phone, live_server.url, "schreiber", f"/clubs/{club.slug}/")
    phone.wait_for_function("() => !!window.StichbuchOutbox")
    assert phone.evaluate(OUTBOX_ITEMS) == 0
    phone.click(LOG_OUT)
    phone.wait_for_selector(LOGGED_OUT)
    assert phone.locator("#logout-warning").count() == 0


def test_the_dialog_passes_axe_core(live_server: Any, browser: Any) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    # bypass_csp: axe is the test's own script, not the page's.
    context = browser.new_context(viewport=PHONE, locale="de-AT", bypass_csp=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "schreiber", f"/clubs/{club.slug}/")
        page.wait_for_function("() => !!window.StichbuchOutbox")
        context.set_offline(True)
        for key in ("k1", "k2"):
            page.evaluate(
                """key => window.StichbuchOutbox.tx("readwrite", (store) => {
                  store.add({ kind: "game", game: 987654, expected_seq: 1, events: [], key: key });
                })""",
                key,
            )
        page.click(LOG_OUT)
        text = page.wait_for_selector(DIALOG).inner_text()
        assert "2 Einträge sind noch nicht gesendet. Abmelden löscht sie von diesem Handy." in text
        shoot(page, "logout-warning")
        page.evaluate(AXE.read_text(encoding="utf-8"))
        # No serious or critical violation on the page (as test_accessibility.py asks of
        # every page), and none at all in the dialog.
        page_found = _violations(page, "document")
        assert [v for v in page_found if v["impact"] in ("serious", "critical")] == []
        assert _violations(page, "document.getElementById('logout-warning')") == []
        # Escape is staying too.
        page.keyboard.press("Escape")
        page.wait_for_selector("#logout-warning", state="hidden")
        assert page.locator(LOG_OUT).count() == 1
    finally:
        context.close()
