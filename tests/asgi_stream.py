"""Streams through the real ASGI handler, for the tests of the live and tournament
streams: ``AsgiStream`` opens one GET as uvicorn calls the app, ``run_own_loop``
runs a scenario of them on an event loop of its own thread."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.db import connection, connections

T = TypeVar("T")


def run_own_loop(scenario: Callable[[], Awaitable[T]]) -> T:
    """``scenario`` on an event loop of its own thread (see ``test_push``)."""

    async def then_closed() -> T:
        try:
            return await scenario()
        finally:  # the connection of asgiref's thread (logins, counts) too
            await sync_to_async(connections.close_all)()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, then_closed()).result(timeout=60)


def run_counting_connections(scenario: Callable[[], Awaitable[T]]) -> tuple[T, int]:
    """``run_own_loop(scenario)``, and the most connections to the test database open
    at once while it ran beyond those open before it (counted from another thread
    every 5 ms; connections other tests' servers left open count neither way)."""
    before = connections_open()
    most = [before]
    done = threading.Event()

    def count() -> None:
        try:
            while not done.is_set():
                most[0] = max(most[0], connections_open())
                time.sleep(0.005)
        finally:
            connection.close()

    counter = threading.Thread(target=count)
    counter.start()
    try:
        result = run_own_loop(scenario)
    finally:
        done.set()
        counter.join(timeout=10)
    return result, most[0] - before


def connections_open() -> int:
    """The connections to the test database other than this thread's own (PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [connection.settings_dict["NAME"]],
        )
        row = cursor.fetchone()
        assert row is not None
        return int(row[0])


class AsgiStream:
    """One GET through the real ASGI handler (``stichbuch.asgi``), as uvicorn calls it:
    a request of its own thread context, its answer read as it comes."""

    def __init__(self, path: str, address: str, cookie: str) -> None:
        self.scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [
                (b"host", b"testserver"),
                (b"cookie", cookie.encode()),
                (b"x-forwarded-for", address.encode()),
            ],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        self.status = 0
        self.first = asyncio.Event()
        self.bodies: list[bytes] = []  # each chunk of the answer, as it came
        self.gone = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.asked = False

    async def _receive(self) -> dict[str, Any]:
        if not self.asked:
            self.asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: Mapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
        elif message["type"] == "http.response.body":
            if message.get("body"):
                self.bodies.append(message["body"])
            self.first.set()

    def open(self) -> None:
        from stichbuch.asgi import application

        self.task = asyncio.ensure_future(application(self.scope, self._receive, self._send))

    async def close(self) -> None:
        self.gone.set()
        assert self.task is not None
        await asyncio.wait_for(self.task, 30)
