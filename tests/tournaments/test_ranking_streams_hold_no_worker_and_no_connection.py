"""The live ranking's streams hold what the evening's live streams hold: under ASGI
no database connection per open stream (every read in the live streams' pool),
and on a single-threaded WSGI worker nothing at all (the ranking once, then the
browser asks again), so the screens of a tournament room never hold the site."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any, cast

import pytest
from django.http import StreamingHttpResponse

from live import stream
from live.push import HUB
from tests.asgi_stream import AsgiStream, run_counting_connections
from tests.conftest import PersonaClient
from tournaments import services
from tournaments.models import Tournament
from tournaments.push import channel


def _body(response: Any) -> str:
    """The answer's one chunk; it must end there (a stream that goes on sends its first
    keepalive within 15 s, and fails here)."""
    chunks = iter(cast(Iterator[bytes], cast(StreamingHttpResponse, response).streaming_content))
    first = next(chunks)
    assert next(chunks, None) is None, "the stream went on"
    return first.decode()


@pytest.mark.django_db
def test_a_single_threaded_worker_answers_the_ranking_once_and_is_free_again(
    anonymous: PersonaClient, member: PersonaClient, drawn: Tournament
) -> None:
    key = services.ranking_link_create(tournament=drawn).key
    ranking = f"/clubs/{drawn.club.slug}/tournaments/{drawn.pk}/ranking/events/"
    # The test client is a single-threaded WSGI worker, as gunicorn's sync workers.
    for client, url in ((anonymous, f"/turnier/{key}/events/"), (member, ranking)):
        response = client.get(url)
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        body = _body(response)  # it ends: the worker is free again
        assert body.startswith(f"retry: {stream.POLL_MS}\n")
        assert body.count("event: state") == 1 and '"rows":' in body
    assert HUB.viewers() == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_burst_of_ranking_streams_under_asgi_holds_no_more_connections_than_the_pool(
    drawn: Tournament, settings: Any
) -> None:
    """The ranking streams read in asgiref's default threads before, which kept a
    connection each (as many as that pool's threads, never closed or recycled)."""
    settings.LIVE_DB_THREADS = 2
    key = services.ranking_link_create(tournament=drawn).key
    burst = 40

    async def scenario() -> tuple[list[int], list[int]]:
        streams = [AsgiStream(f"/turnier/{key}/events/", f"10.2.0.{i}", "") for i in range(burst)]
        for each in streams:  # all at once, as the screens after a restart
            each.open()
        await asyncio.wait_for(asyncio.gather(*(each.first.wait() for each in streams)), 60)
        # Every stream reads the channels and the ranking again on a message of the
        # tournament's own channel (a series confirmed, say; published here as the
        # confirmation's commit publishes it, without a connection of the test's).
        HUB.publish(channel(drawn.pk))
        await asyncio.wait_for(_all_sent(streams, 2), 30)
        sent = [len(each.bodies) for each in streams]
        for each in streams:
            await each.close()
        return [each.status for each in streams], sent

    try:
        (statuses, sent), grown = run_counting_connections(scenario)
    finally:
        stream.pool_close()  # the pool's threads close their connections
    assert statuses == [200] * burst
    assert min(sent) >= 2  # the first ranking, and again after the message
    # The pool's threads, and the test's own connection.
    assert 0 < grown <= settings.LIVE_DB_THREADS + 1, grown


async def _all_sent(streams: list[AsgiStream], frames: int) -> None:
    """Until every stream has sent ``frames`` rankings (``event: state``)."""
    while any(b"".join(each.bodies).count(b"event: state") < frames for each in streams):
        await asyncio.sleep(0.02)
