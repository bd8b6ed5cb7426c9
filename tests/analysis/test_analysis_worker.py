"""A real Celery worker on Redis, serving the queue ``analysis``, analyses a game once
its last card commits (not eager: a worker process on this run's PostgreSQL database)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

import pytest

from analysis.models import GameAnalysis
from clubs.models import Club
from stichbuch.celery import app
from tests.e2e.tables import open_evening, players_of, record_game
from tests.games.records import RE_PLAYED_OUT
from tests.ledger.conftest import BROKER, REPO, _database_url, _redis_or_skip

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def analysis_worker() -> Iterator[subprocess.Popen[bytes]]:
    """``celery -A stichbuch worker -Q analysis`` on ``CELERY_TEST_BROKER_URL``."""
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
    log = tempfile.NamedTemporaryFile(prefix="analysis-worker-", suffix=".log", delete=False)  # noqa: SIM115
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "celery", "-A", "stichbuch", "worker"),
            *("--pool=solo", "-Q", "analysis", "-l", "info"),
        ],
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
        os.unlink(log.name)


def test_a_game_played_out_is_analysed_by_a_real_worker_on_its_own_queue(
    analysis_worker: subprocess.Popen[bytes], club: Club
) -> None:
    players = players_of(club)
    game = record_game(open_evening(club, players), players, RE_PLAYED_OUT)

    deadline = time.monotonic() + 120
    analysis = None
    while time.monotonic() < deadline:
        assert analysis_worker.poll() is None, "the Celery worker died"
        analysis = GameAnalysis.objects.filter(
            game=game, status=GameAnalysis.Status.ANALYSED
        ).first()
        if analysis is not None:
            break
        time.sleep(0.25)
    assert analysis is not None, "the worker did not analyse the game"
    assert analysis.seq == game.last_seq
    assert len(analysis.figures["cards"]) == 30
