"""Whole evenings entered as the table counted them ("Ergebnis eintragen"), in Chromium.

A scorer records a Fuchsen evening of nine deals and a Königrufen evening only
from the evening page's form: played-out games, early ends (no Kontra, no Re),
Stilles Spiel, an announced Fuchs with the Augen typed in, a Fuchs forgotten
(said in the form, and one found after the game was saved), a game saved
without its partner and the partner named later, an alone game; Königrufen
Durchmarsch, Bettler, Schurln. The evening's balances and the settlement are
then checked against the payouts worked out here by hand from the default
house rules (fuchsen.md, koenigrufen.md). Every tap is counted: a played-out
Fuchsen deal takes at most 6 and one saving request, a Königrufen deal at most 7.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from clubs.models import Club, GameKind, Player, Role
from games.models import Evening, Game
from ledger.models import SettlementTransfer
from tests.e2e.conftest import no_horizontal_scroll, shoot
from tests.e2e.pages import log_in
from tests.e2e.tables import open_evening, players_of
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Fuchsen values V(L) of the default house rules (fuchsen.md, "Game value").
V = {"none": 10, "kontra": 10, "re": 20, "supp": 25, "mort": 30, "hirsch": 35, "end": 50}
SILENT_BONUS = 10
FUCHS_PENALTY = 10


def fuchsen_partner(seated: list[str], macher: str, hilfer: str, won: bool, v: int) -> Counter[str]:
    """Five active, a partner game: Macher ±2v, Hilfer ±v, each opponent ∓v."""
    sign = 1 if won else -1
    pay: Counter[str] = Counter({p: -sign * v for p in seated})
    pay[macher] = sign * 2 * v
    pay[hilfer] = sign * v
    return pay


def fuchsen_alone(seated: list[str], macher: str, won: bool, v: int) -> Counter[str]:
    """Five active, alone: the Macher ±4v, each opponent ∓v."""
    sign = 1 if won else -1
    pay: Counter[str] = Counter({p: -sign * v for p in seated})
    pay[macher] = sign * 4 * v
    return pay


class TallyForm:
    """The evening page's form: each tap waits for the form drawn again; taps are counted."""

    def __init__(self, page: Any, players: dict[str, Player]) -> None:
        self.page = page
        self.ids = {name: str(p.pk) for name, p in players.items()}
        self.names = {v: k for k, v in self.ids.items()}
        self.taps = 0
        self.saves = 0
        page.on("request", self._count_save)

    def _count_save(self, request: Any) -> None:
        body = request.post_data or ""
        if request.method == "POST" and "/tally/" in request.url and "save=1" in body:
            self.saves += 1

    def pick(self, value: str) -> None:
        self.taps += 1
        with self.page.expect_response(lambda r: "/tally/" in r.url):
            self.page.click(f'#tally button[name="pick"][value="{value}"]')
        self.page.wait_for_function(
            "() => document.getElementById('tally')"
            " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        )
        error = self.page.query_selector("#tally .tally-error")
        assert error is None, error.inner_text()

    def who(self, name: str, field: str) -> None:
        self.pick(f"{field}:{self.ids[name]}")

    def type_augen(self, augen: int) -> None:
        if not self.page.eval_on_selector('#tally [data-q="augen"]', "d => d.open"):
            self.taps += 1  # counted Augen are folded away: open them
            self.page.click('#tally [data-q="augen"] > summary')
        self.taps += len(str(augen)) + 1  # the digits on the number pad, and leaving it
        with self.page.expect_response(lambda r: "/tally/" in r.url):
            self.page.fill("#tally-augen", str(augen))
            self.page.dispatch_event("#tally-augen", "change")
        self.page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        )

    def payouts_shown(self) -> str:
        return str(self.page.inner_text("#tally .tally-preview"))

    def save(self) -> None:
        self.taps += 1
        with self.page.expect_navigation():
            self.page.click("#tally-save")
        self.page.wait_for_load_state()

    def dealer(self) -> str:
        value = self.page.get_attribute(
            '#tally [data-q="dealer"] button[aria-pressed="true"]', "value"
        )
        return self.names[str(value).split(":", 1)[1]]

    def deal(self, steps: list[tuple[str, str]]) -> int:
        """Tap the steps (``(field, name or value)``), check the payouts are shown, save;
        the taps it took."""
        before, saves = self.taps, self.saves
        for what, value in steps:
            if what in ("macher", "partner", "losers", "declarer", "joiner") and value in self.ids:
                self.who(value, what)
            elif what == "augen":
                self.type_augen(int(value))
            else:
                self.pick(f"{what}:{value}")
        assert self.page.query_selector("#tally-save"), "the form is not ready to save"
        self.save()
        assert self.saves == saves + 1  # saved in one request
        return self.taps - before


def _balances(evening: Evening, players: dict[str, Player]) -> dict[str, int]:
    from ledger import selectors as ledger_selectors

    names = {p.pk: n for n, p in players.items()}
    return {
        names[row["player_id"]]: row["balance"]
        for row in ledger_selectors.balance_list(club=evening.club, evening=evening)
    }


def _check_settlement(
    page: Any, evening: Evening, players: dict[str, Player], expected: Counter[str]
) -> None:
    with page.expect_navigation():
        page.click("#settle")
    transfers = list(SettlementTransfer.objects.filter(plan__evening=evening))
    names = {p.pk: n for n, p in players.items()}
    net: Counter[str] = Counter()
    for t in transfers:
        net[names[t.payee_id]] += t.amount
        net[names[t.payer_id]] -= t.amount
    # Paying the plan clears every balance: each gets what he is owed, pays what he owes.
    assert {n: v for n, v in net.items() if v} == {n: v for n, v in expected.items() if v}
    assert len(transfers) <= len([v for v in expected.values() if v]) - 1
    assert page.query_selector_all("#transfers li.transfer")


def _scorer(club: Club) -> str:
    user = UserFactory.create(username="schreiberin")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    return "schreiberin"


def _follow_up(page: Any, form: TallyForm, game: Game, value: str) -> None:
    """From the evening's list of games to the game's follow-up, one choice, saved."""
    page.click(f'li[data-game="{game.pk}"] a.tally-follow')
    page.wait_for_selector("#tally")
    form.pick(value)
    assert page.query_selector("#tally-save")
    form.save()


def test_a_fuchsen_evening_of_nine_deals_entered_by_tally_balances_as_worked_out_by_hand(
    live_server: Any, phone: Any
) -> None:
    club = ClubFactory.create(name="Stammtisch Kreuzwirt", slug="kreuzwirt")
    username = _scorer(club)
    players = players_of(club)
    evening = open_evening(club, players)
    seated = list(players)
    page = phone
    log_in(page, live_server.url, username, f"/evenings/{evening.pk}/")
    form = TallyForm(page, players)
    expected: Counter[str] = Counter()

    # 1. Played out: Bert calls the Eichel-Sau, Carl helps, Re, won ("gewonnen" is the
    # default of a played-out level: no tap).
    taps = form.deal([("macher", "bert"), ("called", "EA"), ("partner", "carl"), ("level", "re")])
    print(f"\nFuchsen, played out (Re, won): {taps} taps, 1 saving request")
    assert taps <= 5
    expected.update(fuchsen_partner(seated, "bert", "carl", True, V["re"]))
    assert _balances(evening, players) == {n: expected[n] for n in seated}

    # 2. No Kontra: the Macher's side wins at the minimum, nothing more to say.
    taps = form.deal([("macher", "dora"), ("called", "GA"), ("partner", "emil"), ("level", "-")])
    print(f"Fuchsen, no Kontra: {taps} taps")
    expected.update(fuchsen_partner(seated, "dora", "emil", True, V["none"]))

    # 3. Kontra without Re: the opponents win at the minimum.
    taps = form.deal(
        [("macher", "anna"), ("called", "SA"), ("partner", "bert"), ("level", "kontra")]
    )
    print(f"Fuchsen, Kontra without Re: {taps} taps")
    expected.update(fuchsen_partner(seated, "anna", "bert", False, V["kontra"]))

    # 4. Stilles Spiel at Supp: the opponents took no trick ("won, Stilles Spiel": one tap).
    before = form.taps
    form.pick("macher:" + form.ids["carl"])
    form.pick("called:EA")
    form.who("dora", "partner")
    form.pick("level:supp")
    form.pick("won:silent")
    shoot(page, "phone-tally-silent")
    assert no_horizontal_scroll(page)
    assert "+70" in form.payouts_shown()  # the engine's payouts, before saving
    form.save()
    print(f"Fuchsen, Stilles Spiel: {form.taps - before} taps")
    assert form.taps - before <= 6
    expected.update(fuchsen_partner(seated, "carl", "dora", True, V["supp"] + SILENT_BONUS))

    # 5. Re, won — and afterwards it comes out that Anna, the Hilfer, held the Fuchs.
    form.deal([("macher", "emil"), ("called", "GA"), ("partner", "anna"), ("level", "re")])
    games = list(Game.objects.filter(evening=evening).order_by("number"))
    _follow_up(page, form, games[-1], "forgotten:1")
    expected.update(fuchsen_partner(seated, "emil", "anna", False, FUCHS_PENALTY + V["re"]))
    assert Game.objects.get(pk=games[-1].pk).result["reason"] == "fuchs_forgotten"

    # 6. Saved without the Hilfer: lost at Re, the payouts wait; Dora is named later.
    form.deal([("macher", "bert"), ("called", "SA"), ("level", "re"), ("won", "0")])
    waiting = Game.objects.filter(evening=evening).order_by("number").last()
    assert waiting is not None and waiting.status == Game.Status.IN_PROGRESS
    assert waiting.result["awaiting"] == "partner"
    _follow_up(page, form, waiting, "partner:" + form.ids["dora"])
    expected.update(fuchsen_partner(seated, "bert", "dora", False, V["re"]))
    assert Game.objects.get(pk=waiting.pk).status == Game.Status.FINISHED

    # 7. Fuchs announced without Kontra (one chip): played out; the Augen typed on the
    # number pad.
    form.deal(
        [
            ("macher", "anna"),
            ("called", "EA"),
            ("partner", "carl"),
            ("level", "-+fuchs"),
            ("augen", "70"),
        ]
    )
    expected.update(fuchsen_partner(seated, "anna", "carl", True, V["none"]))

    # 8. Fuchs forgotten, said in the form: Emil held it and kept quiet; alone after it.
    form.deal(
        [
            ("macher", "dora"),
            ("called", "GA"),
            ("partner", "emil"),
            ("level", "re"),
            ("forgotten", ""),
        ]
    )
    expected.update(fuchsen_partner(seated, "dora", "emil", False, FUCHS_PENALTY + V["re"]))

    # 9. Alone (Herausspielen), Hirsch, lost.
    form.deal([("macher", "carl"), ("called", "alone"), ("level", "hirsch"), ("won", "0")])
    expected.update(fuchsen_alone(seated, "carl", False, V["hirsch"]))

    assert Game.objects.filter(evening=evening, status=Game.Status.FINISHED).count() == 9
    assert sum(expected.values()) == 0
    assert _balances(evening, players) == {n: expected[n] for n in seated}
    for name in seated:
        shown = page.inner_text(f'#balances tr[data-player="{players[name].pk}"]')
        assert f"{expected[name]:+d}" in shown if expected[name] else "0" in shown
    shoot(page, "phone-tally-evening")
    _check_settlement(page, evening, players, expected)
    print(f"Fuchsen evening: {form.taps} taps for nine deals and two follow-ups")


def test_a_koenigrufen_evening_entered_by_tally_balances_as_worked_out_by_hand(
    live_server: Any, phone: Any
) -> None:
    club = ClubFactory.create(name="Gradener Runde", slug="graden")
    username = _scorer(club)
    players = players_of(club, ("Anna", "Bert", "Carl", "Dora"))
    evening = open_evening(club, players, kind=GameKind.KOENIGRUFEN)
    seated = list(players)
    page = phone
    log_in(page, live_server.url, username, f"/evenings/{evening.pk}/")
    form = TallyForm(page, players)
    expected: Counter[str] = Counter()

    def order() -> list[str]:
        """Vorhand first: the auction goes clockwise from the player after the dealer."""
        d = seated.index(form.dealer())
        return [seated[(d + 1 + i) % 4] for i in range(4)]

    # Who played what, and won: the engine leads the auction that ends so.
    # 1. Vorhand played a Durchmarsch calling the Eichel-König; won with his partner.
    counts = []
    speak = order()
    partner = speak[2]
    taps = form.deal(
        [
            ("declarer", speak[0]),
            ("contract", "durchmarsch"),
            ("called", "EK"),
            ("won", "1"),
            ("partner", partner),
        ]
    )
    counts.append(taps)
    print(f"\nKönigrufen, Durchmarsch won with the partner: {taps} taps, 1 saving request")
    for p in seated:
        expected[p] += 40 if p in (speak[0], partner) else -40
    assert _balances(evening, players) == {n: expected[n] for n in seated}

    # 2. The second speaker played a Bettler; he took a trick: lost alone.
    speak = order()
    taps = form.deal([("declarer", speak[1]), ("contract", "bettler"), ("won", "0")])
    counts.append(taps)
    print(f"Königrufen, Bettler lost: {taps} taps")
    for p in seated:
        expected[p] += -90 if p == speak[1] else 30

    # 3. All pass: Schurln; two share the most aces and tens.
    speak = order()
    taps = form.deal([("declarer", "-"), ("losers", speak[0]), ("losers", speak[3])])
    counts.append(taps)
    print(f"Königrufen, Schurln with two losers: {taps} taps")
    for p in seated:
        expected[p] += -10 if p in (speak[0], speak[3]) else 10

    # 4. Durchmarsch am Letzten, won alone (he took all six): no partner named.
    speak = order()
    taps = form.deal([("declarer", speak[0]), ("contract", "durchmarsch_letzter"), ("won", "1")])
    counts.append(taps)
    print(f"Königrufen, Durchmarsch am Letzten won alone: {taps} taps")
    for p in seated:
        expected[p] += 120 if p == speak[0] else -40

    # 5. The whole auction, when someone wants it: Vorhand passes, the next bids
    # Bettler, the others pass; lost.
    speak = order()
    taps = form.deal(
        [
            ("full", "1"),
            ("auction", "pass"),
            ("auction", "bid:bettler"),
            ("auction", "pass"),
            ("auction", "pass"),
            ("won", "0"),
        ]
    )
    print(f"Königrufen, Bettler lost, the whole auction tapped: {taps} taps")
    for p in seated:
        expected[p] += -90 if p == speak[1] else 30
    counts.sort()
    print(f"Königrufen quick results: {counts} taps (min / median / max)")
    assert max(counts) <= 6 and counts[len(counts) // 2] <= 5

    assert sum(expected.values()) == 0
    assert _balances(evening, players) == {n: expected[n] for n in seated}
    _check_settlement(page, evening, players, expected)
    assert no_horizontal_scroll(page)
    print(f"Königrufen evening: {form.taps} taps for five deals")


def test_the_rest_of_a_game_recorded_card_by_card_is_entered_as_a_tally(
    live_server: Any, phone: Any
) -> None:
    from games import services
    from tests.e2e.tables import to_ids

    club = ClubFactory.create(name="Stammtisch Post", slug="post-tally")
    username = _scorer(club)
    players = players_of(club)
    evening = open_evening(club, players)
    game = services.game_start(evening=evening, user=None)
    first_trick = [
        {"type": "call", "player": "bert", "card": "EA"},
        {"type": "play", "player": "bert", "card": "EO"},
        {"type": "play", "player": "carl", "card": "GU"},
        {"type": "raise", "player": "carl", "level": "kontra"},
        {"type": "raise", "player": "bert", "level": "re"},
        {"type": "play", "player": "dora", "card": "RA"},
        {"type": "play", "player": "emil", "card": "R7"},
        {"type": "play", "player": "anna", "card": "R8"},
        {"type": "end_raising"},
    ]
    events = to_ids(first_trick, players)
    # The deal proposes Anna as dealer: Bert leads; the call and the first trick as recorded.
    game = services.game_events_append(
        game=game, user=None, expected_seq=game.last_seq, events=events
    ).game
    page = phone
    log_in(page, live_server.url, username, f"/games/{game.pk}/")
    page.click("#tally-late")
    page.wait_for_selector("#tally")
    form = TallyForm(page, players)
    assert not page.query_selector('#tally [data-q="level"]')  # the raises are the recorded ones
    form.who("emil", "partner")
    form.pick("won:1")
    assert "+40" in form.payouts_shown()
    form.save()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["reason"] == "tally"
    pay = fuchsen_partner(list(players), "bert", "emil", True, V["re"])
    assert game.result["payouts"] == {str(players[n].pk): v for n, v in pay.items()}

    # Undo takes the tally back like any entry: the game is under way again, nobody is paid.
    from tests.e2e.pages import RecordingPage

    page.goto(f"{live_server.url}/games/{game.pk}/")
    table = RecordingPage(page, players)
    table.wait_ready()
    # The game is finished, so the page asks before the undo reopens it.
    page.click('#record button[data-act="undo"]')
    table.tap('#record [role="alertdialog"] button[data-act="do-undo"]')
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS
    assert not game.result.get("payouts")
    assert not any(_balances(evening, players).values())
