"""An invitation link is handed on from the club page with one tap (real Chromium):
through the phone's share sheet with a line naming the club, or where there is none
to the clipboard, the button then saying so. copy_link.js takes both sentences from
the JS catalogue, in the page's language, and the club's name from the button."""

from __future__ import annotations

from typing import Any

import pytest

from clubs import services as club_services
from clubs.models import Role
from tests.e2e.pages import log_in
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# A share sheet that keeps what it was given, as a chat app would receive it.
SHARE_SHEET = """
Navigator.prototype.share = function (data) { window.__shared = data; return Promise.resolve(); };
"""


def _owner_with_an_invitation() -> str:
    club = ClubFactory.create(name="Stammtisch $& Post", slug="post")  # "$&": kept as it is
    owner = UserFactory.create(username="sepp")
    MembershipFactory.create(club=club, user=owner, role=Role.OWNER)
    invitation = club_services.invitation_create(club=club, created_by=owner, role=Role.MEMBER)
    return f"/join/{invitation.token}/"


def test_the_share_sheet_gets_the_link_and_a_line_naming_the_club_in_german(
    live_server: Any, browser: Any
) -> None:
    link = _owner_with_an_invitation()
    context = browser.new_context(locale="de-AT", viewport={"width": 390, "height": 844})
    context.set_default_timeout(10_000)
    context.add_init_script(SHARE_SHEET)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "sepp", "/clubs/post/")
        page.click("button.share-link")
        page.wait_for_function("() => !!window.__shared")
        shared = page.evaluate("window.__shared")
        assert shared["text"] == "Tritt Stammtisch $& Post im Stichbuch bei:"
        assert shared["url"].endswith(link)
    finally:
        context.close()


def test_without_a_share_sheet_the_link_is_copied_and_the_button_says_so(
    live_server: Any, browser: Any
) -> None:
    link = _owner_with_an_invitation()
    context = browser.new_context(locale="de-AT", viewport={"width": 390, "height": 844})
    context.set_default_timeout(10_000)
    context.add_init_script("delete Navigator.prototype.share;")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "sepp", "/clubs/post/")
        page.click("button.share-link")
        page.wait_for_selector("button.share-link:has-text('Kopiert')")
        assert page.evaluate("navigator.clipboard.readText()").endswith(link)
    finally:
        context.close()
