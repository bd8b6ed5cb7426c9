"""After logging out, the phone keeps no page of the account and no queued event
(real Chromium with the service worker; issue 38, point 5).

The attack: the owner's club page (with an open admin invitation link) and his
account page (with his devices) were cached by the service worker; offline after
his logout both still opened. Now pages with secrets answer ``no-store`` (never
cached) and the logout answers ``Clear-Site-Data``: caches and outbox are gone.
"""

from __future__ import annotations

from typing import Any

import pytest

from clubs import services as club_services
from clubs.models import Role
from tests.e2e.pages import log_in
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CACHED_PAGES = """async () => {
  const found = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) found.push(new URL(request.url).pathname);
  }
  return found;
}"""

OUTBOX_ITEMS = """() => new Promise((resolve) => {
  const open = indexedDB.open("stichbuch-offline", 1);
  open.onupgradeneeded = () =>
    open.result.createObjectStore("queue", { keyPath: "id", autoIncrement: true });
  open.onsuccess = () => {
    const request = open.result.transaction("queue").objectStore("queue").count();
    request.onsuccess = () => { open.result.close(); resolve(request.result); };
  };
})"""

QUEUE_ONE = """() => new Promise((resolve) => {
  const open = indexedDB.open("stichbuch-offline", 1);
  open.onupgradeneeded = () =>
    open.result.createObjectStore("queue", { keyPath: "id", autoIncrement: true });
  open.onsuccess = () => {
    const tx = open.result.transaction("queue", "readwrite");
    tx.objectStore("queue").add({ key: "k1", url: "/api/games/1/events/", body: "{}" });
    tx.oncomplete = () => { open.result.close(); resolve(true); };
  };
})"""


def test_offline_after_logout_no_page_of_the_account_opens_and_the_outbox_is_empty(
    live_server: Any, browser: Any
) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    owner = UserFactory.create(username="sepp")
    MembershipFactory.create(club=club, user=owner, role=Role.OWNER)
    invitation = club_services.invitation_create(club=club, created_by=owner, role=Role.ADMIN)
    club_services.api_token_create(user=owner, name="Sepps Handy")
    context = browser.new_context(locale="de-AT", viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "sepp", "/")
        page.evaluate(
            "async () => { await navigator.serviceWorker.register('/sw.js');"
            " await navigator.serviceWorker.ready; }"
        )
        page.reload()  # now under the service worker's control
        page.wait_for_function("() => !!navigator.serviceWorker.controller")
        for path in ("/clubs/post/", "/accounts/password/", "/"):
            page.goto(f"{live_server.url}{path}")
        assert invitation.token in page.goto(f"{live_server.url}/clubs/post/").text()
        # The worker stores a page after answering it: wait for the home page's copy.
        page.wait_for_function(f"async () => ({CACHED_PAGES})().then(p => p.includes('/'))")
        cached = page.evaluate(CACHED_PAGES)
        assert "/" in cached  # an ordinary page is kept for offline use ...
        assert "/clubs/post/" not in cached  # ... one with a secret never
        assert "/accounts/password/" not in cached
        page.evaluate(QUEUE_ONE)
        assert page.evaluate(OUTBOX_ITEMS) == 1

        page.click("header form button[type=submit]")  # "Abmelden"
        # The queued item names no game: sent first, it is refused and still waits, so
        # the page asks (test_logout_keeps_waiting_entries.py); he logs out anyway.
        page.get_by_role("button", name="Trotzdem abmelden").click()
        page.wait_for_selector('header a[href="/accounts/login/"]')
        assert page.evaluate(CACHED_PAGES) == []
        assert page.evaluate(OUTBOX_ITEMS) == 0

        context.set_offline(True)
        for path in ("/clubs/post/", "/accounts/password/", "/"):
            try:
                shown = page.goto(f"{live_server.url}{path}")
            except Exception:  # net::ERR_INTERNET_DISCONNECTED: nothing kept to show
                continue
            assert shown is None or invitation.token not in page.content()
            assert "Sepps Handy" not in page.content()
    finally:
        context.close()
