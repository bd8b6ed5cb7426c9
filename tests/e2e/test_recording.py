"""Recording at the table, in real Chromium on a phone-sized screen.

A scorer signs in, deals a five-player Fuchsen game with known hands, records
the call, the first trick with Kontra and Re, every card by tapping it, sees an
illegal card disabled and a forced one refused with the engine's reason, takes
a card back, finishes the game and settles the evening. A Königrufen
Durchmarsch is recorded on French cards.
"""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Club, GameKind, Role
from games.models import Game, GameEvent
from tests.e2e.conftest import no_horizontal_scroll, shoot
from tests.e2e.pages import RecordingPage, log_in
from tests.e2e.tables import open_evening, players_of, start, to_ids
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.records import DEAL, ILLEGAL_PLAY, RE_PLAYED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HANDS = RE_PLAYED_OUT["events"][0]["hands"]
TRICKS_2_TO_6 = [
    ("bert", "GO"), ("carl", "RU"), ("dora", "RK"), ("emil", "RO"), ("anna", "R8"),
    ("bert", "EU"), ("carl", "GK"), ("dora", "SK"), ("emil", "G8"), ("anna", "S8"),
    ("bert", "GU"), ("carl", "G10"), ("dora", "S10"), ("emil", "G9"), ("anna", "S9"),
    ("bert", "SU"), ("carl", "GA"), ("dora", "SA"), ("emil", "SO"), ("anna", "E8"),
    ("bert", "E7"), ("carl", "E10"), ("dora", "EK"), ("emil", "E9"), ("anna", "EA"),
]  # fmt: skip


def _scorer(club: Club) -> str:
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    return "schreiber"


def test_a_scorer_records_a_fuchsen_deal_with_raises_and_settles_the_evening(
    live_server: Any, phone: Any
) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    username = _scorer(club)
    players = players_of(club)
    evening = open_evening(club, players)
    page = phone
    log_in(page, live_server.url, username, f"/evenings/{evening.pk}/")
    assert page.url.endswith(f"/evenings/{evening.pk}/")
    assert no_horizontal_scroll(page)

    # The deal: Anna deals game 1 (pre-filled); the hands are typed in.
    page.click(f'a[href="/evenings/{evening.pk}/new-game/"]')
    assert page.input_value("#dealer") == str(players["anna"].pk)
    page.click("#deal-form summary")
    for name, cards in HANDS.items():
        if name != "anna":
            page.fill(f"#hand{players[name].pk}", " ".join(cards))
    # Anna's hand by tapping: the cards the others hold are disabled.
    anna = page.locator(f'.hand-entry[data-player="{players["anna"].pk}"]')
    anna.locator(".pick-toggle").click()
    assert anna.locator('.picker button[data-card="EO"]').is_disabled()
    for card in HANDS["anna"]:
        anna.locator(f'.picker button[data-card="{card}"]').click()
    assert page.input_value(f"#hand{players['anna'].pk}") == " ".join(HANDS["anna"])
    shoot(page, "phone-deal-hands")
    assert no_horizontal_scroll(page)
    page.click("#deal-form button[type=submit]")
    table = RecordingPage(page, players)
    table.wait_ready()
    assert table.state()["awaiting"] == "call"
    assert table.to_act() == "bert"  # the record shows Bert holds EO: he is the Macher

    # The call: Bert calls the Eichel-Zehner.
    page.click('#record button[data-act="pick-call"][data-card="E10"]')
    shoot(page, "phone-record-call")
    assert no_horizontal_scroll(page)
    table.tap('#record button[data-act="call"]')

    # The first trick, with Kontra (Dora) and Re (Carl) after their cards.
    table.play("EO")
    table.play("RA")
    table.play("R10")
    # The Macher's Eichel-Ober is winning the trick so far.
    assert page.query_selector(f'#record .trick .slot.winning[data-seat="{players["bert"].pk}"]')
    assert page.query_selector(
        f'#record button[data-act="raise"][data-level="kontra"][data-player="{players["dora"].pk}"]'
    )
    shoot(page, "phone-record-raise")
    assert no_horizontal_scroll(page)
    table.raise_("dora", "kontra")
    table.raise_("carl", "re")
    table.play("R9")
    table.play("R7")
    assert table.state()["level"] == "re"
    table.tap('#record button[data-act="end_raising"]')

    table.play("GO")
    table.play("RU")
    assert page.query_selector(f'#record .trick .slot.winning[data-seat="{players["bert"].pk}"]')
    table.tap('#record button[data-act="undo"]')
    table.tap('#record button[data-act="undo"]')
    # Trick 2: Bert leads the Fuchs; Carl must follow with a trump, so his Grün-Sau is disabled.
    table.play("GO")
    assert table.to_act() == "carl"
    assert not table.card_enabled("GA")
    assert table.card_enabled("RU")
    # Forcing the illegal card past the page: the engine refuses it and the page says why.
    page.evaluate(
        "id => window.Stichbuch.record([{type: 'play', player: id, card: 'GA'}])",
        str(players["carl"].pk),
    )
    error = page.wait_for_selector('#record .engine-error[data-code="must_follow_suit"]')
    assert "Carl" in error.inner_text()  # the engine's message, with his name put in
    assert "Rot-Unter" in error.inner_text()  # the gist in German: he holds RU
    # The server's sentence in German: the rule and the card that proves it.
    assert "Carl muss Trumpf zugeben (Farbzwang): " in error.inner_text()
    assert table.to_act() == "carl"  # nothing was recorded
    shoot(page, "phone-record-error")
    # Carl's trump: the tap takes the refusal away at once, and the page says it is
    # busy until the answer comes (then the trump is taken back and played again).
    shown = page.evaluate(
        "sel => { document.querySelector(sel).click(); const r = document.getElementById('record');"
        " return {refusal: !!r.querySelector('.engine-error'),"
        " busy: r.getAttribute('aria-busy')}; }",
        '#record button[data-act="play"][data-card="RU"]',
    )
    assert shown == {"refusal": False, "busy": "true"}
    page.wait_for_function("() => document.getElementById('record').ariaBusy === 'false'")
    assert page.query_selector("#record .engine-error") is None
    assert table.to_act() == "dora"
    table.tap('#record button[data-act="undo"]')
    assert table.to_act() == "carl"
    for name, card in TRICKS_2_TO_6[1:]:
        assert table.to_act() == name
        table.play(card)

    page.wait_for_selector('#record[data-status="finished"]')
    result = table.state()["result"]
    assert result["payouts"] == {
        str(players[n].pk): v
        for n, v in {"anna": -20, "bert": 40, "carl": 20, "dora": -20, "emil": -20}.items()
    }
    assert "+40" in page.inner_text(f'#record tr[data-player="{players["bert"].pk}"]')
    shoot(page, "phone-record-finished")
    assert no_horizontal_scroll(page)

    # The evening: the game, the balances, the settlement.
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    assert "+40" in page.inner_text(f'#balances tr[data-player="{players["bert"].pk}"]')
    page.click("#settle")
    transfers = page.query_selector_all("#transfers li")
    assert len(transfers) == 3  # Anna, Dora and Emil each pay 20; Bert and Carl receive
    page.click("#transfers li:first-child button")
    page.wait_for_selector("#transfers li.paid")
    shoot(page, "phone-evening-settled")
    assert no_horizontal_scroll(page)


DURCHMARSCH_HANDS = {
    "bert": ["EA", "EK", "GA", "GK", "RA", "RK"],
    "carl": ["EO", "EU", "GO", "GU", "SA", "SK"],
    "dora": ["E10", "E9", "G10", "G9", "SO", "SU"],
    "anna": ["RO", "RU", "R10", "R9", "S10", "S9"],
}
DURCHMARSCH_PLAY = [
    ("bert", "EA"), ("carl", "EU"), ("dora", "E9"), ("anna", "S9"),
    ("bert", "EK"), ("carl", "EO"), ("dora", "E10"), ("anna", "S10"),
    ("bert", "GA"), ("carl", "GU"), ("dora", "G9"), ("anna", "R9"),
    ("bert", "GK"), ("carl", "GO"), ("dora", "G10"), ("anna", "R10"),
    ("bert", "RA"), ("carl", "SK"), ("dora", "SU"), ("anna", "RU"),
    ("bert", "RK"), ("carl", "SA"), ("dora", "SO"), ("anna", "RO"),
]  # fmt: skip


def test_a_scorer_records_a_koenigrufen_durchmarsch_on_french_cards(
    live_server: Any, phone: Any
) -> None:
    club = ClubFactory.create(name="Königsrunde", slug="koenig", card_face=Club.CardFace.FRENCH)
    username = _scorer(club)
    players = players_of(club, ("Anna", "Bert", "Carl", "Dora"))
    evening = open_evening(club, players, kind=GameKind.KOENIGRUFEN)
    game = start(
        evening,
        players,
        {"dealer": "anna", "players": ["anna", "bert", "carl", "dora"], "hands": DURCHMARSCH_HANDS},
    )
    page = phone
    log_in(page, live_server.url, username, f"/games/{game.pk}/")
    table = RecordingPage(page, players)
    table.wait_ready()
    assert table.state()["awaiting"] == "bid" and table.to_act() == "bert"

    # Bert bids Durchmarsch calling the Karo-Ass (SA); the others pass.
    page.click('#record button[data-act="bid"][data-contract="durchmarsch"]')
    page.click('#record button[data-act="pick-bidcard"][data-card="SA"]')
    shoot(page, "phone-record-auction")
    assert no_horizontal_scroll(page)
    table.tap('#record button[data-act="bid-called"]')
    for name in ("carl", "dora", "anna"):
        assert table.to_act() == name
        table.tap('#record button[data-act="pass"]')

    for name, card in DURCHMARSCH_PLAY:
        assert table.to_act() == name
        table.play(card)
        if (name, card) == ("carl", "EO"):
            shoot(page, "phone-record-koenigrufen-play")

    page.wait_for_selector('#record[data-status="finished"]')
    result = table.state()["result"]
    assert result["contract"] == "durchmarsch" and result["won"] is True
    assert result["payouts"][str(players["bert"].pk)] == 40
    assert result["payouts"][str(players["carl"].pk)] == 40
    shoot(page, "phone-record-durchmarsch-finished")


def test_without_hands_the_scorer_names_the_macher_then_the_partner_then_annuls(
    live_server: Any, phone: Any
) -> None:
    """No hands typed in: the page asks who the Macher is; after an early end it
    asks who holds the called card (the result depends on him); annul and undo."""
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    username = _scorer(club)
    players = players_of(club)
    evening = open_evening(club, players)
    game = start(evening, players, None)  # Anna deals; nothing else known
    page = phone
    log_in(page, live_server.url, username, f"/games/{game.pk}/")
    table = RecordingPage(page, players)
    table.wait_ready()
    assert table.state()["awaiting"] == "call" and table.to_act() is None

    # The deal itself can be taken back, and dealt again from the page.
    table.tap('#record button[data-act="undo"]')
    assert table.state()["awaiting"] == "deal"
    table.tap('#record button[data-act="redeal"]')
    assert table.state()["awaiting"] == "call" and table.state()["dealer"] == str(
        players["anna"].pk
    )

    page.click(f'#record button[data-act="pick-macher"][data-player="{players["dora"].pk}"]')
    page.click('#record button[data-act="pick-call"][data-card="S10"]')
    table.tap('#record button[data-act="call"]')
    for card in ("GA", "GO", "EO", "R8", "G8"):
        table.play(card)
    table.tap('#record button[data-act="end_raising"]')

    # Nobody said Kontra, so the game is over; who pays what depends on the Hilfer.
    assert table.state()["awaiting"] == "partner"
    shoot(page, "phone-record-partner")
    table.tap(f'#record button[data-act="name-partner"][data-player="{players["emil"].pk}"]')
    page.wait_for_selector('#record[data-status="finished"]')
    payouts = table.state()["result"]["payouts"]
    assert payouts[str(players["dora"].pk)] == 20 and payouts[str(players["emil"].pk)] == 10

    # A misdeal after all: annul, then think better of it and undo.
    page.click('#record button[data-act="panel"][data-panel="annul"]')
    table.tap('#record button[data-act="do-annul"]')
    page.wait_for_selector('#record[data-status="annulled"]')
    table.tap('#record button[data-act="undo"]')
    page.wait_for_selector('#record[data-status="finished"]')
    assert no_horizontal_scroll(page)


def test_a_stored_record_the_engine_rejects_is_explained_in_german(
    live_server: Any, phone: Any
) -> None:
    """A game stored before a stricter engine judged it (appends never store one):
    the page says why in German, with the players' and the cards' names."""
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    username = _scorer(club)
    players = players_of(club)
    evening = open_evening(club, players)
    game = start(evening, players, DEAL)
    for seq, event in enumerate(to_ids(ILLEGAL_PLAY, players), start=2):
        kind = event.pop("type")
        GameEvent.objects.create(game=game, seq=seq, type=kind, payload=event)
    Game.objects.filter(pk=game.pk).update(last_seq=4)

    page = phone
    log_in(page, live_server.url, username, f"/games/{game.pk}/")
    page.wait_for_selector('#record[data-status="invalid"]')
    text = page.inner_text("#record .result")
    assert "Carl kann Rot-König nicht haben" in text, text
    assert str(players["carl"].pk) not in text


def test_a_mitbettler_with_face_down_cards_is_recorded_and_lost(
    live_server: Any, phone: Any
) -> None:
    """Bettler with a face-down card, a join with one, and the joined Bettler lost at 50."""
    club = ClubFactory.create(name="Königsrunde", slug="koenig")
    username = _scorer(club)
    players = players_of(club, ("Anna", "Bert", "Carl", "Dora"))
    evening = open_evening(club, players, kind=GameKind.KOENIGRUFEN)
    hands = {
        "bert": ["E9", "E10", "G10", "R9", "R10", "S10"],
        "carl": ["G9", "EK", "SA", "GA", "GK", "RA"],
        "dora": ["EA", "EO", "EU", "GO", "GU", "S9"],
        "anna": ["RK", "RO", "RU", "SK", "SO", "SU"],
    }
    game = start(
        evening,
        players,
        {"dealer": "anna", "players": ["anna", "bert", "carl", "dora"], "hands": hands},
    )
    page = phone
    log_in(page, live_server.url, username, f"/games/{game.pk}/")
    table = RecordingPage(page, players)
    table.wait_ready()

    page.check('#record input[data-act="toggle-facedown"]')
    page.click('#record button[data-act="bid"][data-contract="bettler"]')
    page.click('#record button[data-act="pick-bidcard"][data-card="E9"]')
    table.tap('#record button[data-act="bid-facedown"]')
    page.check('#record input[data-act="toggle-facedown"]')
    page.click('#record button[data-act="join"]')
    page.click('#record button[data-act="pick-bidcard"][data-card="G9"]')
    shoot(page, "phone-record-mitbetteln")
    table.tap('#record button[data-act="bid-facedown"]')
    table.tap('#record button[data-act="pass"]')
    table.tap('#record button[data-act="pass"]')
    assert table.state()["contract"] == "bettler"

    for card in ("E9", "G9", "EA", "SU", "S9", "SO", "S10", "SA"):
        table.play(card)
    page.wait_for_selector('#record[data-status="finished"]')
    result = table.state()["result"]
    assert result["won"] is False
    assert result["payouts"][str(players["bert"].pk)] == -50
    assert result["payouts"][str(players["carl"].pk)] == -50
