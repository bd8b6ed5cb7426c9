"""A change is pushed once its transaction commits: in the process, or through Redis."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

import pytest
from django.test import override_settings

from games import services
from games.errors import EngineRejected
from games.models import Game
from live.push import HUB, Hub
from tests.conftest import _redis_unreachable_reason
from tests.games import records


def test_an_append_pushes_to_the_evenings_subscribers_when_it_commits(
    dealt_game: Game, as_ids: Any, django_capture_on_commit_callbacks: Any
) -> None:
    sub = HUB.subscribe(dealt_game.evening_id)
    other = HUB.subscribe(dealt_game.evening_id + 1000)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            services.game_events_append(
                game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA[:1])
            )
        assert sub.wait(0) is None  # nothing before the commit
        for callback in callbacks:
            callback()
        assert sub.wait(1) is not None
        assert other.wait(0) is None
    finally:
        sub.close()
        other.close()


def test_a_refused_append_pushes_nothing(
    dealt_game: Game, as_ids: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(EngineRejected):
        services.game_events_append(
            game=dealt_game, user=None, expected_seq=1, events=as_ids(records.ILLEGAL_PLAY)
        )
    assert callbacks == []


def test_a_subscriber_on_an_event_loop_gets_the_latest_push_only() -> None:
    hub = Hub()

    async def scenario() -> int | None:
        sub = hub.subscribe(7, asyncio.get_running_loop())
        hub.deliver(7, 1)
        hub.deliver(7, 2)
        await asyncio.sleep(0)
        got = await sub.get(1)
        sub.close()
        return got

    # In a thread of its own: a test before this one (Playwright's sync API) may leave
    # an event loop running in the main thread, where asyncio.run() refuses to start.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, scenario()).result(timeout=10) == 2
    assert hub.viewers() == 0


@pytest.mark.skipif(_redis_unreachable_reason() is not None, reason="needs Redis")
def test_through_redis_a_push_reaches_the_subscribers_of_another_hub() -> None:
    import os

    url = os.environ["CELERY_TEST_BROKER_URL"]
    with override_settings(LIVE_REDIS_URL=url, LIVE_CHANNEL_PREFIX=f"test-live-{os.getpid()}"):
        listener, sender = Hub(), Hub()
        sub = listener.subscribe(42)
        # The listener thread subscribes asynchronously: publish until it hears.
        got = None
        for _ in range(50):
            sender.publish(42)
            got = sub.wait(0.1)
            if got is not None:
                break
        sub.close()
        assert got is not None
