"""Ergebnis eintragen with no network (real Chromium, ``context.set_offline``).

The scorer composes a tally on the evening page, the network goes, "Save" keeps the
tally on the phone (IndexedDB) and lists it as not yet sent and unchecked; when the
network is back it is sent with its Idempotency-Key and the stored game equals the
tally, exactly once. A tally the server refuses when it arrives stays listed with
the server's message. A save whose request dies on the network is queued too, and a
retry whose first answer was lost sends the same key: the game is stored once.
A tally filled in from scratch with no network uses the choices the page drew at
load (no request while filling it) and is stored as filled in once the network is back;
in Königrufen with the auction the server drew for the declarer and contract chosen.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from clubs.models import GameKind, Role
from engine import replay
from games import services
from games.models import Evening, Game
from tests.e2e.pages import log_in
from tests.e2e.tables import open_evening, players_of
from tests.e2e.test_tally_entry import TallyForm
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

STEPS = [("macher", "bert"), ("called", "EA"), ("partner", "carl"), ("level", "re"), ("won", "1")]


def _composed_tally(
    live_server: Any, browser: Any, *, partner: bool = True
) -> tuple[Any, Any, TallyForm, Evening]:
    """A scorer's phone on the evening page with a tally ready to save (composed online)."""
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    players = players_of(club)
    evening = open_evening(club, players)
    context = browser.new_context(locale="de-AT", viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, live_server.url, "schreiber", f"/evenings/{evening.pk}/")
    form = TallyForm(page, players)
    steps = (
        STEPS if partner else [("macher", "bert"), ("called", "SA"), ("level", "re"), ("won", "0")]
    )
    for field, value in steps:
        if field in ("macher", "partner"):
            form.who(value, field)
        else:
            form.pick(f"{field}:{value}")
    page.wait_for_selector("#tally-save")
    return context, page, form, evening


def _save_offline(context: Any, page: Any) -> None:
    context.set_offline(True)
    page.wait_for_function("() => navigator.onLine === false")
    page.click("#tally-save")
    page.wait_for_selector("#tally-outbox:not([hidden]) .tally-queue li")


def test_a_tally_saved_with_no_network_is_stored_once_when_the_network_returns(
    live_server: Any, browser: Any
) -> None:
    context, page, form, evening = _composed_tally(live_server, browser)
    try:
        queued = json.loads(page.inner_text("#tally-offline"))
        _save_offline(context, page)
        page.click("#tally-save", force=True)  # a second tap is not a second game
        waiting = page.locator("#tally-outbox .offline-waiting")
        assert waiting.count() == 1
        text = waiting.first.inner_text()
        assert "noch nicht gesendet / ungeprüft" in text
        assert "Bert" in text  # the tally, as its payouts were shown
        assert not Game.objects.filter(evening=evening).exists()  # nothing reached the server
        context.set_offline(False)
        page.wait_for_function(
            "() => !document.querySelectorAll('#tally-outbox .tally-queue li').length",
            timeout=60_000,
        )
        games = list(Game.objects.filter(evening=evening))
        assert len(games) == 1  # exactly once
        game = games[0]
        stored = [{"type": e.type, **e.payload} for e in game.events.order_by("seq")]
        assert stored == queued["body"]["events"]  # the tally, as composed
        tally = stored[-1]
        assert tally["type"] == "tally" and tally["level"] == "re" and tally["won"] is True
        assert stored[1] == {"type": "call", "player": form.ids["bert"], "card": "EA"}
        assert game.status == Game.Status.FINISHED
    finally:
        context.close()


def test_a_queued_tally_the_server_refuses_comes_back_with_its_message(
    live_server: Any, browser: Any
) -> None:
    context, page, _form, evening = _composed_tally(live_server, browser)
    try:
        _save_offline(context, page)
        # While the phone is offline the evening is closed from another phone.
        services.evening_close(evening=evening)
        context.set_offline(False)
        refused = page.wait_for_selector("#tally-outbox .offline-failed", timeout=60_000)
        text = refused.inner_text()
        print(f"\nrefused: {text}")
        assert "Bert" in text
        assert "409" in text or "422" in text
        assert not Game.objects.filter(evening=evening).exists()
        page.click("#tally-outbox .tally-drop")
        page.wait_for_selector("#tally-outbox", state="hidden")
    finally:
        context.close()


def test_a_save_lost_on_the_network_is_queued_and_its_retry_stores_it_only_once(
    live_server: Any, browser: Any
) -> None:
    context, page, _form, evening = _composed_tally(live_server, browser)
    keys: list[str] = []

    def save_dies(route: Any) -> None:
        if "save=1" in (route.request.post_data or ""):
            route.abort()  # the page's own save request: the network drops it
        else:
            route.continue_()

    def first_answer_lost(route: Any) -> None:
        keys.append(route.request.headers.get("idempotency-key", ""))
        if len(keys) == 1:
            route.fetch()  # the server stores the game, the answer never arrives
            route.abort()
        else:
            route.continue_()

    try:
        page.route("**/tally/", save_dies)
        page.route("**/api/evenings/*/games/", first_answer_lost)
        page.click("#tally-save")  # online: the request goes out and fails on the way
        page.wait_for_selector("#tally-outbox:not([hidden]) .offline-waiting")
        page.locator("#tally-outbox .tally-queue li").wait_for(state="detached", timeout=60_000)
        assert len(keys) >= 2 and len(set(keys)) == 1  # retried with the same key
        assert Game.objects.filter(evening=evening).count() == 1  # stored once
    finally:
        context.close()


def test_a_partner_named_with_no_network_is_appended_once_at_the_seq_it_was_named_at(
    live_server: Any, browser: Any
) -> None:
    context, page, form, evening = _composed_tally(live_server, browser, partner=False)
    try:
        form.save()  # online: the game waits for its Hilfer
        game = Game.objects.get(evening=evening)
        assert game.result["awaiting"] == "partner"
        seq = game.last_seq
        page.click(f'li[data-game="{game.pk}"] a.tally-follow')
        page.wait_for_selector("#tally")
        form.who("dora", "partner")
        queued = json.loads(page.inner_text("#tally-offline"))
        assert queued["body"]["expected_seq"] == seq
        _save_offline(context, page)
        assert "noch nicht gesendet / ungeprüft" in page.inner_text("#tally-outbox")
        context.set_offline(False)
        page.locator("#tally-outbox .tally-queue li").wait_for(state="detached", timeout=60_000)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        shows = [e.payload for e in game.events.filter(type="show")]
        assert shows == [{"player": form.ids["dora"], "cards": ["SA"]}]  # appended once
    finally:
        context.close()


def test_a_tally_filled_in_from_scratch_with_no_network_is_stored_once_when_it_returns(
    live_server: Any, browser: Any
) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    players = players_of(club)
    evening = open_evening(club, players)
    ids = {name: str(p.pk) for name, p in players.items()}
    context = browser.new_context(locale="de-AT", viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, live_server.url, "schreiber", f"/evenings/{evening.pk}/")
    asked: list[str] = []
    try:
        proposed = json.loads(page.inner_text("#tally-scratch-data"))["deal"]
        context.set_offline(True)
        page.wait_for_function("() => navigator.onLine === false")
        page.wait_for_selector("#tally-scratch:not([hidden])")
        assert page.locator("#tally").is_hidden()
        page.on("request", lambda r: asked.append(r.url) if "/tally" in r.url else None)
        scratch = "#tally-scratch"
        for field, value in (
            ("macher", ids["bert"]),
            ("called", "EA"),
            ("partner", ids["carl"]),
            ("level", "re"),
            ("won", "1"),
        ):
            page.click(f'{scratch} button[data-field="{field}"][data-value="{value}"]:visible')
        page.click("#tally-scratch-save")
        waiting = page.wait_for_selector("#tally-outbox:not([hidden]) .offline-waiting")
        assert "noch nicht gesendet / ungeprüft" in waiting.inner_text()
        assert "Bert" in waiting.inner_text()
        assert asked == []  # filling it in asked the server nothing
        assert not Game.objects.filter(evening=evening).exists()
        context.set_offline(False)
        page.wait_for_function(
            "() => !document.querySelectorAll('#tally-outbox .tally-queue li').length",
            timeout=60_000,
        )
        games = list(Game.objects.filter(evening=evening))
        assert len(games) == 1  # exactly once
        stored = [{"type": e.type, **e.payload} for e in games[0].events.order_by("seq")]
        assert stored == [
            proposed,
            {"type": "call", "player": ids["bert"], "card": "EA"},
            {"type": "tally", "level": "re", "won": True, "partner": ids["carl"]},
        ]
        assert games[0].status == Game.Status.FINISHED
    finally:
        context.close()


def test_a_koenigrufen_deal_filled_in_from_scratch_with_no_network_is_stored_once_and_scored(
    live_server: Any, browser: Any
) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    players = players_of(club)
    evening = open_evening(
        club, players, kind=GameKind.KOENIGRUFEN, seated=("anna", "bert", "carl", "dora")
    )
    ids = {name: str(p.pk) for name, p in players.items()}
    context = browser.new_context(locale="de-AT", viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, live_server.url, "schreiber", f"/evenings/{evening.pk}/")
    asked: list[str] = []
    try:
        drawn = json.loads(page.inner_text("#tally-scratch-data"))
        context.set_offline(True)
        page.wait_for_function("() => navigator.onLine === false")
        page.wait_for_selector("#tally-scratch:not([hidden])")
        assert page.locator("#tally").is_hidden()
        page.on("request", lambda r: asked.append(r.url) if "/tally" in r.url else None)
        scratch = "#tally-scratch"
        save = page.locator("#tally-scratch-save")
        for field, value in (
            ("declarer", ids["bert"]),
            ("contract", "durchmarsch"),
            ("called", "EK"),
            ("partner", ids["carl"]),
        ):
            page.click(f'{scratch} button[data-field="{field}"][data-value="{value}"]:visible')
        assert save.is_disabled()  # won or lost is still to say
        page.click(f'{scratch} button[data-field="won"][data-value="1"]:visible')
        save.click()
        waiting = page.wait_for_selector("#tally-outbox:not([hidden]) .offline-waiting")
        assert "noch nicht gesendet / ungeprüft" in waiting.inner_text()
        assert "Bert" in waiting.inner_text()
        assert asked == []  # filling it in asked the server nothing
        assert not Game.objects.filter(evening=evening).exists()
        context.set_offline(False)
        page.wait_for_function(
            "() => !document.querySelectorAll('#tally-outbox .tally-queue li').length",
            timeout=60_000,
        )
        games = list(Game.objects.filter(evening=evening))
        assert len(games) == 1  # exactly once
        stored = [{"type": e.type, **e.payload} for e in games[0].events.order_by("seq")]
        deal = drawn["deal"]
        auction = [
            {**e, "called": "EK"} if e["type"] == "bid" else e
            for e in drawn["auctions"][f"{deal['dealer']}|{ids['bert']}|durchmarsch"]
        ]
        assert stored == [
            deal,
            *auction,
            {"type": "tally", "won": True, "partner": ids["carl"]},
        ]
        bids = [e for e in stored if e["type"] == "bid"]
        assert bids == [
            {"type": "bid", "player": ids["bert"], "contract": "durchmarsch", "called": "EK"}
        ]
        game = games[0]
        assert game.status == Game.Status.FINISHED
        # The result is the engine's for the record as filled in: Bert and Carl won.
        expected = replay({"game": "koenigrufen", "rules": None, "events": stored}).to_dict()
        assert game.result["payouts"] == expected["payouts"]
        payouts = game.result["payouts"]
        assert payouts[ids["bert"]] > 0 and payouts[ids["carl"]] > 0
        assert payouts[ids["anna"]] < 0 and payouts[ids["dora"]] < 0
    finally:
        context.close()
