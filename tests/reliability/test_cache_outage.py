"""Logging in while the cache's Redis is down (issue 38, point 1).

The throttle and login-failure counts live in the shared cache (``CACHE_URL``).
With that Redis stopped, every login, sign-up and reset mail answered 500. Now
the cache counts in the process while Redis is away (``stichbuch.cache``): the
password check runs, a lockout still comes, and the shared counts apply again
once Redis is back. A real ``redis-server`` of the test's own (never the
machine's), stopped and started again.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.core.cache import cache
from django.test import Client, override_settings
from rest_framework.test import APIClient

from stichbuch import cache as fallback
from tests.factories import PASSWORD, UserFactory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]


def _free_port() -> int:
    for port in range(6390, 6490):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port
    raise RuntimeError("no free port for a redis-server of the test's own")


class RedisServer:
    """A redis-server of this test alone, on a free port: stop() and start() it."""

    def __init__(self, directory: Path) -> None:
        self.port = _free_port()
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", str(self.directory)),
            ],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url)
        for _ in range(100):
            try:
                client.ping()
                return
            except redis.exceptions.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("the test's redis-server did not start")

    def stop(self) -> None:
        assert self.process is not None
        self.process.terminate()
        self.process.wait(timeout=10)
        self.process = None

    def keys(self) -> list[str]:
        return [str(key) for key in redis.Redis.from_url(self.url).keys("*")]


@pytest.fixture
def shared_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    # Try Redis again on every call, so the test needs no waiting for the return.
    monkeypatch.setattr(fallback, "RETRY_SECONDS", 0.0)
    backend = {"BACKEND": "stichbuch.cache.FallbackRedisCache", "LOCATION": server.url}
    try:
        with override_settings(CACHES={"default": backend}):
            yield server
            if server.process is None:
                server.start()
            cache.clear()
    finally:
        if server.process is not None:
            server.stop()


def _token_login(password: str, username: str = "resi") -> Any:
    return APIClient().post(
        "/api/auth/token/", {"username": username, "password": password}, format="json"
    )


def test_logins_signups_and_reset_mails_answer_while_the_caches_redis_is_stopped(
    shared_cache: RedisServer,
) -> None:
    UserFactory.create(username="resi", email="resi@example.org")
    assert _token_login("falsch").status_code == 400
    assert shared_cache.keys()  # the failure counted in Redis
    shared_cache.stop()

    assert _token_login("falsch").status_code == 400  # the password check ran
    assert _token_login(PASSWORD).status_code == 200
    page = Client()
    assert (
        page.post("/accounts/login/", {"username": "resi", "password": PASSWORD}).status_code == 302
    )
    signed_up = APIClient().post(
        "/api/auth/signup/", {"username": "gretl", "password": "Schellen-Unter-7"}, format="json"
    )
    assert signed_up.status_code == 201
    page_signup = Client().post(
        "/accounts/signup/",
        {"username": "vroni", "password1": "Eichel-Ober-99", "password2": "Eichel-Ober-99"},
    )
    assert page_signup.status_code == 302
    reset = Client().post("/accounts/password/reset/", {"email": "resi@example.org"})
    assert reset.status_code == 302


def test_failed_logins_still_lock_out_while_redis_is_stopped(
    shared_cache: RedisServer, settings: Any
) -> None:
    UserFactory.create(username="resi")
    settings.LOGIN_FAILURES_PER_ADDRESS = 5
    shared_cache.stop()
    statuses = [_token_login("falsch", username=f"name{i}").status_code for i in range(8)]
    assert statuses == [400] * 5 + [429] * 3  # counted in the process meanwhile
    assert _token_login(PASSWORD).status_code == 429


def test_the_shared_counts_apply_again_once_redis_is_back(shared_cache: RedisServer) -> None:
    UserFactory.create(username="resi")
    shared_cache.stop()
    assert _token_login("falsch").status_code == 400
    shared_cache.start()  # empty: this server keeps nothing on disk
    assert not shared_cache.keys()
    assert _token_login("falsch").status_code == 400
    assert shared_cache.keys()
