"""Fixtures every app's tests share: a club and one API client per persona.

The personas are the people a permission test asks about:

- ``owner``, ``admin``, ``scorer``, ``member``: members of ``club`` with that role;
- ``outsider``: the owner of *another* club, never a member of ``club``;
- ``anonymous``: nobody logged in.

Each is a logged-in ``APIClient`` (session login, so it works for the API and the
HTML pages alike) with ``.user`` set (``None`` for ``anonymous``). It sends JSON by
default; post to a page's form with ``format="multipart"``. Use
``persona_client(name)`` to get one by name in table-driven tests.
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from clubs.models import Club, Role
from tests.factories import ClubFactory, MembershipFactory, UserFactory

# No test here is about time (tests never assert wall-clock times), and on a loaded
# machine hypothesis' own timing checks (deadline, slow input generation) fail
# without a bug: the suite's profile turns them off; each test's own settings
# still apply on top.
hypothesis_settings.register_profile(
    "stichbuch", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("stichbuch")

PERSONAS: tuple[str, ...] = ("owner", "admin", "scorer", "member", "outsider", "anonymous")


# --- Markers for tests that need a real service -----------------------------------
# Each skips with the reason when its service is absent, so `make test` passes on a
# laptop with nothing but Python; CI (.ci/run) provides all three.


def _uses_postgres() -> bool:
    return bool(django_settings.DATABASES["default"]["ENGINE"].endswith("postgresql"))


@functools.cache
def _redis_unreachable_reason() -> str | None:
    url = os.environ.get("CELERY_TEST_BROKER_URL", "")
    if not url:
        return "CELERY_TEST_BROKER_URL is not set (.ci/run sets it to a Redis database)"
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except Exception as error:  # any failure to connect means: skip, with the reason
        return f"Redis at CELERY_TEST_BROKER_URL is not reachable: {error}"
    return None


def chromium_path() -> str | None:
    """The Chromium binary for e2e tests: $CHROMIUM, else chromium on PATH."""
    candidate = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    return candidate if os.path.exists(candidate) else None


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("postgres") and not _uses_postgres():
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://... (as .ci/run does)")
    if item.get_closest_marker("celery_worker"):
        reason = _redis_unreachable_reason()
        if reason:
            pytest.skip(reason)
    if item.get_closest_marker("e2e") and chromium_path() is None:
        pytest.skip("needs Chromium: set CHROMIUM or install Debian's chromium package")


@pytest.fixture(autouse=True)
def _throttle_counts_cleared() -> Iterator[None]:
    """Throttle and login-failure counts live in the process's cache: one test's
    failed logins from 127.0.0.1 must not lock out the next test's."""
    yield
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _db_connection_kept_across_requests() -> Iterator[None]:
    """Keep the test's database connection open while the app serves requests.

    Django closes "old" connections when a request starts and ends. Inside a
    test's transaction (autocommit off) that closes the very connection the test
    runs in: PostgreSQL then answers "the connection is closed" (SQLite's
    in-memory database hides it). Django's test client disconnects these handlers
    around its own requests; this does the same for code that calls the WSGI app
    directly, such as schemathesis.
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


class PersonaClient(APIClient):
    """An APIClient that remembers who it is logged in as (``None``: nobody)."""

    user: Any = None


def _client_for(user: Any | None) -> PersonaClient:
    client = PersonaClient()
    if user is not None:
        # force_login, not login(): axes requires a request for authenticate().
        client.force_login(user)
    client.user = user
    return client


@pytest.fixture
def club(db: None) -> Club:
    return ClubFactory.create(name="Stammtisch Gasthaus Post", slug="gasthaus-post")


@pytest.fixture
def other_club(db: None) -> Club:
    return ClubFactory.create(name="Kartenrunde Nachbarort", slug="nachbarort")


def _member_client(club: Club, role: str, username: str) -> PersonaClient:
    membership = MembershipFactory.create(
        club=club, role=role, user=UserFactory.create(username=username)
    )
    return _client_for(membership.user)


@pytest.fixture
def owner(club: Club) -> PersonaClient:
    return _member_client(club, Role.OWNER, "owner")


@pytest.fixture
def admin(club: Club) -> PersonaClient:
    return _member_client(club, Role.ADMIN, "admin")


@pytest.fixture
def scorer(club: Club) -> PersonaClient:
    return _member_client(club, Role.SCORER, "scorer")


@pytest.fixture
def member(club: Club) -> PersonaClient:
    return _member_client(club, Role.MEMBER, "member")


@pytest.fixture
def outsider(other_club: Club) -> PersonaClient:
    """The owner of another club: all rights there, none in ``club``."""
    return _member_client(other_club, Role.OWNER, "outsider")


@pytest.fixture
def anonymous(db: None) -> PersonaClient:
    return _client_for(None)


@pytest.fixture
def persona_client(request: pytest.FixtureRequest) -> Callable[[str], PersonaClient]:
    """Return a function giving the persona fixture of that name."""

    def get(name: str) -> PersonaClient:
        if name not in PERSONAS:
            raise ValueError(f"unknown persona {name!r}: expected one of {', '.join(PERSONAS)}")
        client: PersonaClient = request.getfixturevalue(name)
        return client

    return get
