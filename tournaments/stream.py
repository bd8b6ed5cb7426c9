"""The live ranking's server-sent events, over the live app's push (``live.push.HUB``).

Nothing new is pushed for a tournament's games: every append, game start, close
and reopen at a table already publishes "evening N changed" for that table's
evening. A ranking stream follows every evening of the tournament and, for
the draws, confirmations and the close, the tournament's own channel
(``tournaments.push.channel``). On a message it reads the
ranking once and sends it (``event: state``); a new series' evenings are
followed from the message its confirmation sends.

As the evening's live streams (``live.stream``): under ASGI every database read
of a stream runs in the live streams' pool of threads (``live.stream.read_in_pool``),
so a burst of screens and phones holds no more connections than the pool, and a
connection that broke is dropped as at the end of a request; a single-threaded WSGI
worker (gunicorn's sync workers), which a stream would hold for half an hour, answers
with the ranking once and ends (``live.stream.once``), and the browser asks again in
``live.stream.POLL_MS``.
"""

from __future__ import annotations

import asyncio
import functools
import json
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections, connections
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import translation

from live.push import HUB, Subscription
from live.stream import once, read_in_pool
from tournaments import presenters, selectors
from tournaments.models import Tournament
from tournaments.push import channel

KEEPALIVE = 15.0
MAX_AGE = 30 * 60.0


def state_json(tournament_id: int) -> str:
    tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
    with translation.override(settings.LANGUAGE_CODE):
        return json.dumps(presenters.ranking_data(tournament), separators=(",", ":"))


class FanIn:
    """Several hub subscriptions (the tournament's channel, each table's evening) read
    as one inbox: a message of any of them wakes the stream once."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None) -> None:
        self.loop = loop
        # The one inbox, a hub subscription's own queue, never registered with the hub:
        # the subscriptions below deliver into it (``Subscription.get``/``wait`` read it).
        self._inbox = Subscription(HUB, 0, loop)
        self._subs: dict[int, Subscription] = {}
        # Set by a message on the tournament's own channel (a series confirmed: new
        # evenings to follow); the stream then reads the channels again.
        self.stale = False

    def follow(self, channels: list[int]) -> None:
        for number in channels:
            if number not in self._subs:
                sub = HUB.subscribe(number, self.loop)
                # The hub hands each message to ``sub.deliver``: here it lands in the
                # one inbox of this stream (thread-safe, as the hub's own delivery).
                sub.deliver = functools.partial(self._deliver, number)  # type: ignore[method-assign]
                self._subs[number] = sub

    def _deliver(self, source: int, number: int) -> None:
        if source < 0:
            self.stale = True
        self._inbox.deliver(number)

    async def get(self, timeout: float) -> int | None:
        return await self._inbox.get(timeout)

    def wait(self, timeout: float) -> int | None:
        return self._inbox.wait(timeout)

    def close(self) -> None:
        for sub in self._subs.values():
            sub.close()


class StateCache:
    """Per event loop: the ranking for the latest message, read once for every stream
    of the tournament in the process (a message reaches them all at the same moment)."""

    def __init__(self) -> None:
        self._reads: dict[int, tuple[int, asyncio.Future[str]]] = {}

    async def get(self, tournament_id: int, number: int) -> str:
        found = self._reads.get(tournament_id)
        if found is None or found[0] != number:
            future = asyncio.ensure_future(read_in_pool(state_json, tournament_id))
            self._reads[tournament_id] = found = (number, future)
        return await asyncio.shield(found[1])


_caches: dict[int, StateCache] = {}
_caches_lock = threading.Lock()


def _cache() -> StateCache:
    loop_id = id(asyncio.get_running_loop())
    with _caches_lock:
        return _caches.setdefault(loop_id, StateCache())


def _channels(tournament_id: int) -> list[int]:
    tournament = Tournament(pk=tournament_id)
    return [channel(tournament_id), *selectors.tournament_evening_ids(tournament=tournament)]


def _frame(state: str) -> str:
    return f"event: state\ndata: {state}\n\n"


async def _async_events(tournament_id: int, first: str) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    inbox = FanIn(loop)
    inbox.follow(await read_in_pool(_channels, tournament_id))
    ends = loop.time() + MAX_AGE
    try:
        yield "retry: 1000\n" + _frame(first)
        while loop.time() < ends:
            number = await inbox.get(KEEPALIVE)
            if number is None:
                yield ": keepalive\n\n"
                continue
            if inbox.stale:
                inbox.stale = False
                inbox.follow(await read_in_pool(_channels, tournament_id))
            yield _frame(await _cache().get(tournament_id, number))
    finally:
        inbox.close()


def _sync_events(tournament_id: int, first: str) -> Iterator[str]:
    inbox = FanIn(None)
    inbox.follow(_channels(tournament_id))
    try:
        yield "retry: 1000\n" + _frame(first)
        waited = 0.0
        while waited < MAX_AGE:
            number = inbox.wait(KEEPALIVE)
            if number is None:
                waited += KEEPALIVE
                yield ": keepalive\n\n"
                continue
            if inbox.stale:
                inbox.stale = False
                inbox.follow(_channels(tournament_id))
            yield _frame(state_json(tournament_id))
            close_old_connections()
    finally:
        inbox.close()


async def stream_response(
    request: HttpRequest, find: Callable[[], Tournament]
) -> StreamingHttpResponse:
    """The SSE answer for the tournament ``find`` gives (it raises ``Http404`` else):
    ``find`` runs in the live streams' pool (ASGI) or the request's thread (WSGI)."""
    content: Any
    if isinstance(request, ASGIRequest):
        # Nothing of the request's own thread keeps a connection open meanwhile.
        await sync_to_async(connections.close_all)()
        tournament = await read_in_pool(find)
        content = _async_events(tournament.pk, await read_in_pool(state_json, tournament.pk))
    else:
        tournament = await sync_to_async(find)()
        first = await sync_to_async(state_json)(tournament.pk)
        if request.META.get("wsgi.multithread", False):
            content = _sync_events(tournament.pk, first)
        else:
            content = once(first)  # the live streams' answer: the state once
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"
    return response
