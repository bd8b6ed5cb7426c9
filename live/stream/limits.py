"""How many streams: the open streams of this process counted in all, per client
address and per holder (``SLOTS``), and the clear 503 or 429 beyond a limit."""

from __future__ import annotations

import threading
from collections import Counter

from django.http import HttpResponse
from django.utils.translation import gettext as _


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
