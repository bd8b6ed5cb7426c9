"""Recording with no network (real Chromium, ``context.set_offline``): nothing lost, nothing twice.

The scorer's context goes offline and the recording page keeps its card grid: a
whole deal is tapped in on it (who, then the card; each event queued in IndexedDB,
shown as not yet sent / unchecked), the context goes online, and the stored record
equals the deal with no event twice. An event the engine refuses comes back as a
visible message with the event and the engine's sentence. Offline the grid also
offers what the engine offered while online: Königrufen's bids and passes (of the
last table the server drew), a Fuchs said with a card (Fuchsen).
"""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import GameKind, Role
from games import selectors
from games.models import Game
from games.tally_koenig import koenig_auction
from tests.e2e.pages import RecordingPage, log_in
from tests.e2e.tables import open_evening, players_of, record_game, start
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.records import RE_PLAYED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _scorer_on_a_game(live_server: Any, browser: Any) -> tuple[Any, Any, dict[str, Any], Game]:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    players = players_of(club)
    evening = open_evening(club, players)
    game = start(evening, players, RE_PLAYED_OUT["events"][0])
    context = browser.new_context(locale="de-AT", viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, live_server.url, "schreiber", f"/games/{game.pk}/")
    RecordingPage(page, players).wait_ready()
    return context, page, players, game


def _queue_offline(
    context: Any, page: Any, players: dict[str, Any], *events: dict[str, Any]
) -> None:
    """The phone goes offline on the recording page and the scorer taps ``events`` in:
    they wait in the outbox."""
    context.set_offline(True)
    page.wait_for_selector("#record .offline-grid")
    for event in events:
        _tap_in(page, players, event)


def _tap_in(page: Any, players: dict[str, Any], event: dict[str, Any]) -> None:
    """Tap one event into the offline card grid, as the scorer would: who, then what."""
    before = page.locator("#offline-entry .offline-queue li").count()
    grid = "#record .offline-grid"
    if "player" in event:
        who = players[event["player"]].pk
        page.click(f'{grid} button[data-act="off-who"][data-player="{who}"]')
    if event["type"] == "call":
        page.check(f'{grid} input[data-act="offkind"][value="call"]')
    if event["type"] in ("call", "play"):
        page.click(f'{grid} button[data-act="off-card"][data-card="{event["card"]}"]')
    elif event["type"] == "raise":
        page.click(f'{grid} button[data-act="off-raise"][data-level="{event["level"]}"]')
    else:
        page.click(f'{grid} button[data-act="off-end"]')
    page.wait_for_function(
        "n => document.querySelectorAll('#offline-entry .offline-queue li').length > n",
        arg=before,
    )


def _stored(game: Game) -> list[dict[str, Any]]:
    return [{"type": e.type, **e.payload} for e in game.events.order_by("seq")]


def test_a_whole_deal_recorded_offline_is_stored_once_when_the_network_returns(
    live_server: Any, browser: Any
) -> None:
    context, page, players, game = _scorer_on_a_game(live_server, browser)
    try:
        context.set_offline(True)
        page.wait_for_selector("#offline-entry:not([hidden])")
        page.wait_for_selector("#record .offline-grid")
        deal = RE_PLAYED_OUT["events"][1:]
        for event in deal:
            _tap_in(page, players, event)
        waiting = page.locator("#offline-entry .offline-waiting")
        assert waiting.count() == len(deal)
        assert "noch nicht gesendet / ungeprüft" in waiting.first.inner_text()
        # A card tapped offline is painted on the grid as waiting, and not offered again.
        played = page.locator('#record .offline-grid button[data-card="EO"]')
        assert "queued" in (played.get_attribute("class") or "") and played.is_disabled()
        assert game.events.count() == 1  # nothing reached the server
        context.set_offline(False)
        page.wait_for_function(
            "() => !document.querySelectorAll('#offline-entry .offline-queue li').length",
            timeout=90_000,
        )
        page.wait_for_selector('#record[data-status="finished"]')
        ids = {name: str(p.pk) for name, p in players.items()}
        expected = [{k: ids.get(v, v) if k == "player" else v for k, v in e.items()} for e in deal]
        assert _stored(game)[1:] == expected  # the deal, each event once
    finally:
        context.close()


def test_an_offline_event_the_engine_refuses_comes_back_with_its_message(
    live_server: Any, browser: Any
) -> None:
    context, page, players, game = _scorer_on_a_game(live_server, browser)
    try:
        context.set_offline(True)
        page.wait_for_selector("#offline-entry:not([hidden])")
        _tap_in(page, players, {"type": "call", "player": "bert", "card": "E10"})
        _tap_in(page, players, {"type": "play", "player": "bert", "card": "EO"})
        # Carl plays the Rot-König, which the deal gave Dora.
        _tap_in(page, players, {"type": "play", "player": "carl", "card": "RK"})
        context.set_offline(False)
        refused = page.wait_for_selector("#offline-entry .offline-failed")
        text = refused.inner_text()
        # The event (Carl, the Rot-König) and the engine's sentence (who holds it).
        assert "Carl" in text and "Rot-König" in text
        assert "422" in text and "Dora" in text
        assert [e["type"] for e in _stored(game)] == ["deal", "call", "play"]
        # Dropped, the queue is empty and the table is the server's.
        page.click("#offline-entry .offline-drop")
        page.wait_for_selector("#offline-entry", state="hidden")
    finally:
        context.close()


def _offline_scorer(
    live_server: Any, browser: Any, kind: str, record: dict[str, Any]
) -> tuple[Any, Any, dict[str, Any], Game]:
    """A scorer's phone on the recording page of a game holding ``record``, gone offline."""
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    players = players_of(club)
    seated = tuple(record["events"][0]["players"])
    evening = open_evening(club, players, kind=kind, seated=seated)
    game = record_game(evening, players, record)
    context = browser.new_context(locale="de-AT", viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, live_server.url, "schreiber", f"/games/{game.pk}/")
    RecordingPage(page, players).wait_ready()
    context.set_offline(True)
    page.wait_for_selector("#offline-entry:not([hidden])")
    page.wait_for_selector("#record .offline-grid")
    return context, page, players, game


def _queued(page: Any, before: int) -> None:
    page.wait_for_function(
        "n => document.querySelectorAll('#offline-entry .offline-queue li').length > n",
        arg=before,
    )


def _sent(context: Any, page: Any) -> None:
    context.set_offline(False)
    page.wait_for_function(
        "() => !document.querySelectorAll('#offline-entry .offline-queue li').length",
        timeout=90_000,
    )


def test_a_koenigrufen_auction_bid_offline_is_stored_as_bid_when_the_network_returns(
    live_server: Any, browser: Any
) -> None:
    names = ["anna", "bert", "carl", "dora"]
    deal = {"type": "deal", "dealer": "anna", "players": names}
    context, page, players, game = _offline_scorer(
        live_server, browser, GameKind.KOENIGRUFEN, {"game": "koenigrufen", "events": [deal]}
    )
    ids = {name: str(p.pk) for name, p in players.items()}
    grid = "#record .offline-grid"
    try:
        # The auction as the engine leads it: Bert bids a Durchmarsch calling the
        # Eichel-König, the others pass.
        record = selectors.game_record(game=game)
        auction = koenig_auction(record, ids["bert"], {"contract": "durchmarsch", "called": "EK"})
        assert auction is not None
        for event in auction:
            before = page.locator("#offline-entry .offline-queue li").count()
            page.click(f'{grid} button[data-act="off-who"][data-player="{event["player"]}"]')
            if event["type"] == "bid":
                page.click(f'{grid} button[data-act="off-bid"][data-contract="durchmarsch"]')
                page.click(f'{grid} button[data-act="off-card"][data-card="EK"]')
            else:
                page.click(f'{grid} button[data-act="off-pass"]')
            _queued(page, before)
        waiting = page.locator("#offline-entry .offline-waiting")
        assert waiting.count() == len(auction)
        assert "noch nicht gesendet / ungeprüft" in waiting.first.inner_text()
        assert game.events.count() == 1  # nothing reached the server
        _sent(context, page)
        assert _stored(game)[1:] == auction  # each bid and pass once, as tapped
        game.refresh_from_db()
        state = selectors.table_state(record=selectors.game_record(game=game))
        assert state["contract"] == "durchmarsch" and state["declarer"] == ids["bert"]
        assert state["awaiting"] == "play"
    finally:
        context.close()


def test_a_fuchs_said_with_a_card_offline_is_stored_with_the_play(
    live_server: Any, browser: Any
) -> None:
    names = ["anna", "bert", "carl", "dora", "emil"]
    deal = {"type": "deal", "dealer": "anna", "players": names}
    call = {"type": "call", "player": "bert", "card": "EA"}
    context, page, players, game = _offline_scorer(
        live_server, browser, GameKind.FUCHSEN, {"game": "fuchsen", "events": [deal, call]}
    )
    ids = {name: str(p.pk) for name, p in players.items()}
    grid = "#record .offline-grid"
    try:
        # The first card by the player the engine gives the lead, then the Fuchs said
        # by the next player who is not the Macher, with the Grün-Ober.
        record = selectors.game_record(game=game)
        leader = selectors.table_state(record=record)["to_act"]
        plays = [{"type": "play", "player": leader, "card": "RA"}]
        if leader == ids["bert"]:
            after = {**record, "events": [*record["events"], *plays]}
            second = selectors.table_state(record=after)["to_act"]
            plays.append({"type": "play", "player": second, "card": "GO", "fuchs": True})
        else:
            plays = [{"type": "play", "player": leader, "card": "GO", "fuchs": True}]
        for event in plays:
            before = page.locator("#offline-entry .offline-queue li").count()
            page.click(f'{grid} button[data-act="off-who"][data-player="{event["player"]}"]')
            if event.get("fuchs"):
                page.check(f'{grid} input[data-act="toggle-offfuchs"]')
            page.click(f'{grid} button[data-act="off-card"][data-card="{event["card"]}"]')
            _queued(page, before)
        # The flag goes with the one card it was set for.
        assert not page.is_checked(f'{grid} input[data-act="toggle-offfuchs"]')
        _sent(context, page)
        assert _stored(game)[2:] == plays
        game.refresh_from_db()
        assert game.status == Game.Status.IN_PROGRESS
    finally:
        context.close()


def test_the_turned_card_played_face_down_offline_is_stored_as_turned(
    live_server: Any, browser: Any
) -> None:
    names = ["anna", "bert", "carl", "dora", "emil"]
    deal = {"type": "deal", "dealer": "anna", "players": names}
    call = {"type": "call", "player": "bert", "card": "EA", "turned": True}
    context, page, players, game = _offline_scorer(
        live_server, browser, GameKind.FUCHSEN, {"game": "fuchsen", "events": [deal, call]}
    )
    ids = {name: str(p.pk) for name, p in players.items()}
    grid = "#record .offline-grid"
    try:
        state = selectors.table_state(record=selectors.game_record(game=game))
        assert state["to_act"] == ids["bert"] and "EU" in state["legal"]["face_down"]
        page.click(f'{grid} button[data-act="off-who"][data-player="{ids["bert"]}"]')
        page.check(f'{grid} input[data-act="toggle-offturned"]')
        page.click(f'{grid} button[data-act="off-card"][data-card="EU"]')
        _queued(page, 0)
        _sent(context, page)
        assert _stored(game)[2:] == [
            {"type": "play", "player": ids["bert"], "card": "EU", "turned": True}
        ]
    finally:
        context.close()
