"""The evening's live state as a stream sends it, read once per push for all of an
event loop's streams (``StateCache``), and the small pool of threads every database
read of a stream runs in (``read_in_pool``), whatever the number of viewers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections, connections
from django.http import Http404
from django.utils import translation

from games.models import Evening
from live import selectors


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
            future = asyncio.ensure_future(read_in_pool(state_json, evening_id))
            self._reads[evening_id] = found = (number, future)
        return await asyncio.shield(found[1])


_caches: dict[int, StateCache] = {}
_caches_lock = threading.Lock()


def _cache() -> StateCache:
    loop_id = id(asyncio.get_running_loop())
    with _caches_lock:
        return _caches.setdefault(loop_id, StateCache())


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


async def read_in_pool(fn: Callable[..., Any], *args: Any) -> Any:
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
