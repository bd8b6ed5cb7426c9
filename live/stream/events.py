"""What an open stream sends and when: the state at once, again after every push, a
keepalive in between, and the end once its holder may no longer look (``Viewer``,
asked again every ``RECHECK`` seconds, one check shared by a holder's streams)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.db import close_old_connections
from django.http import Http404

from live.push import HUB
from live.stream.state import _cache, read_in_pool, state_json

KEEPALIVE = 15.0
# How often an open stream asks again whether its holder may still look.
RECHECK = 5.0
# How soon a browser asks again after a single-threaded worker's answer (as polling).
POLL_MS = 5000
# An open stream is ended after this long; the browser's EventSource reconnects at
# once (and gets the state anew), so no connection or thread lives for ever.
MAX_AGE = 30 * 60.0


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
            future = asyncio.ensure_future(read_in_pool(_allowed, viewer))
            self._checks[viewer.check_key] = found = (now + RECHECK, future)
        return await asyncio.shield(found[1])


_checks: dict[int, CheckCache] = {}
_checks_lock = threading.Lock()


def _check_cache() -> CheckCache:
    loop_id = id(asyncio.get_running_loop())
    with _checks_lock:
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


def once(first: str) -> Iterator[str]:
    """A single-threaded worker's answer: the state once, then the browser asks again
    in ``POLL`` ms (as the page's polling would), holding the worker no longer."""
    yield f"retry: {POLL_MS}\n" + _frame(first)
