"""The recording page opened again without a network still speaks German (real
Chromium with the service worker): its sentences come from the JS catalogue
(``/jsi18n/de/``), which the worker keeps beside the page and the scripts."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Role
from tests.e2e.pages import RecordingPage, log_in
from tests.e2e.tables import open_evening, players_of, start
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.records import RE_PLAYED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_recording_page_reopened_offline_shows_its_german_words(
    live_server: Any, browser: Any
) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    players = players_of(club)
    evening = open_evening(club, players)
    game = start(evening, players, RE_PLAYED_OUT["events"][0])
    context = browser.new_context(locale="de-AT", viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "schreiber", f"/games/{game.pk}/")
        RecordingPage(page, players).wait_ready()
        # offline.js registers the worker; once it controls the page, the page is kept.
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        page.reload()
        page.wait_for_function("() => !!navigator.serviceWorker.controller")
        RecordingPage(page, players).wait_ready()
        page.wait_for_function("async () => !!(await caches.match('/jsi18n/de/'))")

        context.set_offline(True)
        page.reload()
        page.wait_for_selector("#record .offline-grid")
        assert page.inner_text("#record .offline-grid h2") == "Kein Netz: ungeprüft eintragen"
        assert page.evaluate("() => window.gettext('Undo')") == "Rückgängig"
    finally:
        context.close()
