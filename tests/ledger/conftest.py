"""Fixtures of the ledger's tests: an evening for the page tests, a real Celery worker.

``worker`` starts ``celery -A stichbuch worker`` as a subprocess on the Redis
database ``CELERY_TEST_BROKER_URL`` (default ``redis://127.0.0.1:6379/15``) and
points it at this test run's PostgreSQL database, so it sees the rows the test
commits (``transaction=True``). It skips when Redis is unreachable, and on SQLite
(the worker could not share an in-memory or per-test database).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from clubs.models import Club
from games.models import Evening
from stichbuch.celery import app
from tests.e2e.tables import open_evening, players_of, record_game
from tests.games.records import RE_PLAYED_OUT


@pytest.fixture
def evening(club: Club) -> Evening:
    """A Fuchsen evening of five with one finished game (raised to Re, played out)."""
    players = players_of(club)
    evening = open_evening(club, players)
    record_game(evening, players, RE_PLAYED_OUT)
    return evening


BROKER = os.environ.get("CELERY_TEST_BROKER_URL", "redis://127.0.0.1:6379/15")
REPO = Path(__file__).resolve().parents[2]


def _redis_or_skip() -> None:
    try:
        import redis

        redis.Redis.from_url(BROKER, socket_connect_timeout=2).flushdb()
    except Exception as error:
        pytest.skip(f"Redis at {BROKER} is not reachable: {error}")


def _database_url() -> str:
    settings = connection.settings_dict
    if not settings["ENGINE"].endswith("postgresql"):
        pytest.skip("the worker needs the test database on PostgreSQL")
    user = settings["USER"] or "postgres"
    password = f":{settings['PASSWORD']}" if settings["PASSWORD"] else ""
    host = settings["HOST"] or "127.0.0.1"
    port = settings["PORT"] or "5432"
    return f"postgres://{user}{password}@{host}:{port}/{settings['NAME']}"


@pytest.fixture
def worker() -> Iterator[subprocess.Popen[bytes]]:
    _redis_or_skip()
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_BROKER_URL": BROKER,
        "SECRET_KEY": "celery-worker-test-only",
        "DEBUG": "1",
        "PYTHONPATH": str(REPO),
    }
    env.pop("PYTEST_VERSION", None)
    log = tempfile.NamedTemporaryFile(prefix="celery-worker-", suffix=".log", delete=False)  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "stichbuch", "worker", "--pool=solo", "-l", "info"],
        cwd=REPO,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=BROKER, task_always_eager=False)
    try:
        yield process
    finally:
        app.conf.update(saved)
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        log.close()
        # The worker's connection must be gone before pytest-django drops the database.
        os.unlink(log.name)
