"""The main pages on a phone (390×844) and a desktop: no horizontal scrolling,
screenshots saved to artifacts/screenshots/ for a person to look at, and the
language switch in the page turning German into English and back."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail

from clubs import services as club_services
from clubs.models import Club, Role
from ledger import services as ledger_services
from tests.e2e.conftest import PHONE, no_horizontal_scroll, shoot
from tests.e2e.pages import log_in
from tests.e2e.tables import open_evening, players_of, record_game, start
from tests.factories import PASSWORD, ClubFactory, MembershipFactory, UserFactory
from tests.games.records import RE_PLAYED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _club_with_an_evening() -> dict[str, Any]:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="sepp")
    MembershipFactory.create(club=club, user=user, role=Role.OWNER)
    players = players_of(club, ("Anna", "Bert", "Carl", "Dora", "Emil", "Franziska"))
    evening = open_evening(club, players, seated=("anna", "bert", "carl", "dora", "emil"))
    finished = record_game(evening, players, RE_PLAYED_OUT)
    # Two more finished games so the charts have lines: no Kontra, Bert's side wins 10.
    first_trick = [("bert", "EO"), ("carl", "RA"), ("dora", "R10"), ("emil", "R9"), ("anna", "R7")]
    for _ in range(2):
        events = [
            *RE_PLAYED_OUT["events"][:2],
            *({"type": "play", "player": p, "card": c} for p, c in first_trick),
            {"type": "end_raising"},
        ]
        record_game(evening, players, {"game": "fuchsen", "events": events})
    in_progress = start(evening, players, None)
    ledger_services.settlement_plan_create(club=club, created_by=None, evening=evening)
    return {
        "club": club,
        "players": players,
        "evening": evening,
        "finished": finished,
        "in_progress": in_progress,
    }


def _pages(book: dict[str, Any]) -> dict[str, str]:
    club: Club = book["club"]
    return {
        "club-book": f"/clubs/{club.slug}/book/",
        "evening": f"/evenings/{book['evening'].pk}/",
        "record": f"/games/{book['in_progress'].pk}/",
        "replay": f"/games/{book['finished'].pk}/replay/",
        "standings": f"/clubs/{club.slug}/table/",
        "player": f"/clubs/{club.slug}/players/{book['players']['bert'].pk}/",
        "new-evening": f"/clubs/{club.slug}/evenings/new/",
        "evenings": f"/clubs/{club.slug}/evenings/",
        "all-time": f"/clubs/{club.slug}/all-time/",
        "new-game": f"/evenings/{book['evening'].pk}/new-game/",
        "club-page": f"/clubs/{club.slug}/",
        "password": "/accounts/password/",
    }


def test_the_main_pages_fit_a_phone_and_a_desktop(
    live_server: Any, phone: Any, desktop: Any
) -> None:
    book = _club_with_an_evening()
    for size, page in (("phone", phone), ("desktop", desktop)):
        log_in(page, live_server.url, "sepp")
        for name, path in _pages(book).items():
            response = page.goto(live_server.url + path)
            assert response is not None and response.status == 200, path
            if name == "record":
                page.wait_for_selector("#record[data-seq]")
            shoot(page, f"{size}-{name}")
            if size == "phone":
                assert no_horizontal_scroll(page), f"{path} scrolls sideways on a phone"


def test_the_language_switch_turns_the_pages_english_and_back(live_server: Any, phone: Any) -> None:
    book = _club_with_an_evening()
    page = phone
    log_in(page, live_server.url, "sepp", f"/evenings/{book['evening'].pk}/")
    assert page.get_attribute("html", "lang") == "de"
    assert "Neues Spiel" in page.inner_text("#new-game")
    page.select_option("#language", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert "New game" in page.inner_text("#new-game")
    shoot(page, "phone-evening-english")
    page.goto(f"{live_server.url}/games/{book['in_progress'].pk}/")
    page.wait_for_selector("#record[data-seq]")
    assert "Tap the card" in page.inner_text("#record") or "calls" in page.inner_text("#record")
    shoot(page, "phone-record-english")
    page.select_option("#language", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    page.wait_for_selector("#record[data-seq]")
    assert "Geber" in page.inner_text("#record")


def test_a_member_changes_the_password_from_the_footer(live_server: Any, phone: Any) -> None:
    UserFactory.create(username="resi")
    page = phone
    log_in(page, live_server.url, "resi")
    page.click("footer a[href='/accounts/password/']")
    page.fill("#id_old_password", PASSWORD)
    page.fill("#id_new_password1", "Schafkopf-Herzsolo-42")
    page.fill("#id_new_password2", "Schafkopf-Herzsolo-42")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert "Dein Passwort ist geändert." in page.inner_text(".messages")
    assert no_horizontal_scroll(page)


def test_a_member_who_forgot_the_password_sets_a_new_one_from_the_mail(
    live_server: Any, phone: Any
) -> None:
    UserFactory.create(username="resi", email="resi@example.org")
    page = phone
    page.goto(f"{live_server.url}/accounts/login/")
    page.click("text=Passwort vergessen?")
    page.fill("#id_email", "resi@example.org")
    page.click("main form button[type=submit]")
    page.wait_for_selector("text=Link verschickt")
    [message] = mail.outbox  # the live server runs in this process
    link = re.search(r"https?://\S+/accounts/password/reset/\S+/\S+/", str(message.body))
    assert link is not None
    page.goto(link.group(0))
    page.fill("#id_new_password1", "Schafkopf-Herzsolo-42")
    page.fill("#id_new_password2", "Schafkopf-Herzsolo-42")
    page.click("main form button[type=submit]")
    page.wait_for_selector("text=Dein neues Passwort ist gesetzt.")
    assert no_horizontal_scroll(page)


def test_a_scorer_books_a_payment_and_settles_the_season_on_a_phone(
    live_server: Any, phone: Any
) -> None:
    book = _club_with_an_evening()
    page = phone
    evening = book["evening"]
    log_in(page, live_server.url, "sepp", f"/evenings/{evening.pk}/")
    page.click("#payment summary")
    page.select_option("#payer", label="Anna")
    page.select_option("#payee", label="Bert")
    page.fill("#amount", "15")
    with page.expect_navigation():
        page.click("#payment-form button[type=submit]")
    assert "Zahlung gebucht: Anna hat Bert 15" in page.inner_text("#payment .form-message")
    paid = page.inner_text(f"#balances tr[data-player='{book['players']['anna'].pk}']")
    assert "15" in paid
    assert no_horizontal_scroll(page)

    page.goto(f"{live_server.url}/clubs/{book['club'].slug}/table/")
    with page.expect_navigation():
        page.click("#settle")
    assert page.locator("#transfers li").count() >= 1
    with page.expect_navigation():
        page.click("#transfers li button")
    assert page.locator("#transfers li.paid").count() == 1
    assert no_horizontal_scroll(page)
    shoot(page, "phone-season-settlement")


def test_the_settlement_goes_to_the_clipboard_as_text_where_the_phone_cannot_share(
    live_server: Any, browser: Any
) -> None:
    book = _club_with_an_evening()
    evening = book["evening"]
    context = browser.new_context(viewport=PHONE, locale="de-AT")
    context.set_default_timeout(10_000)
    # Headless Chromium may or may not offer a share sheet: take it away, so that the
    # button falls back to the clipboard, which the test can read.
    context.add_init_script("delete Navigator.prototype.share;")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "sepp", f"/evenings/{evening.pk}/")
        with page.expect_navigation():
            page.click("#settle")
        page.click("#share summary")
        shown = page.input_value("#share-text")
        assert "Wer zahlt wem:" in shown and " → " in shown
        page.click("#share-button")
        page.wait_for_selector("#share-button:has-text('Kopiert')")
        assert page.evaluate("navigator.clipboard.readText()") == shown
        assert no_horizontal_scroll(page)
    finally:
        context.close()


def test_an_owner_closes_the_evening_and_opens_it_again_for_a_late_game(
    live_server: Any, phone: Any
) -> None:
    book = _club_with_an_evening()
    evening = book["evening"]
    page = phone
    log_in(page, live_server.url, "sepp", f"/evenings/{evening.pk}/")
    page.once("dialog", lambda dialog: dialog.accept())  # "Close the evening?"
    page.click("#close-evening")
    page.wait_for_selector("#reopen-evening")
    assert page.locator("#new-game").count() == 0
    page.click("#reopen-evening")
    page.wait_for_selector("text=Der Spielabend ist wieder offen")
    assert page.locator("#close-evening").count() == 1
    assert page.locator("#new-game").count() == 1
    assert no_horizontal_scroll(page)


def test_a_member_finds_an_old_evening_through_the_list_of_all_evenings(
    live_server: Any, phone: Any
) -> None:
    book = _club_with_an_evening()
    club, evening = book["club"], book["evening"]
    page = phone
    log_in(page, live_server.url, "sepp", f"/clubs/{club.slug}/book/")
    # Each step waits for its page's load: the season menu goes on change through
    # page.js (a deferred script), which a choice made before it runs would miss.
    with page.expect_navigation():
        page.click("#all-evenings")
    season = evening.season
    with page.expect_navigation(url=f"**/evenings/?season={season.pk}"):
        page.select_option(
            "#season-pick", label=f"{season.name} · {season.get_game_kind_display()}"
        )
    with page.expect_navigation(url=f"**/evenings/{evening.pk}/"):
        page.click(f"#evenings li[data-evening='{evening.pk}'] a")
    assert no_horizontal_scroll(page)


def test_a_scorer_deletes_an_evening_opened_by_mistake(live_server: Any, phone: Any) -> None:
    book = _club_with_an_evening()
    club = book["club"]
    players = book["players"]
    mistake = open_evening(club, players, seated=("anna", "bert", "carl", "dora"))
    page = phone
    log_in(page, live_server.url, "sepp", f"/evenings/{mistake.pk}/")
    page.once("dialog", lambda dialog: dialog.accept())  # "Delete this evening?"
    page.click("#delete-evening")
    page.wait_for_url(f"**/clubs/{club.slug}/book/")
    assert "Der Spielabend ist gelöscht." in page.inner_text(".messages")
    page.goto(f"{live_server.url}/evenings/{book['evening'].pk}/")
    assert page.locator("#delete-evening").count() == 0  # it holds games


def test_an_owner_opens_a_closed_season_again_from_the_club_page(
    live_server: Any, phone: Any
) -> None:
    book = _club_with_an_evening()
    club = book["club"]
    season = book["evening"].season
    club_services.season_close(season=season)
    page = phone
    log_in(page, live_server.url, "sepp", f"/clubs/{club.slug}/")
    page.click(f"button[data-reopen='{season.pk}']")
    page.wait_for_selector("text=ist wieder offen")
    assert page.locator(f"button[data-reopen='{season.pk}']").count() == 0
    assert no_horizontal_scroll(page)


def test_a_scorer_reverses_a_payment_booked_by_mistake(live_server: Any, phone: Any) -> None:
    book = _club_with_an_evening()
    evening, players = book["evening"], book["players"]
    wrong = ledger_services.payment_record(
        club=book["club"],
        payer=players["anna"],
        payee=players["carl"],
        amount=25,
        recorded_by=None,
        evening=evening,
    )
    page = phone
    log_in(page, live_server.url, "sepp", f"/evenings/{evening.pk}/")
    before = page.inner_text(f"#balances tr[data-player='{players['anna'].pk}']")
    page.click("#payments summary")
    page.once("dialog", lambda dialog: dialog.accept())  # "Reverse this payment?"
    page.click(f"#payment-list li[data-payment='{wrong.pk}'] button")
    page.wait_for_selector("text=Zahlung storniert")
    after = page.inner_text(f"#balances tr[data-player='{players['anna'].pk}']")
    assert "25" in before and "25" not in after
    page.click("#payments summary")
    assert page.locator("#payment-list li").count() == 2  # the payment and its reversal
    assert page.locator("#payment-list li button").count() == 0
    assert no_horizontal_scroll(page)
