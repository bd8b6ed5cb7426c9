"""A new club gets ready for its first evening on a phone, without the API: it is
founded, opens a season, adds its players and seats them."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from clubs.models import Player, Role, RuleProfile, Season
from games.models import Evening
from tests.e2e.conftest import no_horizontal_scroll, shoot
from tests.e2e.pages import log_in
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_new_club_opens_a_season_adds_players_and_seats_them(
    live_server: Any, phone: Any
) -> None:
    UserFactory.create(username="sepp")
    page = phone
    log_in(page, live_server.url, "sepp", "/clubs/new/")
    page.fill("#id_name", "Kartenrunde Graden")
    page.click("main form button[type=submit]")
    page.wait_for_url("**/clubs/kartenrunde-graden/")

    # No season yet: the form to open one is already unfolded.
    assert page.is_visible("#season-form")
    page.fill("#id_name", "Fuchsen 2027")
    page.select_option("#id_game_kind", "fuchsen")
    # Begun a month ago: the evening opened below is today's, and an evening must lie
    # within its season.
    page.fill("#id_start", (datetime.date.today() - datetime.timedelta(days=30)).isoformat())
    with page.expect_navigation():
        page.click("#season-form button[type=submit]")
    assert "Die Saison Fuchsen 2027 ist eröffnet." in page.inner_text("#seasons .form-message")

    for name in ("Anna", "Bert", "Carl", "Dora"):
        page.fill("#id_display_name", name)
        with page.expect_navigation():
            page.click("#player-form button[type=submit]")
        assert f"{name} spielt jetzt im Verein mit." in page.inner_text("#players .form-message")
    # A name twice is refused at the field, and the page says why.
    page.fill("#id_display_name", "anna")
    with page.expect_navigation():
        page.click("#player-form button[type=submit]")
    assert "Der Verein hat schon einen Spieler mit diesem Namen." in page.inner_text("#player-form")
    assert no_horizontal_scroll(page)
    shoot(page, "club-page-managed-phone")

    # The founder plays too: the club made him a player named after his account.
    founder = Player.objects.get(user__username="sepp").display_name
    page.goto(f"{live_server.url}/clubs/kartenrunde-graden/evenings/new/")
    # The players tapped in the order they sit: one tap each, not a list per seat.
    ids = {p.display_name: str(p.pk) for p in Player.objects.all()}
    seated = (founder, "Anna", "Bert", "Carl", "Dora")
    for name in seated:
        page.click(f'#seat-order button[data-player="{ids[name]}"]')
    # A wrong tap is taken back by tapping again; the ones after move up.
    page.click(f'#seat-order button[data-player="{ids["Bert"]}"]')
    page.click(f'#seat-order button[data-player="{ids["Bert"]}"]')
    assert page.inner_text(f'#seat-order button[data-player="{ids["Bert"]}"]').startswith("5.")
    chosen = [page.input_value(f"#seat{i}") for i in range(1, 6)]
    assert chosen == [ids[n] for n in (founder, "Anna", "Carl", "Dora", "Bert")]
    assert no_horizontal_scroll(page)
    page.click("#evening-form button[type=submit]")
    page.wait_for_url("**/evenings/*/")
    assert "Am Tisch" in page.inner_text("main")

    season = Season.objects.get(name="Fuchsen 2027")
    assert season.status == Season.Status.OPEN
    assert Player.objects.filter(club=season.club).count() == 5
    evening = Evening.objects.get(season=season)
    assert evening.seats.count() == 5
    assert [s.player.display_name for s in evening.seats.order_by("position")] == [
        founder,
        "Anna",
        "Carl",
        "Dora",
        "Bert",
    ]


def test_an_admin_writes_the_clubs_house_rules_on_a_phone(live_server: Any, phone: Any) -> None:
    user = UserFactory.create(username="resi")
    club = ClubFactory.create(name="Kartenrunde Graden", slug="graden")
    MembershipFactory.create(club=club, user=user, role=Role.ADMIN)
    page = phone
    log_in(page, live_server.url, "resi", "/clubs/graden/")
    with page.expect_navigation():
        page.click("#rules a[href$='/rules/new/fuchsen/']")
    page.fill("#id_name", "Gasthaus Post")
    page.uncheck("#id_strict_raise_windows")
    page.fill("#id_fuchs_penalty", "20")
    assert no_horizontal_scroll(page)
    with page.expect_navigation():
        page.click("#rules-form button[type=submit]")
    assert "Die Hausregeln Gasthaus Post sind gespeichert." in page.inner_text(".messages")
    assert "geändert (Standard: 10)" in page.inner_text("#rules-form")
    shoot(page, "house-rules-phone")
    profile = RuleProfile.objects.get(club=club)
    assert profile.overrides == {"strict_raise_windows": False, "fuchs_penalty": 20}
