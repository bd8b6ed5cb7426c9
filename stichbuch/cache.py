"""The shared cache (``CACHE_URL``), which counts locally while its Redis is away.

The throttle and login-failure counts (``stichbuch.throttling``) live in the
default cache. Django's ``RedisCache`` raises as soon as its Redis is stopped or
unreachable, and every login, sign-up and reset mail then answered 500. A login
must not depend on the cache: ``FallbackRedisCache`` catches the connection error,
logs it once per outage and answers from a cache of the process itself for
``RETRY_SECONDS``, then tries Redis again. So during an outage the password check
runs as always and the counts go on, per process (a gunicorn process with its own
counts, as without ``CACHE_URL``); when Redis is back the shared counts apply again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

T = TypeVar("T")

# How long the process answers from its own cache before it tries Redis again: an
# outage costs each request at most one failed connection per this many seconds.
RETRY_SECONDS = 5.0
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


class FallbackRedisCache(RedisCache):
    """``RedisCache`` that falls back to a process-local cache while Redis is unreachable."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        # An unreachable host must not hold a request for the socket's default minutes.
        options.setdefault("socket_connect_timeout", 1.0)
        options.setdefault("socket_timeout", 1.0)
        super().__init__(server, {**params, "OPTIONS": options})
        self._local = LocMemCache(f"fallback:{server}", {"TIMEOUT": params.get("TIMEOUT", 300)})
        self._down_until = 0.0
        self._state_lock = threading.Lock()

    @property
    def is_using_fallback(self) -> bool:
        return time.monotonic() < self._down_until

    def _either(self, shared: Callable[[], T], local: Callable[[], T]) -> T:
        if self.is_using_fallback:
            return local()
        try:
            return shared()
        except UNREACHABLE as error:
            with self._state_lock:
                first = self._down_until == 0.0
                self._down_until = time.monotonic() + RETRY_SECONDS
            if first:
                logger.warning(
                    "the shared cache is unreachable (%s): counting in this process", error
                )
            return local()

    def _back(self) -> None:
        with self._state_lock:
            self._down_until = 0.0
        logger.warning("the shared cache is back")

    def _ok(self, value: T) -> T:
        """Redis answered: an outage's fallback ends (logged once)."""
        if self._down_until:
            self._back()
        return value

    def clear(self) -> None:
        """Clear both: Redis (if reachable) and what was counted here during an outage."""
        self._local.clear()
        self._either(lambda: self._ok(super(FallbackRedisCache, self).clear()), lambda: None)


def _falling_back(name: str) -> Callable[..., Any]:
    shared = getattr(RedisCache, name)

    def method(self: FallbackRedisCache, *args: Any, **kwargs: Any) -> Any:
        return self._either(
            lambda: self._ok(shared(self, *args, **kwargs)),
            lambda: getattr(self._local, name)(*args, **kwargs),
        )

    method.__name__ = name
    method.__doc__ = f"``RedisCache.{name}``, or the process's own cache while Redis is away."
    return method


# Every operation of the cache API that reaches Redis (the rest, such as decr and
# get_or_set, are built on these).
for _name in (
    "get",
    "add",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "set_many",
    "delete_many",
):
    setattr(FallbackRedisCache, _name, _falling_back(_name))
