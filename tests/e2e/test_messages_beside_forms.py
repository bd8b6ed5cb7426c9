"""On a phone (390×844), a refused form says why right beside the form, which stays
open with what was typed; the page lands at the form, not 700 px above it."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Role
from ledger.models import Payment
from tests.e2e.conftest import shoot
from tests.e2e.pages import log_in
from tests.e2e.tables import open_evening, players_of, record_game
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.records import RE_PLAYED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _evening() -> Any:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    MembershipFactory.create(club=club, user=UserFactory.create(username="sepp"), role=Role.OWNER)
    players = players_of(club, ("Anna", "Bert", "Carl", "Dora", "Emil"))
    evening = open_evening(club, players)
    record_game(evening, players, RE_PLAYED_OUT)
    return evening


def _in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_a_refused_payment_is_explained_beside_the_open_form_that_keeps_its_input(
    live_server: Any, phone: Any
) -> None:
    evening = _evening()
    page = phone
    log_in(page, live_server.url, "sepp", f"/evenings/{evening.pk}/")
    page.click("#payment summary")
    page.select_option("#payer", label="Anna")
    page.select_option("#payee", label="Anna")
    page.fill("#amount", "60")
    with page.expect_navigation():
        page.click("#payment-form button[type=submit]")
    message = "#payment .form-message.error"
    assert "Ein Spieler kann sich nicht selbst bezahlen." in page.inner_text(message)
    assert _in_view(page, message)
    assert page.is_visible("#payment-form")  # still open
    assert page.eval_on_selector("#payer", "e => e.selectedOptions[0].text") == "Anna"
    assert page.input_value("#amount") == "60"
    assert "selbst bezahlen" not in page.inner_text("ul.messages")
    shoot(page, "phone-payment-refused")
    # Put right on the spot: the same form books it.
    page.select_option("#payee", label="Bert")
    with page.expect_navigation():
        page.click("#payment-form button[type=submit]")
    assert "Zahlung gebucht: Anna hat Bert 60" in page.inner_text("#payment .form-message")
    assert _in_view(page, "#payment .form-message")
    assert Payment.objects.filter(evening=evening, amount=60).count() == 1


def test_a_player_added_on_the_club_page_is_announced_beside_the_player_form(
    live_server: Any, phone: Any
) -> None:
    evening = _evening()
    page = phone
    log_in(page, live_server.url, "sepp", f"/clubs/{evening.club.slug}/")
    page.fill("#id_display_name", "Toni")
    with page.expect_navigation():
        page.click("#player-form button[type=submit]")
    assert "Toni spielt jetzt im Verein mit." in page.inner_text("#players .form-message")
    assert _in_view(page, "#players .form-message")
