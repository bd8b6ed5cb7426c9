"""The garbage collector's pauses of a process, for ``api_load.py``'s figures.

A collection of the older generations stops the whole process: in a gunicorn
worker it stops the request in hand, in the benchmark's client it stops all 16
scorer threads, and the responses that arrive meanwhile are timed late. Which of
the two a latency tail comes from shows only when the pauses are written down
with the same clock as the requests (``time.perf_counter``, the system's
monotonic clock, the same in every process on the machine).
"""

from __future__ import annotations

import gc
import os
import time
from pathlib import Path
from typing import Any

# The youngest generation's collections take microseconds: only the others are kept.
YOUNGEST_KEPT = 1


class Pauses:
    """Record the collections of generation ``YOUNGEST_KEPT`` and older of this process.

    ``pauses`` holds ``(generation, started, ended)``; with ``path``, each is also
    appended to that file as ``pid,generation,started,seconds`` (one line each,
    written as it ends: a gunicorn worker is stopped, not asked to report).
    """

    def __init__(self, path: Path | None = None) -> None:
        self.pauses: list[tuple[int, float, float]] = []
        self._started = 0.0
        self._file = path.open("a", buffering=1) if path is not None else None
        gc.callbacks.append(self._watch)

    def _watch(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        generation = int(info["generation"])
        if generation < YOUNGEST_KEPT:
            return
        ended = time.perf_counter()
        self.pauses.append((generation, self._started, ended))
        if self._file is not None:
            self._file.write(
                f"{os.getpid()},{generation},{self._started:.6f},{ended - self._started:.6f}\n"
            )

    def close(self) -> None:
        """Stop recording (the pauses recorded stay)."""
        if self._watch in gc.callbacks:
            gc.callbacks.remove(self._watch)
        if self._file is not None:
            self._file.close()
            self._file = None

    def between(self, start: float, end: float) -> list[tuple[int, float, float]]:
        return [p for p in self.pauses if start <= p[1] < end]


def read_log(path: Path) -> list[tuple[int, int, float, float]]:
    """A ``Pauses`` file's lines as ``(pid, generation, started, ended)``."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        pid, generation, started, seconds = line.split(",")
        rows.append((int(pid), int(generation), float(started), float(started) + float(seconds)))
    return rows
