"""A real Celery worker on Redis projects a finished game into the standings.

Not eager: the test starts ``celery -A stichbuch worker`` as a subprocess on
the Redis database ``CELERY_TEST_BROKER_URL`` (default
``redis://127.0.0.1:6379/15``) and points it at this test run's PostgreSQL
database, so it sees the rows the test commits (``transaction=True``). It
skips when Redis is unreachable, and on SQLite (the worker could not share an
in-memory or per-test database).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from ledger.models import ProjectionState
from ledger.selectors import standing_list
from stichbuch.celery import app
from tests.ledger.factories import Table, finish, make_table

BROKER = os.environ.get("CELERY_TEST_BROKER_URL", "redis://127.0.0.1:6379/15")
REPO = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


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


def test_a_game_finished_appears_in_the_standings_through_a_real_worker(
    worker: subprocess.Popen[bytes],
) -> None:
    table: Table = make_table(players=3)
    finish(table.new_game(), {table.pk(0): 40, table.pk(1): -20, table.pk(2): -20})

    deadline = time.monotonic() + 60
    state = None
    while time.monotonic() < deadline:
        assert worker.poll() is None, "the Celery worker died"
        state = ProjectionState.objects.filter(season=table.season).first()
        if state is not None and state.computed_from == state.version:
            break
        time.sleep(0.25)
    assert state is not None and not state.is_behind, "the worker did not project the game"
    rows = [(row.player_id, row.rank, row.net) for row in standing_list(season=table.season)]
    assert rows == [
        (table.players[0].pk, 1, 40),
        (table.players[1].pk, 2, -20),
        (table.players[2].pk, 2, -20),
    ]
