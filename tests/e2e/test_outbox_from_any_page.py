"""The outbox is sent from any page when the network returns, and every page says
while something waits (real Chromium, ``context.set_offline``): cards tapped with no
network on the recording page reach the server from the evening page, once each."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_offline_recording import _queue_offline, _scorer_on_a_game, _stored
from tests.games.records import RE_PLAYED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_entries_queued_on_the_recording_page_are_sent_from_the_evening_page(
    live_server: Any, browser: Any
) -> None:
    context, page, players, game = _scorer_on_a_game(live_server, browser)
    try:
        deal = RE_PLAYED_OUT["events"][1:4]  # the call and two cards
        _queue_offline(context, page, players, *deal)
        banner = page.wait_for_selector("#outbox-banner:not([hidden])")
        print(f"\nThe recording page says: {banner.inner_text()}")
        assert "3" in banner.inner_text()
        assert game.events.count() == 1
        page.close()
        # Back in the evening's page, its API still out of reach at first.
        context.set_offline(False)
        context.route("**/api/games/**", lambda route: route.abort())
        evening = context.new_page()
        evening.goto(f"{live_server.url}/evenings/{game.evening_id}/")
        note = evening.wait_for_selector("#outbox-banner:not([hidden])").inner_text()
        print(f"The evening page says: {note}")
        assert "3" in note
        assert game.events.count() == 1
        # The network is back: the evening page sends them, in order, once each.
        context.unroute("**/api/games/**")
        evening.evaluate("window.dispatchEvent(new Event('online'))")
        evening.wait_for_selector("#outbox-banner[hidden]", state="attached", timeout=30_000)
        ids = {name: str(p.pk) for name, p in players.items()}
        expected = [{k: ids.get(v, v) if k == "player" else v for k, v in e.items()} for e in deal]
        assert _stored(game)[1:] == expected
    finally:
        context.close()
