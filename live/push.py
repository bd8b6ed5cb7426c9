"""Telling an evening's open live views that it changed.

A service that changed an evening calls ``evening_changed_push(evening_id)``
inside its transaction; the push goes out once the transaction commits (never
for a rollback). Every process has one ``Hub``: its live streams subscribe to
it per evening, and a push reaches them within the process at once. With
``LIVE_REDIS_URL`` set the push is a Redis ``PUBLISH`` instead, and each
process's listener thread hands what it hears to its own hub: so a change
recorded by one worker reaches the viewers held by every other.

A message is only "evening N changed" (with a number that orders the
messages): each stream then reads the evening's state once per message for all
of its process's viewers (``live.stream``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from typing import Any

from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)


class Subscription:
    """One live stream's inbox for one evening: the latest message numbers pushed.

    Made for an event loop (``loop`` set: ``get`` is awaited) or for a thread
    (``wait`` blocks); delivery is thread-safe either way.
    """

    def __init__(self, hub: Hub, evening_id: int, loop: asyncio.AbstractEventLoop | None):
        self.hub = hub
        self.evening_id = evening_id
        self.loop = loop
        self._async: asyncio.Queue[int] | None = asyncio.Queue() if loop is not None else None
        self._sync: queue.SimpleQueue[int] = queue.SimpleQueue()

    def deliver(self, number: int) -> None:
        if self.loop is not None and self._async is not None:
            # A closed loop (RuntimeError): its stream is going away.
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(self._async.put_nowait, number)
        else:
            self._sync.put(number)

    async def get(self, timeout: float) -> int | None:
        """The latest number pushed (older ones waiting are skipped), or None after ``timeout``."""
        assert self._async is not None
        try:
            number = await asyncio.wait_for(self._async.get(), timeout)
        except TimeoutError:
            return None
        while not self._async.empty():
            number = self._async.get_nowait()
        return number

    def wait(self, timeout: float) -> int | None:
        """``get`` for a thread."""
        try:
            number = self._sync.get(timeout=timeout)
        except queue.Empty:
            return None
        while True:
            try:
                number = self._sync.get_nowait()
            except queue.Empty:
                return number

    def close(self) -> None:
        self.hub.unsubscribe(self)


class Hub:
    """The process's subscriptions by evening; ``publish`` reaches them (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[int, set[Subscription]] = {}
        self._listener: threading.Thread | None = None

    def subscribe(
        self, evening_id: int, loop: asyncio.AbstractEventLoop | None = None
    ) -> Subscription:
        sub = Subscription(self, evening_id, loop)
        with self._lock:
            self._subs.setdefault(evening_id, set()).add(sub)
        if settings.LIVE_REDIS_URL:
            self._listen()
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subs.get(sub.evening_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.evening_id]

    def viewers(self) -> int:
        with self._lock:
            return sum(len(subs) for subs in self._subs.values())

    def deliver(self, evening_id: int, number: int) -> None:
        """Hand a message to this process's streams of the evening."""
        with self._lock:
            subs = list(self._subs.get(evening_id, ()))
        for sub in subs:
            sub.deliver(number)

    def publish(self, evening_id: int) -> None:
        """Tell every live view of the evening (in every process, with Redis) that it changed."""
        number = time.time_ns()
        if not settings.LIVE_REDIS_URL:
            self.deliver(evening_id, number)
            return
        try:
            _redis().publish(f"{settings.LIVE_CHANNEL_PREFIX}:evening:{evening_id}", str(number))
        except Exception:
            # A push lost is a view a little late (it polls on), never a write refused.
            logger.exception("live push to Redis failed; delivering in this process only")
            self.deliver(evening_id, number)

    def _listen(self) -> None:
        with self._lock:
            if self._listener is not None and self._listener.is_alive():
                return
            self._listener = threading.Thread(
                target=self._listen_forever, name="live-redis-listener", daemon=True
            )
            self._listener.start()

    def _listen_forever(self) -> None:
        prefix = f"{settings.LIVE_CHANNEL_PREFIX}:evening:"
        while True:
            try:
                pubsub = _redis().pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe(prefix + "*")
                for message in pubsub.listen():
                    channel = message["channel"].decode()
                    self.deliver(int(channel[len(prefix) :]), int(message["data"]))
            except Exception:
                logger.exception("live Redis listener failed; listening again in 1 s")
                time.sleep(1)


_client: Any = None
_client_lock = threading.Lock()


def _redis() -> Any:
    global _client
    with _client_lock:
        if _client is None:
            import redis

            _client = redis.Redis.from_url(settings.LIVE_REDIS_URL)
        return _client


HUB = Hub()


def evening_changed_push(evening_id: int) -> None:
    """Push "evening changed" to its live views once the caller's transaction commits."""
    transaction.on_commit(lambda: HUB.publish(evening_id))
