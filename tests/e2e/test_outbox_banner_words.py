"""The outbox banner says how many entries wait in the words of the page's language,
one entry in the singular and more in the plural (real Chromium): sender.js asks the
JS catalogue (``/jsi18n/<language>/``, linked by every page) for them. A page whose
catalogue did not load still works and says it in English."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Role
from tests.e2e.pages import log_in
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# An entry of a game this server does not know, queued as the recording page queues one.
QUEUE = """key => window.StichbuchOutbox.tx("readwrite", (store) => {
  store.add({ kind: "game", game: 987654, expected_seq: 1, events: [], key: key });
})"""
BANNER = "#outbox-banner:not([hidden])"


def _scorer_on_the_club_page(live_server: Any, context: Any) -> Any:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    log_in(page, live_server.url, "schreiber", f"/clubs/{club.slug}/")
    page.wait_for_function("() => !!window.StichbuchOutbox")
    return page


def _says(page: Any, words: str) -> str:
    page.wait_for_function(
        "words => document.getElementById('outbox-banner').textContent.includes(words)",
        arg=words,
        timeout=15_000,
    )
    text: str = page.inner_text(BANNER)
    return text


def test_the_banner_counts_one_entry_and_two_in_german_and_says_when_one_was_refused(
    live_server: Any, browser: Any
) -> None:
    context = browser.new_context(locale="de-AT", viewport={"width": 390, "height": 844})
    context.set_default_timeout(10_000)
    try:
        page = _scorer_on_the_club_page(live_server, context)
        context.set_offline(True)
        page.evaluate(QUEUE, "k1")
        page.evaluate("window.dispatchEvent(new Event('offline'))")
        one = _says(page, "Kein Netz: 1 Eintrag wartet auf diesem Handy")
        assert "wird gesendet, sobald es wieder da ist" in one
        page.evaluate(QUEUE, "k2")
        page.evaluate("window.dispatchEvent(new Event('offline'))")
        _says(page, "Kein Netz: 2 Einträge warten auf diesem Handy")
        # Back online, the server refuses the first (no such game): it stops its queue.
        context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        _says(page, "1 ohne Netz eingetragener Eintrag wurde abgelehnt: Öffne sein Spiel")
        assert page.errors == []
    finally:
        context.close()


def test_a_page_whose_catalogue_did_not_load_says_it_in_english_and_still_works(
    live_server: Any, browser: Any
) -> None:
    # No service worker: it would answer /jsi18n/ from its cache, past the blocked route.
    context = browser.new_context(
        locale="de-AT", viewport={"width": 390, "height": 844}, service_workers="block"
    )
    context.set_default_timeout(10_000)
    context.route("**/jsi18n/**", lambda route: route.abort())
    try:
        page = _scorer_on_the_club_page(live_server, context)
        assert page.evaluate("typeof window.gettext") == "undefined"
        assert page.inner_text("h1")  # the page itself is German, from the server
        context.set_offline(True)
        page.evaluate(QUEUE, "k1")
        page.evaluate("window.dispatchEvent(new Event('offline'))")
        _says(page, "No network: 1 entry waits on this phone and is sent as soon as it is back.")
        assert page.errors == []
    finally:
        context.close()
