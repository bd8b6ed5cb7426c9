"""The live views' server-sent events: the evening's state, again after every push.

One stream per open live view. It sends the state at once, then waits on the
process's ``live.push.HUB`` for the evening; on a push it sends the state anew
(``event: state``), and a comment line every ``KEEPALIVE`` seconds in between so
that proxies keep the connection. Under ASGI (uvicorn) a stream is a coroutine:
one process holds hundreds, and the state for a push is read once for all of
its viewers of that evening (``StateCache``). Under WSGI (``runserver``, the
embedded default) a stream holds a thread, which is right for a few phones.
"""

from __future__ import annotations

import asyncio
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

from games.models import Evening
from live import selectors
from live.push import HUB

KEEPALIVE = 15.0
# An open stream is ended after this long; the browser's EventSource reconnects at
# once (and gets the state anew), so no connection or thread lives for ever.
MAX_AGE = 30 * 60.0


def state_json(evening_id: int) -> str:
    """The evening's live state as one line of JSON, in the site's language."""
    evening = Evening.objects.select_related("club", "season").get(pk=evening_id)
    with translation.override(settings.LANGUAGE_CODE):
        return json.dumps(selectors.live_state(evening=evening), separators=(",", ":"))


class StateCache:
    """Per event loop: the state of an evening for the latest push, read once.

    A push reaches every stream of the evening in the process at the same moment;
    the first to ask reads the state (in a thread), the others await that read.
    """

    def __init__(self) -> None:
        self._reads: dict[int, tuple[int, asyncio.Future[str]]] = {}

    async def get(self, evening_id: int, number: int) -> str:
        found = self._reads.get(evening_id)
        if found is None or found[0] != number:
            future = asyncio.ensure_future(_read(state_json, evening_id))
            self._reads[evening_id] = found = (number, future)
        return await asyncio.shield(found[1])


_caches: dict[int, StateCache] = {}
_caches_lock = threading.Lock()


def _cache() -> StateCache:
    loop_id = id(asyncio.get_running_loop())
    with _caches_lock:
        return _caches.setdefault(loop_id, StateCache())


def _frame(state: str) -> str:
    return f"event: state\ndata: {state}\n\n"


async def _async_events(evening_id: int, first: str) -> AsyncIterator[str]:
    sub = HUB.subscribe(evening_id, asyncio.get_running_loop())
    loop = asyncio.get_running_loop()
    ends = loop.time() + MAX_AGE
    try:
        yield "retry: 1000\n" + _frame(first)
        while loop.time() < ends:
            number = await sub.get(KEEPALIVE)
            if number is None:
                yield ": keepalive\n\n"
                continue
            yield _frame(await _cache().get(evening_id, number))
    finally:
        sub.close()


def _sync_events(evening_id: int, first: str) -> Iterator[str]:
    sub = HUB.subscribe(evening_id)
    try:
        yield "retry: 1000\n" + _frame(first)
        waited = 0.0
        while waited < MAX_AGE:
            number = sub.wait(KEEPALIVE)
            if number is None:
                waited += KEEPALIVE
                yield ": keepalive\n\n"
                continue
            yield _frame(state_json(evening_id))
            # A thread that streams for long must not keep a stale connection.
            close_old_connections()
    finally:
        sub.close()


async def _read(fn: Callable[..., Any], *args: Any) -> Any:
    """Run a database read of a stream in the shared thread pool.

    Not in the request's own thread (``thread_sensitive``): under ASGI every
    request has a thread of its own, whose database connection stays open until
    the request ends — for a stream, as long as the phone looks. The pool's few
    threads keep one connection each, whatever the number of viewers.
    """
    return await sync_to_async(fn, thread_sensitive=False)(*args)


async def stream_response(
    request: HttpRequest, find_evening: Callable[[], Evening]
) -> StreamingHttpResponse:
    """The SSE answer for the evening ``find_evening`` gives (it raises ``Http404`` else).

    Under ASGI any connection the request's own thread opened before (the session
    of a member's stream) is closed first, and the reads go to the pool, for the
    reason given in ``_read``. Under WSGI the request's thread streams itself.
    """
    content: Any
    if isinstance(request, ASGIRequest):
        await sync_to_async(connections.close_all)()
        evening = await _read(find_evening)
        content = _async_events(evening.pk, await _read(state_json, evening.pk))
    else:
        evening = await sync_to_async(find_evening)()
        content = _sync_events(evening.pk, await sync_to_async(state_json)(evening.pk))
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
