"""A tournament evening in real Chromium, on phones.

The organiser sets up eleven players for Fuchsen, draws with larger tables (a
table of six and one of five), looks at the draw and confirms it, and opens a
ranking link. A third phone shows that link (no login). Two scorers record two
deals each at their tables with "Ergebnis eintragen"; the watching phone's
ranking changes after each save (the time is printed, asserted only as "shown").
The organiser closes a sheet, prints the seating plan, a score sheet and the
ranking to PDF, and axe finds no serious violation on the tournament's pages.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from clubs.models import Player, Role
from tests.e2e.conftest import PHONE, no_horizontal_scroll, shoot
from tests.e2e.pages import log_in
from tests.e2e.test_accessibility import SERIOUS, _violations
from tests.e2e.test_tally_entry import TallyForm
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory
from tournaments.models import Tournament, TournamentTable

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = (
    "Anna",
    "Bert",
    "Carl",
    "Dora",
    "Emil",
    "Fritz",
    "Gerda",
    "Hans",
    "Ida",
    "Jakob",
    "Karin",
)
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "pdf"


def _phone(browser: Any, *, bypass_csp: bool = False) -> Any:
    context = browser.new_context(viewport=PHONE, locale="de-AT", bypass_csp=bypass_csp)
    context.set_default_timeout(15_000)
    return context


def _totals(page: Any) -> list[str]:
    cells: list[str] = page.locator("#ranking-table tbody td.total").all_inner_texts()
    return cells


def _record_two_deals(page: Any, url: str, table: TournamentTable, watcher: Any) -> list[float]:
    """Two deals at the table by its evening page's tally form; after each save the
    seconds until the watching phone's ranking changed."""
    players: dict[str, Player] = {}
    assert table.evening is not None
    for seat in table.evening.seats.select_related("player"):
        players[seat.player.display_name.lower()] = seat.player
    page.goto(f"{url}/evenings/{table.evening.pk}/")
    form = TallyForm(page, players)
    delays = []
    for _deal in range(2):
        dealer = form.dealer()
        active = [name for name in players if name != dealer or len(players) < 6]
        macher, partner = active[0], active[1]
        before = _totals(watcher)
        form.deal(
            [
                ("macher", macher),
                ("called", "EA"),
                ("partner", partner),
                ("level", "re"),
                ("won", "1"),
            ]
        )
        saved = time.perf_counter()
        watcher.wait_for_function(
            "before => JSON.stringify(Array.from(document.querySelectorAll("
            "'#ranking-table tbody td.total')).map(td => td.textContent)) !== before",
            arg=__import__("json").dumps(before),
        )
        delays.append(time.perf_counter() - saved)
    return delays


def test_an_organiser_runs_a_series_of_two_tables_while_a_third_phone_watches(
    live_server: Any, browser: Any
) -> None:
    club = ClubFactory.create(name="Preisfuchsen Kreuzwirt", slug="kreuzwirt")
    for username, role in (
        ("veranstalterin", Role.ADMIN),
        ("schreiber1", Role.SCORER),
        ("schreiber2", Role.SCORER),
    ):
        MembershipFactory.create(club=club, user=UserFactory.create(username=username), role=role)
    for name in NAMES:
        PlayerFactory.create(club=club, display_name=name)

    contexts = [_phone(browser, bypass_csp=True), _phone(browser), _phone(browser), _phone(browser)]
    try:
        organiser, first, second, watcher = (c.new_page() for c in contexts)
        url = live_server.url
        log_in(organiser, url, "veranstalterin", f"/clubs/{club.slug}/tournaments/")
        organiser.fill("#t-name", "Preisfuchsen im Advent")
        organiser.fill("#t-series", "2")
        organiser.fill("#t-deals", "2")
        for box in organiser.locator("fieldset.players input[type=checkbox]").all():
            box.check()
        organiser.click("#tournament-new button[type=submit]")
        organiser.wait_for_selector("#seed")
        tournament = Tournament.objects.get()
        assert organiser.inner_text("#seed") == tournament.seed
        assert organiser.locator("#participant-list tbody tr").count() == 11

        organiser.select_option("#draw-leftover", "larger_tables")
        organiser.click("#draw button[type=submit]")
        organiser.wait_for_selector("#confirm-draw")
        sizes = sorted(
            organiser.locator(f"#series-1 li.table-card[data-table='{n}'] ol.seats li").count()
            for n in (1, 2)
        )
        assert sizes == [5, 6]
        assert no_horizontal_scroll(organiser)
        shoot(organiser, "phone-tournament-draw")
        organiser.click("#confirm-draw")
        organiser.wait_for_selector("#series-1 a[href*='/evenings/']")

        organiser.click("#links button[type=submit], form[action$='/links/new/'] button")
        organiser.wait_for_selector("#links ~ ul .copy, ul.cards .copy")
        link = organiser.locator("ul.cards .copy").first.inner_text().strip()
        watcher.goto(link)
        watcher.wait_for_selector("#ranking-table")
        assert _totals(watcher) == ["0 ct"] * 11

        log_in(first, url, "schreiber1", "/")
        log_in(second, url, "schreiber2", "/")
        tables = list(TournamentTable.objects.filter(series__number=1).order_by("number"))
        delays = _record_two_deals(first, url, tables[0], watcher)
        delays += _record_two_deals(second, url, tables[1], watcher)
        print(
            "saved at a table → shown on the watching phone: "
            + ", ".join(f"{d * 1000:.0f} ms" for d in delays)
        )
        assert any(total.startswith("+") for total in _totals(watcher))
        watcher.wait_for_function(
            "() => document.getElementById('ranking-progress').textContent"
            ".includes('Tisch 2: 2 von 2')"
        )
        assert "Tisch 1: 2 von 2" in watcher.inner_text("#ranking-progress")
        shoot(watcher, "phone-tournament-ranking")

        # The organiser agrees for everyone at table 1: "Liste abgeschlossen".
        organiser.goto(f"{url}/clubs/{club.slug}/tournaments/{tournament.pk}/series/1/tables/1/")
        while organiser.locator("#sheet-seats button[type=submit]").count():
            organiser.locator("#sheet-seats button[type=submit]").first.click()
            organiser.wait_for_load_state()
        organiser.wait_for_selector("#sheet-closed")

        # Paper: the seating plan, a score sheet and the ranking, printed to PDF.
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        base = f"{url}/clubs/{club.slug}/tournaments/{tournament.pk}/"
        for name, path in (
            ("aushang", "print/series/1/"),
            ("spielliste", "series/1/tables/2/print/"),
            ("wertung", "print/ranking/"),
        ):
            organiser.goto(base + path)
            pdf = organiser.pdf(format="A4", prefer_css_page_size=True)
            (ARTIFACTS / f"tournament-{name}.pdf").write_bytes(pdf)
            assert pdf.startswith(b"%PDF") and b"/Type /Page" in pdf

        # axe (the organiser's context lets the test's own script in).
        found = []
        for path in ("", "series/1/tables/1/", "ranking/", "print/series/1/"):
            organiser.goto(base + path)
            organiser.wait_for_load_state("networkidle")
            found += [
                (path, v["id"], v["nodes"])
                for v in _violations(organiser)
                if v["impact"] in SERIOUS
            ]
        assert found == []
    finally:
        for context in contexts:
            context.close()
