"""Load benchmark of the recording API against a bare insert endpoint.

Run: ``.venv/bin/python bench/api_load.py`` (needs PostgreSQL on 127.0.0.1:5432 with
trust auth for ``postgres``; a ``redis-server`` binary is used if present).

What it does, all on loopback and all thrown away at the end:

1. creates a PostgreSQL database ``stichbuch_bench_<pid>`` and migrates it;
2. starts its own ``redis-server`` on a free port as the Celery broker (no worker:
   the queue only has to accept the projection requests, as in production);
3. seeds a club with 16 scorers (each with an API token), 6 players, an open
   season and 16 evenings of five seated players;
4. starts gunicorn (2 workers, ``stichbuch.wsgi``) with ``bench.baseline_settings``:
   Stichbuch's settings with DEBUG off, plus ``/bench/insert/``;
5. 16 scorer threads each record complete legal games (``engine.generate``) on
   their own evening: start the game with its deal, then append the events one by
   one with ``expected_seq``, as a phone at the table does (``--answer new --keys``:
   with the page's ``"answer": "new"`` and an ``Idempotency-Key`` per append);
6. the same 16 threads send as many requests to ``/bench/insert/`` (token auth,
   JSON parsing, one INSERT in a transaction): the baseline;
7. prints requests/s, p50 and p99 latency of both and the ratio, then stops
   gunicorn and Redis and drops the database.

Bounded: ``--games`` per scorer and ``--max-seconds`` per phase.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not start on port {port}")


@contextmanager
def throwaway_database(prefix: str) -> Iterator[str]:
    """Create an empty PostgreSQL database; drop it (and its sessions) at the end."""
    import psycopg

    name = f"{prefix}_{os.getpid()}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgres://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def throwaway_redis() -> Iterator[str | None]:
    """A redis-server of our own on a free port (None if there is no redis-server)."""
    if shutil.which("redis-server") is None:
        yield None
        return
    port = free_port()
    with tempfile.TemporaryDirectory() as workdir:
        process = subprocess.Popen(
            [
                *("redis-server", "--bind", "127.0.0.1", "--port", str(port)),
                *("--save", "", "--appendonly", "no", "--dir", workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for_port(port, "redis-server")
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(timeout=10)


@contextmanager
def gunicorn(env: dict[str, str], workers: int, worker_class: str, threads: int) -> Iterator[int]:
    port = free_port()
    command = [
        str(REPO / ".venv" / "bin" / "gunicorn"),
        "stichbuch.wsgi",
        *("--workers", str(workers), "--worker-class", worker_class, "--threads", str(threads)),
        *("--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--keep-alive", "30"),
    ]
    process = subprocess.Popen(command, cwd=REPO, env=env)
    try:
        wait_for_port(port, "gunicorn")
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


# --- Seeding (in this process, through the app's own services) -------------------------------


@dataclass
class Seed:
    tokens: list[str]
    evenings: list[int]
    names: dict[str, str]  # engine.generate's player names -> str(player.pk)


def seed(scorers: int) -> Seed:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from clubs.models import Club, GameKind, Membership, Player, Role, Season
    from engine.generate import NAMES
    from games import services

    club = Club.objects.create(name="Benchmark Stammtisch", slug="bench")
    season = Season.objects.create(
        club=club, name="Bench", game_kind=GameKind.FUCHSEN, start="2026-01-01"
    )
    players = {name: Player.objects.create(club=club, display_name=name.title()) for name in NAMES}
    tokens, evenings = [], []
    for i in range(scorers):
        user = get_user_model().objects.create_user(username=f"scorer{i}", password=None)
        Membership.objects.create(club=club, user=user, role=Role.SCORER)
        tokens.append(Token.objects.create(user=user).key)
        evening = services.evening_create(
            club=club,
            user=user,
            season=season,
            players=[players[name].pk for name in NAMES[:5]],
            game_kind=GameKind.FUCHSEN,
        )
        evenings.append(evening.pk)
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE bench_insert (id bigserial PRIMARY KEY, user_id integer NOT NULL,"
            " payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())"
        )
    return Seed(tokens, evenings, {name: str(p.pk) for name, p in players.items()})


# --- The clients ----------------------------------------------------------------------------


class Client:
    """One keep-alive HTTP connection with a token (http.client reconnects when told to)."""

    def __init__(self, port: int, token: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def post(self, path: str, body: Any, key: str | None = None) -> tuple[int, Any, float]:
        headers = self.headers if key is None else {**self.headers, "Idempotency-Key": key}
        started = time.perf_counter()
        self.connection.request("POST", path, json.dumps(body), headers)
        response = self.connection.getresponse()
        data = response.read()
        elapsed = time.perf_counter() - started
        return response.status, json.loads(data) if data else None, elapsed


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    finishing: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games: int = 0


def run_threads(count: int, work: Callable[[int, Tally], None]) -> tuple[list[Tally], float]:
    tallies = [Tally() for _ in range(count)]
    barrier = threading.Barrier(count + 1)

    def target(i: int) -> None:
        barrier.wait()
        try:
            work(i, tallies[i])
        except Exception as error:
            tallies[i].errors.append(repr(error))

    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    return tallies, time.perf_counter() - started


def record_games(
    port: int, seeded: Seed, games: int, deadline: float, answer: str, keys: bool
) -> Callable[[int, Tally], None]:
    from engine.generate import random_game
    from games.services import _renamed_record

    def work(i: int, tally: Tally) -> None:
        client = Client(port, seeded.tokens[i])
        for g in range(games):
            if time.monotonic() > deadline:
                return
            record = _renamed_record(random_game(1000 * i + g, "fuchsen", 5), seeded.names)
            deal = {k: v for k, v in record["events"][0].items() if k != "type"}
            status, body, _elapsed = client.post(
                f"/api/evenings/{seeded.evenings[i]}/games/", {"deal": deal}
            )
            if status != 201:
                tally.errors.append(f"start: {status} {body}")
                return
            game_id = body["id"]
            for seq, event in enumerate(record["events"][1:], start=1):
                request: dict[str, Any] = {"expected_seq": seq, "events": [event]}
                if answer != "full":
                    request["answer"] = answer
                key = f"{i}-{g}-{seq}-{secrets.token_hex(4)}" if keys else None
                status, body, elapsed = client.post(f"/api/games/{game_id}/events/", request, key)
                if status != 201:
                    tally.errors.append(f"append: {status} {body}")
                    return
                tally.latencies.append(elapsed)
            tally.finishing.append(elapsed)
            if body["status"] != "finished":
                tally.errors.append(f"game {game_id} ended {body['status']}")
            tally.games += 1

    return work


def baseline_inserts(
    port: int, seeded: Seed, per_thread: list[int], deadline: float
) -> Callable[[int, Tally], None]:
    def work(i: int, tally: Tally) -> None:
        client = Client(port, seeded.tokens[i])
        event = {"type": "play", "player": "1", "card": "EO"}
        for n in range(per_thread[i]):
            if time.monotonic() > deadline:
                return
            status, body, elapsed = client.post(
                "/bench/insert/", {"expected_seq": n, "events": [event]}
            )
            if status != 201:
                tally.errors.append(f"insert: {status} {body}")
                return
            tally.latencies.append(elapsed)

    return work


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def report(name: str, tallies: list[Tally], wall: float) -> float:
    latencies = [x for t in tallies for x in t.latencies]
    rate = len(latencies) / wall if wall else 0.0
    print(
        f"{name:<10} {len(latencies):>6} requests in {wall:6.1f} s: {rate:7.1f}/s, "
        f"p50 {1000 * percentile(latencies, 0.5):6.1f} ms, "
        f"p99 {1000 * percentile(latencies, 0.99):6.1f} ms"
    )
    errors = [e for t in tallies for e in t.errors]
    if errors:
        print(f"           {len(errors)} errors, e.g. {errors[:3]}")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scorers", type=int, default=16)
    parser.add_argument("--games", type=int, default=6, help="complete games per scorer")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-class", default="sync")
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker")
    parser.add_argument("--max-seconds", type=float, default=300, help="per phase")
    parser.add_argument(
        "--answer",
        choices=["full", "new"],
        default="full",
        help='"answer" of each append: full (every event, the default) or new (as the page asks)',
    )
    parser.add_argument(
        "--keys",
        action="store_true",
        help="send an Idempotency-Key with every append (as the page does)",
    )
    args = parser.parse_args()

    with throwaway_database("stichbuch_bench") as database_url, throwaway_redis() as broker:
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "bench.baseline_settings",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "LOG_LEVEL": "WARNING",
            "CELERY_BROKER_URL": broker or "",
        }
        env.pop("PYTEST_VERSION", None)
        os.environ.update(env)
        import django
        from django.core.management import call_command
        from django.db import connections

        django.setup()
        call_command("migrate", verbosity=0)
        seeded = seed(args.scorers)
        connections.close_all()
        print(
            f"gunicorn: {args.workers} workers ({args.worker_class}, {args.threads} thread(s)); "
            f"{args.scorers} scorers x {args.games} games; answer {args.answer}, "
            f"{'with' if args.keys else 'no'} Idempotency-Keys; broker: {broker or 'none (eager)'}"
        )
        with gunicorn(env, args.workers, args.worker_class, args.threads) as port:
            # Warm up: every worker imports and connects before the clock starts.
            warm = Client(port, seeded.tokens[0])
            for _ in range(4 * args.workers):
                warm.post("/bench/insert/", {"warm": True})
            deadline = time.monotonic() + args.max_seconds
            tallies, wall = run_threads(
                args.scorers,
                record_games(port, seeded, args.games, deadline, args.answer, args.keys),
            )
            append_rate = report("appends", tallies, wall)
            finishing = [x for t in tallies for x in t.finishing]
            print(
                f"           {sum(t.games for t in tallies)} games; the finishing append: "
                f"p50 {1000 * percentile(finishing, 0.5):.1f} ms, "
                f"p99 {1000 * percentile(finishing, 0.99):.1f} ms"
            )
            counts = [len(t.latencies) for t in tallies]
            deadline = time.monotonic() + args.max_seconds
            base, base_wall = run_threads(
                args.scorers, baseline_inserts(port, seeded, counts, deadline)
            )
            base_rate = report("baseline", base, base_wall)
        ratio = append_rate / base_rate if base_rate else float("nan")
        appends_p99 = percentile([x for t in tallies for x in t.latencies], 0.99)
        print(
            f"ratio appends/baseline: {ratio:.2f} (target >= 0.5); "
            f"appends p99 {1000 * appends_p99:.1f} ms (target < 50 ms)"
        )


if __name__ == "__main__":
    main()
