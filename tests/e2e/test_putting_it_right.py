"""Putting a saved game right at the table, in real Chromium at 390×844, taps counted
and printed: "Ergebnis ändern" on a result typed in (the form opens filled, one saving
request undoes it and enters the new one), and "ändern" on an entry three back in
"Alle Einträge" (the page replaces it and enters the later ones again in one request;
a later entry that no longer fits is named and left out); a wrong called card or a
wrong Macher is one tap on the right one in the call's "ändern"."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Player, Role
from games import selectors, services
from games.models import Evening, Game, GameEvent
from tests.e2e.conftest import no_horizontal_scroll, shoot
from tests.e2e.pages import RecordingPage, log_in
from tests.e2e.tables import open_evening, players_of, record_game
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _club(live_server: Any, page: Any) -> tuple[dict[str, Player], Evening]:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    players = players_of(club)
    evening = open_evening(club, players)
    log_in(page, live_server.url, "schreiber", f"/evenings/{evening.pk}/")
    return players, evening


def _typed_in(evening: Evening, players: dict[str, Player], level: str, won: bool) -> Game:
    """A result typed in: Bert calls the Eichel-Zehner, Carl holds it."""
    deal = selectors.next_deal(evening=evening).event
    assert deal is not None
    tally = {"type": "tally", "level": level, "won": won, "partner": str(players["carl"].pk)}
    events = [deal, {"type": "call", "player": str(players["bert"].pk), "card": "E10"}, tally]
    return services.game_started(evening=evening, user=None, events=events).game


class Taps:
    """Counts the taps, and the requests that write (POSTs that save)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0
        self.saves = 0
        page.on("request", self._saving)

    def _saving(self, request: Any) -> None:
        body = request.post_data or ""
        if request.method == "POST" and ("save=1" in body or "/events/" in request.url):
            self.saves += 1

    def tap(self, selector: str, *, navigates: bool = False, htmx: bool = False) -> None:
        self.count += 1
        if navigates:
            with self.page.expect_navigation():
                self.page.click(selector)
            self.page.wait_for_load_state()
        elif htmx:
            with self.page.expect_response(lambda r: r.request.method == "POST"):
                self.page.click(selector)
            self.page.wait_for_function(
                "() => document.getElementById('tally')"
                " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
            )
        else:
            self.page.click(selector)


def test_a_saved_result_is_changed_in_three_taps_and_one_saving_request(
    live_server: Any, phone: Any
) -> None:
    players, evening = _club(live_server, phone)
    game = _typed_in(evening, players, "re", True)
    _typed_in(evening, players, "kontra", False)  # a later game: the list holds two
    phone.goto(f"{live_server.url}/evenings/{evening.pk}/")
    taps = Taps(phone)
    taps.tap(f'.games-list li[data-game="{game.pk}"] a.change-result', navigates=True)
    # The form opens filled: the Macher, the called card, Re, won.
    pressed = phone.eval_on_selector_all(
        '#tally button[aria-pressed="true"]', "bs => bs.map(b => b.value)"
    )
    assert f"macher:{players['bert'].pk}" in pressed
    assert "called:E10" in pressed and "level:re" in pressed and "won:1" in pressed
    assert no_horizontal_scroll(phone)
    taps.tap('#tally button[value="level:supp"]', htmx=True)
    taps.tap("#tally-save", navigates=True)
    print(f"\n'Ergebnis ändern' of a saved result: {taps.count} taps, {taps.saves} saving request")
    shoot(phone, "phone-result-changed")
    assert taps.count <= 3
    assert taps.saves == 1
    game.refresh_from_db()
    assert game.result["level"] == "supp" and game.status == Game.Status.FINISHED
    assert [e.type for e in GameEvent.objects.filter(game=game).order_by("seq")] == [
        "deal",
        "call",
        "tally",
        "undo",
        "undo",
        "call",
        "tally",
    ]
    assert "Supp" in phone.inner_text(f'.games-list li[data-game="{game.pk}"]')


def test_its_result_offers_the_change_too(live_server: Any, phone: Any) -> None:
    players, evening = _club(live_server, phone)
    game = _typed_in(evening, players, "re", True)
    phone.goto(f"{live_server.url}/games/{game.pk}/replay/")
    taps = Taps(phone)
    taps.tap("#change-result", navigates=True)
    taps.tap('#tally button[value="won:0"]', htmx=True)
    taps.tap("#tally-save", navigates=True)
    print(f"\n'Ergebnis ändern' from the result: {taps.count} taps")
    assert taps.count <= 3 and taps.saves == 1
    game.refresh_from_db()
    assert game.result["won"] is False


# Without hands (as at most tables): trick 1 with Kontra and Re, then trick 2, where
# Carl's Grün-Sau was tapped for his Rot-Unter. Nothing proves it wrong: the engine
# cannot object, three entries later it is noticed.
NO_HANDS = [
    {"type": "deal", "dealer": "anna", "players": ["anna", "bert", "carl", "dora", "emil"]},
    {"type": "call", "player": "bert", "card": "E10"},
    *[{"type": "play", "player": p, "card": c} for p, c in (("bert", "EO"), ("carl", "RA"))],
    {"type": "play", "player": "dora", "card": "R10"},
    {"type": "raise", "player": "dora", "level": "kontra"},
    {"type": "raise", "player": "carl", "level": "re"},
    *[{"type": "play", "player": p, "card": c} for p, c in (("emil", "R9"), ("anna", "R7"))],
    {"type": "end_raising"},
    *[
        {"type": "play", "player": p, "card": c}
        for p, c in (("bert", "GO"), ("carl", "GA"), ("dora", "RK"), ("emil", "RO"))
    ],
]
WRONG_AT = 11  # Carl's Grün-Sau, three entries back


def _change_card(live_server: Any, phone: Any, right: str) -> tuple[Game, Taps]:
    players, evening = _club(live_server, phone)
    game = record_game(evening, players, {"game": "fuchsen", "events": NO_HANDS})
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    table = RecordingPage(phone, players)
    table.wait_ready()
    taps = Taps(phone)
    taps.tap("#record details.log > summary")
    taps.tap(f'#record button[data-act="edit-entry"][data-index="{WRONG_AT}"]')
    before = table.seq()
    taps.tap(f'#record .panel.editing button[data-act="edit-pick"][data-card="{right}"]')
    phone.wait_for_function(
        "seq => { const r = document.getElementById('record');"
        " return r.getAttribute('aria-busy') === 'false' && r.dataset.seq !== String(seq); }",
        arg=before,
    )
    assert phone.query_selector("#record .engine-error") is None
    return game, taps


def _standing(game: Game) -> list[dict[str, Any]]:
    from engine import table_view

    record = selectors.game_record(game=game)
    return [record["events"][i] for i in table_view(record).to_dict()["effective"]]


def test_a_card_three_entries_back_is_changed_in_three_taps(live_server: Any, phone: Any) -> None:
    game, taps = _change_card(live_server, phone, "RU")
    print(f"\nA card three entries back changed: {taps.count} taps, {taps.saves} request")
    shoot(phone, "phone-entry-changed")
    assert taps.count <= 3 and taps.saves == 1
    standing = _standing(game)
    assert len(standing) == len(NO_HANDS)
    assert standing[WRONG_AT]["card"] == "RU"
    assert [e.get("card") for e in standing[WRONG_AT + 1 :]] == ["RK", "RO"]
    assert phone.query_selector("#record .left-out") is None


def test_a_later_entry_that_no_longer_fits_is_named_and_left_out(
    live_server: Any, phone: Any
) -> None:
    # Carl played the Rot-König, it is said: then Dora's Rot-König cannot stand.
    game, taps = _change_card(live_server, phone, "RK")
    assert taps.saves == 1
    standing = _standing(game)
    assert len(standing) == WRONG_AT + 1 and standing[WRONG_AT]["card"] == "RK"
    note = phone.inner_text("#record .left-out")
    print(f"\nThe page says: {note}")
    assert "Dora" in note and "Rot-König" in note
    shoot(phone, "phone-entry-changed-left-out")


# A call typed in wrong and noticed once the first cards are down: the called card, or
# the Macher (nobody has played the Eichel-Ober yet, so nothing proves him wrong).
WRONG_CALL = [
    {"type": "deal", "dealer": "anna", "players": ["anna", "bert", "carl", "dora", "emil"]},
    {"type": "call", "player": "emil", "card": "E10"},
    *[{"type": "play", "player": p, "card": c} for p, c in (("bert", "RA"), ("carl", "R10"))],
]


def _change_call(live_server: Any, phone: Any, tap: str) -> tuple[Game, Taps]:
    players, evening = _club(live_server, phone)
    game = record_game(evening, players, {"game": "fuchsen", "events": WRONG_CALL})
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    table = RecordingPage(phone, players)
    table.wait_ready()
    taps = Taps(phone)
    taps.tap("#record details.log > summary")
    taps.tap('#record button[data-act="edit-entry"][data-index="1"]')
    before = table.seq()
    taps.tap(f"#record .panel.editing {tap}")
    phone.wait_for_function(
        "seq => { const r = document.getElementById('record');"
        " return r.getAttribute('aria-busy') === 'false' && r.dataset.seq !== String(seq); }",
        arg=before,
    )
    assert phone.query_selector("#record .engine-error") is None
    return game, taps


def test_a_wrong_called_card_is_put_right_in_three_taps(live_server: Any, phone: Any) -> None:
    game, taps = _change_call(live_server, phone, 'button[data-act="edit-pick"][data-card="S10"]')
    print(f"\nA wrong called card put right: {taps.count} taps, {taps.saves} request")
    assert taps.count <= 3 and taps.saves == 1
    standing = _standing(game)
    assert standing[1] == {"type": "call", "player": standing[1]["player"], "card": "S10"}
    assert [e.get("card") for e in standing[2:]] == ["RA", "R10"]


def test_a_wrong_macher_is_put_right_in_three_taps(live_server: Any, phone: Any) -> None:
    game, taps = _change_call(live_server, phone, 'button[data-act="edit-who"]:has-text("Bert")')
    print(f"\nA wrong Macher put right: {taps.count} taps, {taps.saves} request")
    assert taps.count <= 3 and taps.saves == 1
    standing = _standing(game)
    bert = str(Player.objects.get(club=game.evening.club, display_name="Bert").pk)
    assert standing[1] == {"type": "call", "player": bert, "card": "E10"}
    assert len(standing) == len(WRONG_CALL)
