"""Throttles count per client, in one shared store, behind the documented proxy setting.

Production: ``CACHE_URL=redis://...`` (every gunicorn process counts in one place)
and ``TRUSTED_PROXY_COUNT=1`` with gunicorn on loopback behind one proxy, which
appends the address it saw to ``X-Forwarded-For``. Whatever a client writes into
that header itself, the address the proxy appended is the one that counts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache
from django.test import Client, override_settings
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from stichbuch.throttling import AuthRateThrottle
from tests.conftest import _redis_unreachable_reason
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]
# gunicorn on loopback: only the proxy reaches it.
PROXY: dict[str, Any] = {"REMOTE_ADDR": "127.0.0.1"}


def _behind_the_proxy(client_address: str, spoofed: str) -> dict[str, Any]:
    """The headers gunicorn sees when a client sent ``X-Forwarded-For: spoofed``."""
    return {**PROXY, "HTTP_X_FORWARDED_FOR": f"{spoofed}, {client_address}"}


def _token_try(client_address: str, spoofed: str, username: str = "resi") -> int:
    """One wrong-password try at the token endpoint, through the proxy: its status."""
    response = APIClient().post(
        "/api/auth/token/",
        {"username": username, "password": "falsch"},
        format="json",
        **_behind_the_proxy(client_address, spoofed),
    )
    return int(response.status_code)


@pytest.fixture
def redis_url() -> str:
    reason = _redis_unreachable_reason()
    if reason:
        pytest.skip(reason)
    return os.environ["CELERY_TEST_BROKER_URL"]


@pytest.fixture
def two_processes(redis_url: str) -> Iterator[tuple[RedisCache, RedisCache]]:
    """Two independent clients of one Redis, as two gunicorn processes have."""
    prefix = f"throttle-test-{uuid.uuid4().hex}"
    first = RedisCache(redis_url, {"KEY_PREFIX": prefix})
    second = RedisCache(redis_url, {"KEY_PREFIX": prefix})
    yield first, second
    first.clear()  # this Redis database belongs to the tests


def _caches_with(**env: str) -> subprocess.CompletedProcess[str]:
    """The CACHES setting as a process started with ``env`` (and nothing else) has it."""
    clean = {key: os.environ[key] for key in ("PATH", "HOME") if key in os.environ}
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import json; from stichbuch import settings; print(json.dumps(settings.CACHES))",
        ],
        cwd=REPO,
        env={**clean, "DEBUG": "1", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_cache_is_redis_when_cache_url_is_set_and_local_otherwise() -> None:
    shared = json.loads(_caches_with(CACHE_URL="redis://127.0.0.1:6379/3").stdout)["default"]
    assert shared == {
        # Redis, falling back to counting in the process while Redis is unreachable
        # (tests/reliability/test_cache_outage.py).
        "BACKEND": "stichbuch.cache.FallbackRedisCache",
        "LOCATION": "redis://127.0.0.1:6379/3",
    }
    embedded = json.loads(_caches_with().stdout)["default"]
    assert embedded["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"


def test_a_cache_url_that_is_not_redis_stops_the_start_naming_the_variable() -> None:
    result = _caches_with(CACHE_URL="memcached://127.0.0.1:11211")
    assert result.returncode != 0
    assert "CACHE_URL" in result.stderr


def test_two_processes_sharing_redis_throttle_one_client_together(
    two_processes: tuple[RedisCache, RedisCache], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four tries allowed per minute: two processes taking turns let four through,
    not four each."""
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"auth": "4/minute"})
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from clubs.apis import AuthTokenApi

    allowed = []
    for attempt in range(8):
        throttle = AuthRateThrottle()
        throttle.cache = two_processes[attempt % 2]
        request = Request(
            APIRequestFactory().post(
                "/api/auth/token/", **_behind_the_proxy("198.51.100.20", f"10.9.0.{attempt}")
            )
        )
        allowed.append(throttle.allow_request(request, AuthTokenApi()))
    assert allowed == [True] * 4 + [False] * 4


def test_failed_logins_per_address_are_counted_in_the_shared_cache(
    redis_url: str, settings: Any
) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": f"throttle-test-{uuid.uuid4().hex}",
        }
    }
    settings.LOGIN_FAILURES_PER_ADDRESS = 3
    settings.TRUSTED_PROXY_COUNT = 1
    try:
        statuses = [
            Client(**_behind_the_proxy("198.51.100.21", f"10.8.0.{i}"))
            .post("/accounts/login/", {"username": f"name{i}", "password": "x"})
            .status_code
            for i in range(5)
        ]
        assert statuses[:3] == [200, 200, 200]  # the form again, with its error
        assert statuses[3:] == [429, 429]
        other = RedisCache(redis_url, {"KEY_PREFIX": settings.CACHES["default"]["KEY_PREFIX"]})
        assert other.get("login-failures:198.51.100.21") >= 3  # visible to another process
    finally:
        cache.clear()


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_a_fresh_forged_address_per_try_does_not_avoid_the_api_throttle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache.clear()
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"auth": "5/minute"})
    statuses = [_token_try("198.51.100.30", f"203.0.113.{i}") for i in range(10)]
    assert statuses[:5] == [400] * 5
    assert set(statuses[5:]) == {429}


@override_settings(TRUSTED_PROXY_COUNT=1, AXES_FAILURE_LIMIT=3)
def test_a_fresh_forged_address_per_try_does_not_avoid_the_username_lockout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache.clear()
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"auth": "1000/minute"})
    UserFactory.create(username="resi")
    statuses = [_token_try("198.51.100.31", f"203.0.113.{i}") for i in range(6)]
    assert statuses[:2] == [400, 400]
    assert set(statuses[3:]) == {429}


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_the_proxy_two_members_have_two_addresses_so_one_lockout_is_not_everyones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache.clear()
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"auth": "3/minute"})
    for _ in range(4):
        _token_try("198.51.100.40", "198.51.100.40", username="x")
    # A wrong password for the neighbour, not a throttle.
    assert _token_try("198.51.100.41", "198.51.100.41", username="x") == 400


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_reset_mails_to_one_account_are_limited_whatever_address_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from clubs.views import _ResetAccountThrottle

    cache.clear()
    monkeypatch.setattr(
        _ResetAccountThrottle, "THROTTLE_RATES", {"password-reset-account": "3/hour"}
    )
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"auth": "1000/minute"})
    UserFactory.create(username="resi", email="resi@example.org")
    statuses = [
        Client(**_behind_the_proxy(f"198.51.100.{50 + i}", "1.1.1.1"))
        .post("/accounts/password/reset/", {"email": "Resi@Example.org"})
        .status_code
        for i in range(6)
    ]
    assert statuses[:3] == [302] * 3
    assert set(statuses[3:]) == {429}
    assert len(mail.outbox) == 3
    # Another account is not affected by her limit.
    UserFactory.create(username="sepp", email="sepp@example.org")
    other = Client(**PROXY).post("/accounts/password/reset/", {"email": "sepp@example.org"})
    assert other.status_code == 302
