"""The live streams as the hardening round attacked them (issue 38, points 2, 4, 7, 10).

* A single-threaded WSGI worker answers a stream with the state once and ends: two
  open evening pages no longer hold both sync workers.
* An open stream ends once its link is revoked or its member removed or logged out.
* Streams per link (or member), per client address and per process are bounded,
  with a clear 429 or 503 beyond, and their places come back when they close.
* Under ASGI a stream reads the session and the state through the streams' pool:
  however many open at once, the process holds no more connections than its
  threads (PostgreSQL).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Iterator
from typing import Any, TypeVar, cast

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient, Client

from clubs.models import Club, Membership, Role
from games.models import Evening
from live import push, services, stream
from live.models import LiveLink
from live.stream import events, limits
from tests.asgi_stream import AsgiStream, run_counting_connections, run_own_loop
from tests.conftest import PersonaClient
from tests.factories import MembershipFactory

T = TypeVar("T")

# The streams' threads count their own: a stream of this file leaves none behind.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _own_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """This file's streams counted apart: streams that other tests' servers still hold
    (the browser tests' live server keeps a closed page's stream until it next writes)
    are in the process-wide counts and would be counted here too."""
    hub = push.Hub()
    monkeypatch.setattr(push, "HUB", hub)
    monkeypatch.setattr(events, "HUB", hub)
    monkeypatch.setattr(limits, "SLOTS", limits.StreamSlots())


@pytest.fixture(autouse=True)
def _quick_rechecks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(events, "RECHECK", 0.05)
    yield
    stream.pool_close()
    assert limits.SLOTS.count() == 0  # every stream gave its places back


@pytest.fixture(autouse=True)
def _behind_a_proxy(settings: Any) -> None:
    """Clients told apart by the address the proxy appends (``_from``)."""
    settings.TRUSTED_PROXY_COUNT = 1


def _from(address: str) -> AsyncClient:
    # As a default header (AsyncClient's ``headers`` argument reaches no request here).
    defaults: dict[str, Any] = {"X-Forwarded-For": address}
    return AsyncClient(**defaults)


async def _first(response: Any) -> bytes:
    """The first chunk of a streaming answer."""
    chunk: bytes = await anext(response.streaming_content)
    return chunk


def _token(evening: Evening) -> str:
    return services.link_token(services.live_link_create(evening=evening, user=None))


async def _chunks(response: Any, most: int) -> list[str]:
    """Up to ``most`` chunks of a stream, fewer if it ends."""
    got: list[str] = []
    content = response.streaming_content
    async for chunk in content:
        got.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
        if len(got) >= most:
            break
    await content.aclose()
    return got


def test_a_single_threaded_worker_answers_the_state_once_and_is_free_again(
    member: PersonaClient, evening: Evening
) -> None:
    def as_a_worker(url: str) -> tuple[int, str]:
        # A thread of its own, as a sync worker's: the suite's browser tests leave an
        # event loop in the main thread, where Django's sync-to-async bridge refuses.
        try:
            response = member.get(url)  # the test client is a single-threaded WSGI worker
            return response.status_code, b"".join(cast(Any, response).streaming_content).decode()
        finally:
            connections.close_all()

    for url in (f"/evenings/{evening.pk}/live/events/", f"/live/{_token(evening)}/events/"):
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            status, body = pool.submit(as_a_worker, url).result(timeout=60)
        assert status == 200
        assert body.startswith(f"retry: {stream.POLL_MS}\n") and body.count("event: state") == 1
        assert f'"id":{evening.pk}' in body
    assert push.HUB.viewers() == 0


def test_a_stream_of_a_revoked_link_ends(evening: Evening) -> None:
    token = _token(evening)

    async def scenario() -> list[str]:
        response = await _from("10.0.0.1").get(f"/live/{token}/events/")
        assert response.status_code == 200
        assert b"event: state" in await _first(response)
        link = await LiveLink.objects.aget(key=services.link_key(token))
        await sync_to_async(services.live_link_revoke)(link=link)
        return await _chunks(response, 50)

    rest = run_own_loop(scenario)
    assert rest and rest[-1] == stream.END  # ended, well before 50 keepalives


def test_a_stream_of_a_removed_member_ends(club: Club, evening: Evening) -> None:
    removed = MembershipFactory.create(club=club, role=Role.MEMBER)

    async def scenario() -> list[str]:
        client = _from("10.0.0.1")
        await client.aforce_login(removed.user)
        response = await client.get(f"/evenings/{evening.pk}/live/events/")
        assert response.status_code == 200
        await _first(response)
        await Membership.objects.filter(pk=removed.pk).adelete()
        return await _chunks(response, 50)

    rest = run_own_loop(scenario)
    assert rest and rest[-1] == stream.END


def test_a_stream_of_a_member_who_logged_out_ends(club: Club, evening: Evening) -> None:
    viewer = MembershipFactory.create(club=club, role=Role.MEMBER)

    async def scenario() -> list[str]:
        client = _from("10.0.0.1")
        await client.aforce_login(viewer.user)
        response = await client.get(f"/evenings/{evening.pk}/live/events/")
        await _first(response)
        await client.alogout()
        return await _chunks(response, 50)

    rest = run_own_loop(scenario)
    assert rest and rest[-1] == stream.END


def test_streams_per_link_are_bounded_with_a_clear_429(evening: Evening, settings: Any) -> None:
    settings.LIVE_STREAMS_PER_LINK = 3
    token = _token(evening)
    other = _token(evening)

    async def scenario() -> tuple[list[int], str, int, int]:
        client = _from("10.0.0.1")
        opened = [await client.get(f"/live/{token}/events/") for _ in range(4)]
        statuses = [r.status_code for r in opened]
        refusal = opened[3].content.decode()
        another_link = await client.get(f"/live/{other}/events/")
        for response in [*opened[:3], another_link]:
            response.close()
        again = await client.get(f"/live/{token}/events/")
        again.close()
        return statuses, refusal, another_link.status_code, again.status_code

    statuses, refusal, another_link, again = run_own_loop(scenario)
    assert statuses == [200, 200, 200, 429]
    assert "Live-Ansichten" in refusal
    assert another_link == 200  # the bound is the link's, not the evening's
    assert again == 200  # closed streams gave their places back


def test_streams_per_address_are_bounded_with_a_clear_429(evening: Evening, settings: Any) -> None:
    settings.LIVE_STREAMS_PER_ADDRESS = 2
    tokens = [_token(evening) for _ in range(3)]

    async def scenario() -> tuple[list[int], int]:
        client = _from("10.0.0.1")
        opened = [await client.get(f"/live/{token}/events/") for token in tokens]
        elsewhere = await _from("10.0.0.9").get(f"/live/{tokens[2]}/events/")
        for response in [*opened, elsewhere]:
            response.close()
        return [r.status_code for r in opened], elsewhere.status_code

    statuses, elsewhere = run_own_loop(scenario)
    assert statuses == [200, 200, 429]
    assert elsewhere == 200


def test_streams_per_process_are_bounded_with_a_clear_503(evening: Evening, settings: Any) -> None:
    settings.LIVE_STREAMS_PER_PROCESS = 2
    tokens = [_token(evening) for _ in range(3)]

    async def scenario() -> tuple[list[int], str]:
        opened = [
            await _from(f"10.0.0.{i}").get(f"/live/{token}/events/")
            for i, token in enumerate(tokens)
        ]
        for response in opened:
            response.close()
        return [r.status_code for r in opened], opened[2]["Retry-After"]

    statuses, retry_after = run_own_loop(scenario)
    assert statuses == [200, 200, 503]
    assert int(retry_after) > 0


@pytest.mark.postgres
def test_a_burst_of_member_streams_holds_no_more_connections_than_the_pool(
    club: Club, evening: Evening, settings: Any
) -> None:
    """200 streams opened at once used to take a connection each (7 of them answered
    500 with PostgreSQL's 100); now the streams' threads read for all of them."""
    burst = 60
    settings.LIVE_DB_THREADS = 3
    cookies = []
    for _ in range(burst):
        login = Client()
        login.force_login(MembershipFactory.create(club=club, role=Role.MEMBER).user)
        cookies.append(f"sessionid={login.cookies['sessionid'].value}")

    async def scenario() -> list[int]:
        streams = [
            AsgiStream(f"/evenings/{evening.pk}/live/events/", f"10.1.0.{i}", cookie)
            for i, cookie in enumerate(cookies)
        ]
        for each in streams:  # all at once, as after a restart
            each.open()
        await asyncio.wait_for(asyncio.gather(*(each.first.wait() for each in streams)), 60)
        for each in streams:
            await each.close()
        return [each.status for each in streams]

    statuses, grown = run_counting_connections(scenario)
    assert statuses == [200] * burst
    # The pool's threads, and the test's own connection (its factories).
    assert 0 < grown <= settings.LIVE_DB_THREADS + 1, grown
