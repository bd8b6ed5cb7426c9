"""The broker is down: recording and balances go on; when it is back, the repair catches up.

The Celery app is pointed at a port where nothing listens (the broker is
down), then at a Redis server this test starts itself on a free port (the
broker is back), with a real worker. Nothing here touches the machine's own
Redis on 6379.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import Role
from ledger.models import ProjectionState, StandingRow
from ledger.tasks import repair_projections
from stichbuch.celery import app
from tests.factories import MembershipFactory, UserFactory
from tests.reliability.helpers import Table, make_table, money_by_player, payouts_by_player

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


CELERY_KEYS = ("broker_url", "result_backend", "task_always_eager")


def _drop_pool() -> None:
    """Forget the app's connection and producer pools (as Celery does after a fork).

    Not closed: kombu's pools are shared per URL, and another test may use them.
    """
    app._pool = None  # type: ignore[attr-defined]
    if "amqp" in app.__dict__:
        app.amqp._producer_pool = None  # type: ignore[attr-defined]


def point_celery_at(url: str) -> None:
    """Send tasks to ``url`` for real (not eagerly); the old connection pool is dropped."""
    _drop_pool()
    app.conf.update(broker_url=url, result_backend=None, task_always_eager=False)


@pytest.fixture
def restore_celery() -> Iterator[None]:
    saved = {key: app.conf[key] for key in CELERY_KEYS}
    yield
    _drop_pool()
    app.conf.update(saved)


class RedisServers:
    """Throwaway redis-server processes on free ports, stopped and restarted at will."""

    def __init__(self, workdir: str) -> None:
        self.workdir = workdir
        self.running: dict[int, subprocess.Popen[bytes]] = {}

    def start(self, port: int | None = None) -> str:
        """Start a server (on ``port``, or a free one); returns its URL once it answers."""
        port = port or free_port()
        self.running[port] = subprocess.Popen(
            [
                *("redis-server", "--bind", "127.0.0.1", "--port", str(port)),
                *("--save", "", "--appendonly", "no", "--dir", self.workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        return f"redis://127.0.0.1:{port}/0"

    def stop(self, port: int) -> None:
        """The broker goes down: its process ends, its connections drop."""
        process = self.running.pop(port)
        process.kill()
        process.wait(timeout=10)

    def stop_all(self) -> None:
        for process in self.running.values():
            process.terminate()
            process.wait(timeout=10)
        self.running.clear()


@pytest.fixture
def redis_servers() -> Iterator[RedisServers]:
    with tempfile.TemporaryDirectory() as workdir:
        servers = RedisServers(workdir)
        yield servers
        servers.stop_all()


@pytest.fixture
def redis_url(redis_servers: RedisServers) -> Callable[[], str]:
    """Start a throwaway redis-server on a free port when asked; stopped afterwards."""
    return redis_servers.start


def wait_until(condition: Callable[[], bool], what: str, attempts: int = 300) -> None:
    for _ in range(attempts):
        if condition():
            return
        time.sleep(0.1)
    pytest.fail(f"gave up waiting: {what}")


def record_game(client: APIClient, table: Table, seed: int) -> dict[str, Any]:
    record = table.record(seed)
    deal = {k: v for k, v in record["events"][0].items() if k != "type"}
    started = client.post(f"/api/evenings/{table.evening.pk}/games/", {"deal": deal}, format="json")
    assert started.status_code == 201, started.content
    game_id = started.json()["id"]
    for seq, event in enumerate(record["events"][1:], start=1):
        response = client.post(
            f"/api/games/{game_id}/events/",
            {"expected_seq": seq, "events": [event]},
            format="json",
        )
        assert response.status_code == 201, response.content
    return dict(response.json())


def test_with_the_broker_down_games_and_money_are_recorded_and_the_repair_catches_up(
    restore_celery: None, redis_url: Callable[[], str]
) -> None:
    table = make_table()
    user = UserFactory.create(username="scorer")
    MembershipFactory.create(club=table.club, user=user, role=Role.SCORER)
    client = APIClient()
    client.force_authenticate(user)
    season_id = table.evening.season_id

    point_celery_at(f"redis://127.0.0.1:{free_port()}/0")  # nobody listens
    for seed in (1, 2, 3):
        assert record_game(client, table, seed)["status"] == "finished"

    # Every cent is booked and the balances answer, though no projection ran.
    assert money_by_player(table.club) == payouts_by_player(table.club) != {}
    balances = client.get(f"/api/clubs/{table.club.slug}/balances/")
    assert balances.status_code == 200
    assert {row["player_id"]: row["balance"] for row in balances.json()["balances"]} == {
        p: a for p, a in money_by_player(table.club).items()
    }
    state = ProjectionState.objects.get(season_id=season_id)
    assert state.is_behind and state.version == 3
    assert not StandingRow.objects.filter(season_id=season_id).exists()

    # The broker is back, with a worker; beat sends the periodic repair.
    point_celery_at(redis_url())
    from celery.contrib.testing.worker import start_worker

    with start_worker(app, pool="solo", perform_ping_check=False, loglevel="WARNING"):
        repair_projections.apply_async()
        wait_until(
            lambda: not ProjectionState.objects.get(season_id=season_id).is_behind,
            "the repair to bring the season up to date",
        )
        standings = dict(
            StandingRow.objects.filter(season_id=season_id, evening__isnull=True).values_list(
                "player_id", "net"
            )
        )
        assert {p: n for p, n in standings.items() if n} == payouts_by_player(table.club)

        # And a game finished now is projected by the worker through the broker.
        assert record_game(client, table, 4)["status"] == "finished"
        wait_until(
            lambda: ProjectionState.objects.get(season_id=season_id).games == 4,
            "the worker to project the fourth game",
        )
    state = ProjectionState.objects.get(season_id=season_id)
    assert not state.is_behind
    standings = dict(
        StandingRow.objects.filter(season_id=season_id, evening__isnull=True).values_list(
            "player_id", "net"
        )
    )
    assert {p: n for p, n in standings.items() if n} == payouts_by_player(table.club)


def test_after_a_broker_outage_a_reconnecting_worker_catches_up_without_waiting_for_beat(
    restore_celery: None, redis_servers: RedisServers
) -> None:
    """Broker up with a worker; the broker dies; games are recorded; the broker comes
    back on the same address. No beat runs here: the worker's reconnect alone must
    bring the season up to date (the time it took is printed, not asserted)."""
    from celery.contrib.testing.worker import start_worker

    table = make_table()
    user = UserFactory.create(username="scorer")
    MembershipFactory.create(club=table.club, user=user, role=Role.SCORER)
    client = APIClient()
    client.force_authenticate(user)
    season_id = table.evening.season_id

    url = redis_servers.start()
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    point_celery_at(url)
    with start_worker(app, pool="solo", perform_ping_check=False, loglevel="WARNING"):
        assert record_game(client, table, 1)["status"] == "finished"
        wait_until(
            lambda: ProjectionState.objects.get(season_id=season_id).games == 1,
            "the worker to project the first game",
        )

        redis_servers.stop(port)
        for seed in (2, 3, 4):
            assert record_game(client, table, seed)["status"] == "finished"
        state = ProjectionState.objects.get(season_id=season_id)
        assert state.is_behind and state.games == 1  # booked, not projected
        assert money_by_player(table.club) == payouts_by_player(table.club)

        redis_servers.start(port)
        back = time.monotonic()
        wait_until(
            lambda: not ProjectionState.objects.get(season_id=season_id).is_behind,
            "the reconnected worker to catch up",
            attempts=900,
        )
        print(f"caught up {time.monotonic() - back:.1f} s after the broker came back")

    state = ProjectionState.objects.get(season_id=season_id)
    assert state.games == 4
    standings = dict(
        StandingRow.objects.filter(season_id=season_id, evening__isnull=True).values_list(
            "player_id", "net"
        )
    )
    assert {p: n for p, n in standings.items() if n} == payouts_by_player(table.club)


def test_a_catch_up_while_another_runs_leaves_the_repair_to_it(
    restore_celery: None,
) -> None:
    """Several workers reconnecting at once (and beat) send several catch-ups: one
    repairs, the others see its lock and do nothing."""
    from django.core.cache import cache

    from stichbuch.catch_up import LOCK_KEY, catch_up_projections

    table = make_table()
    season_id = table.evening.season_id
    point_celery_at(f"redis://127.0.0.1:{free_port()}/0")  # nobody listens
    user = UserFactory.create(username="scorer")
    MembershipFactory.create(club=table.club, user=user, role=Role.SCORER)
    client = APIClient()
    client.force_authenticate(user)
    record_game(client, table, 1)
    runs_before = ProjectionState.objects.get(season_id=season_id).runs

    cache.set(LOCK_KEY, "another worker")
    assert catch_up_projections() is None
    assert ProjectionState.objects.get(season_id=season_id).is_behind
    cache.delete(LOCK_KEY)

    assert catch_up_projections() == [season_id]
    assert catch_up_projections() == []  # nothing behind any more: no second computation
    state = ProjectionState.objects.get(season_id=season_id)
    assert not state.is_behind and state.runs == runs_before + 1
    assert cache.get(LOCK_KEY) is None
