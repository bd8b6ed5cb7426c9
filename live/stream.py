"""The live views' server-sent events: the evening's state, again after every push.

One stream per open live view. It sends the state at once, then waits on the
process's ``live.push.HUB`` for the evening; on a push it sends the state anew
(``event: state``), and a comment line every few seconds in between so that
proxies keep the connection. Under ASGI (uvicorn) a stream is a coroutine: one
process holds hundreds, and the state for a push is read once for all of its
viewers of that evening (``StateCache``). Under a threaded WSGI server
(``runserver``, the embedded default) a stream holds a thread, which is right for
a few phones; a single-threaded WSGI worker (gunicorn's sync workers) answers the
state once and ends, rather than be held by one phone: the browser asks again
every 5 s, as the page's polling would.

A stream holds no database connection while open: it authenticates and reads
through a small pool of threads (``LIVE_DB_THREADS`` per process, each with its
connection), whatever the number of viewers. Every ``RECHECK`` seconds it asks
again whether its holder may still look (the link not revoked, the member still
in the club and logged in) and ends if not. The streams per process, per client
address and per link (or member) are bounded (``StreamSlots``): beyond, a clear
503 or 429 at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections, connections
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import translation
from django.utils.translation import gettext as _

from games.models import Evening
from live import selectors
from live.push import HUB
from stichbuch.client_ip import client_ip

logger = logging.getLogger(__name__)

KEEPALIVE = 15.0
# How often an open stream asks again whether its holder may still look.
RECHECK = 5.0
# How soon a browser asks again after a single-threaded worker's answer (as polling).
POLL_MS = 5000
# An open stream is ended after this long; the browser's EventSource reconnects at
# once (and gets the state anew), so no connection or thread lives for ever.
MAX_AGE = 30 * 60.0


def first_state_json(evening_id: int) -> str:
    """``state_json`` for a stream about to open: an evening deleted since the viewer
    was found is a 404 (the stream's answer), not a server error."""
    try:
        return state_json(evening_id)
    except Evening.DoesNotExist:
        raise Http404 from None


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


# The frame that ends a stream whose holder may no longer look (revoked, removed).
END = "event: end\ndata: {}\n\n"
NOT_ALLOWED = (Http404, PermissionDenied, ObjectDoesNotExist)


@dataclass(frozen=True)
class Viewer:
    """Who opened a stream: the evening, the holder (``"link:<key>"``, ``"member:<id>"``),
    and ``still_allowed``, which raises ``Http404`` (or ``PermissionDenied``) once the
    holder may no longer look. ``check_key`` names the check, which streams of the
    same holder and evening share (one query per ``RECHECK`` for all of them)."""

    evening_id: int
    holder: str
    check_key: str
    still_allowed: Callable[[], object]


def _allowed(viewer: Viewer) -> bool:
    try:
        viewer.still_allowed()
    except NOT_ALLOWED:
        return False
    return True


class CheckCache:
    """Per event loop: a holder's latest check, shared by its streams for ``RECHECK`` s."""

    def __init__(self) -> None:
        self._checks: dict[str, tuple[float, asyncio.Future[bool]]] = {}

    async def allowed(self, viewer: Viewer) -> bool:
        now = asyncio.get_running_loop().time()
        found = self._checks.get(viewer.check_key)
        if found is None or found[0] <= now:
            if len(self._checks) > 4096:  # keys of streams long gone
                self._checks = {k: v for k, v in self._checks.items() if v[0] > now}
            future = asyncio.ensure_future(_read(_allowed, viewer))
            self._checks[viewer.check_key] = found = (now + RECHECK, future)
        return await asyncio.shield(found[1])


_checks: dict[int, CheckCache] = {}


def _check_cache() -> CheckCache:
    loop_id = id(asyncio.get_running_loop())
    with _caches_lock:
        return _checks.setdefault(loop_id, CheckCache())


async def _async_events(viewer: Viewer, first: str) -> AsyncIterator[str]:
    evening_id = viewer.evening_id
    loop = asyncio.get_running_loop()
    sub = HUB.subscribe(evening_id, loop)
    ends = loop.time() + MAX_AGE
    next_check = loop.time() + RECHECK
    try:
        yield "retry: 1000\n" + _frame(first)
        while loop.time() < ends:
            number = await sub.get(max(0.0, min(KEEPALIVE, next_check - loop.time())))
            if loop.time() >= next_check:
                if not await _check_cache().allowed(viewer):
                    yield END
                    return
                next_check = loop.time() + RECHECK
            if number is None:
                yield ": keepalive\n\n"
                continue
            yield _frame(await _cache().get(evening_id, number))
    finally:
        sub.close()


def _sync_events(viewer: Viewer, first: str) -> Iterator[str]:
    evening_id = viewer.evening_id
    sub = HUB.subscribe(evening_id)
    try:
        yield "retry: 1000\n" + _frame(first)
        waited = 0.0
        while waited < MAX_AGE:
            number = sub.wait(RECHECK)
            waited += RECHECK if number is None else 0.0
            if not _allowed(viewer):
                yield END
                return
            yield ": keepalive\n\n" if number is None else _frame(state_json(evening_id))
            # A thread that streams for long must not keep a stale connection.
            close_old_connections()
    finally:
        sub.close()


def _once(first: str) -> Iterator[str]:
    """A single-threaded worker's answer: the state once, then the browser asks again
    in ``POLL`` ms (as the page's polling would), holding the worker no longer."""
    yield f"retry: {POLL_MS}\n" + _frame(first)


_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(
                max_workers=settings.LIVE_DB_THREADS, thread_name_prefix="live-db"
            )
        return _pool


def _in_pool(fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return fn(*args)
    finally:
        # As at the end of a request: a connection past CONN_MAX_AGE, or broken, goes.
        close_old_connections()


async def _read(fn: Callable[..., Any], *args: Any) -> Any:
    """Run a database read of a stream in the streams' own thread pool.

    Not in the request's own thread (``thread_sensitive``): under ASGI every
    request has a thread of its own, whose database connection stays open until
    the request ends — for a stream, as long as the phone looks — and a burst of
    streams opened at once (a restart) opened as many connections as streams.
    The pool's ``LIVE_DB_THREADS`` threads keep one connection each, whatever the
    number of viewers.
    """
    return await sync_to_async(_in_pool, thread_sensitive=False, executor=_executor())(fn, *args)


def pool_close() -> None:
    """Close the pool's connections and threads (tests: before the database is dropped)."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is None:
        return
    workers = settings.LIVE_DB_THREADS
    # One task per thread, each held until all have started: every thread closes its own.
    together = threading.Barrier(workers, timeout=10)

    def close() -> None:
        with contextlib.suppress(threading.BrokenBarrierError):
            together.wait()
        connections.close_all()

    for _thread in range(workers):
        pool.submit(close)
    pool.shutdown(wait=True)


# --- How many streams -----------------------------------------------------------------------


class Slot:
    """One open stream's places in the counts; ``release`` once, whoever calls it first."""

    def __init__(self, slots: StreamSlots, keys: list[str]) -> None:
        self._slots = slots
        self.keys = keys
        self._released = False

    def add(self, key: str, limit: int) -> bool:
        if self._slots.take([(key, limit)]):
            self.keys.append(key)
            return True
        return False

    def release(self) -> None:
        with self._slots.lock:
            if self._released:
                return
            self._released = True
        self._slots.give_back(self.keys)


class StreamSlots:
    """The open streams of this process: in all, per client address, per holder.

    Per process (each worker counts its own): a holder reaching several workers
    holds at most the limit on each. A push's delay grows with the streams of a
    process (one frame written per viewer), so the bound keeps it short for all.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._counts: Counter[str] = Counter()

    def take(self, wanted: list[tuple[str, int]]) -> bool:
        with self.lock:
            if any(self._counts[key] >= limit for key, limit in wanted):
                return False
            for key, _limit in wanted:
                self._counts[key] += 1
            return True

    def give_back(self, keys: list[str]) -> None:
        with self.lock:
            for key in keys:
                self._counts[key] -= 1
                if self._counts[key] <= 0:
                    del self._counts[key]

    def count(self, key: str = "all") -> int:
        with self.lock:
            return self._counts[key]


SLOTS = StreamSlots()


def _refused(status: int, text: str, retry_after: int) -> HttpResponse:
    response = HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(retry_after)
    response["Cache-Control"] = "no-store"
    return response


def _too_many(scope: str) -> HttpResponse:
    if scope == "all":
        return _refused(
            503,
            _(
                "This server holds as many live views as it can: the page updates itself "
                "every few seconds instead."
            ),
            30,
        )
    return _refused(
        429,
        _(
            "Too many live views are open from here: close some, the page updates itself "
            "every few seconds meanwhile."
        ),
        30,
    )


async def stream_response(request: HttpRequest, find: Callable[[], Viewer]) -> HttpResponseBase:
    """The SSE answer for the ``Viewer`` that ``find`` gives (it raises ``Http404`` else).

    ``find`` runs in the pool (ASGI) or the request's thread (WSGI). A single-threaded
    WSGI worker (gunicorn's sync workers), which a stream would hold, answers with the
    state once and ends (``_once``). Refused at once, before any database read: 503
    beyond ``LIVE_STREAMS_PER_PROCESS``; 429 beyond
    ``LIVE_STREAMS_PER_ADDRESS`` for the client's address and, once ``find`` named
    the holder, beyond ``LIVE_STREAMS_PER_LINK`` for it.
    """
    is_asgi = isinstance(request, ASGIRequest)
    if not is_asgi and not request.META.get("wsgi.multithread", False):
        viewer = await sync_to_async(find)()
        first = await sync_to_async(first_state_json)(viewer.evening_id)
        once = StreamingHttpResponse(_once(first), content_type="text/event-stream")
        once["Cache-Control"] = "no-cache, no-store"
        return once
    address = f"address:{client_ip(request) or '-'}"
    if not SLOTS.take([("all", settings.LIVE_STREAMS_PER_PROCESS)]):
        return _too_many("all")
    slot = Slot(SLOTS, ["all"])
    try:
        if not slot.add(address, settings.LIVE_STREAMS_PER_ADDRESS):
            slot.release()
            return _too_many(address)
        content: Any
        if is_asgi:
            # Nothing of the request's own thread keeps a connection open meanwhile.
            await sync_to_async(connections.close_all)()
            viewer = await _read(find)
        else:
            viewer = await sync_to_async(find)()
        if not slot.add(viewer.holder, settings.LIVE_STREAMS_PER_LINK):
            slot.release()
            return _too_many(viewer.holder)
        if is_asgi:
            content = _released(
                _async_events(viewer, await _read(first_state_json, viewer.evening_id)), slot
            )
        else:
            first = await sync_to_async(first_state_json)(viewer.evening_id)
            content = _released_sync(_sync_events(viewer, first), slot)
    except BaseException:
        slot.release()
        raise
    response = EventStreamResponse(content, slot)
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


class EventStreamResponse(StreamingHttpResponse):
    """The stream's answer; closing it gives its places back. The handler closes it
    when the stream ends or the client goes, even if the stream never started."""

    def __init__(self, content: Any, slot: Slot) -> None:
        super().__init__(content, content_type="text/event-stream")
        self.slot = slot

    def close(self) -> None:
        self.slot.release()
        super().close()


async def _released(events: AsyncIterator[str], slot: Slot) -> AsyncIterator[str]:
    try:
        async for chunk in events:
            yield chunk
    finally:
        slot.release()


def _released_sync(events: Iterator[str], slot: Slot) -> Iterator[str]:
    try:
        yield from events
    finally:
        slot.release()
