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
5. generates the games (``engine.generate``) before any clock runs, and warms the
   workers up on every path the phases take: a few bare inserts, then one complete
   game per scorer (``--warm-games``), recorded as below and not counted. A cold
   worker's first games pay one-time costs (lazy imports, first statements, caches
   filled); in a run of a few seconds they alone made the p99;
6. the baseline's first half: the 16 threads send ``/bench/insert/`` (token
   auth, JSON parsing, one INSERT in a transaction) half as often as the
   scorers will append;
7. 16 scorer threads each record their games on their own evening: start the
   game with its deal, then append the events one by one with
   ``expected_seq``, as a phone at the table does (``--answer new --keys``:
   with the page's ``"answer": "new"`` and an ``Idempotency-Key`` per append;
   ``--think-ms``: with a pause before each append, latency only);
8. the baseline's second half (halves around the appends, so that a change in
   the machine's load weighs on both alike);
9. prints requests/s, p50 and p99 latency of both, the ratio, and the CPU time
   per request of gunicorn's workers, PostgreSQL and the clients (``/proc``),
   then stops gunicorn and Redis and drops the database.

Bounded: ``--games`` per scorer and ``--max-seconds`` per phase.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import math
import os
import random
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

from bench.pauses import Pauses, read_log  # noqa: E402

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
def gunicorn(
    env: dict[str, str], workers: int, worker_class: str, threads: int
) -> Iterator[tuple[int, int]]:
    """Serve the app; yields (port, the master's pid)."""
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
        yield port, process.pid
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

    from clubs.models import Club, GameKind, Membership, Player, Role, Season
    from clubs.services import api_token_create
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
        tokens.append(api_token_create(user=user, name="bench"))
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


# --- CPU accounting -------------------------------------------------------------------------

_TICK = os.sysconf("SC_CLK_TCK")


def _serves_bench_database(pid: str) -> bool:
    """Whether PostgreSQL process ``pid`` is a backend of the bench's database (its title
    reads ``postgres: [<cluster>:] <user> <database> <client> <state>``)."""
    database = os.environ.get("BENCH_DATABASE")
    if not database:
        return True  # no database named: every postgres process, as before
    try:
        title = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").split()
    except OSError:
        return False
    return database.encode() in title[1:5]


def cpu_seconds(gunicorn_pid: int) -> dict[str, float]:
    """CPU time (user + system) so far of gunicorn's workers, of PostgreSQL and of this process.

    On a machine where the server, the database and the clients share the cores, a
    phase's CPU per request says what each request costs, whatever the neighbours do
    to the wall-clock figures. PostgreSQL is the backends connected to the bench's own
    database (``BENCH_DATABASE``, read from each backend's process title), so other
    databases' work on the same server does not count; neither does the server's own
    background work (WAL writer, checkpointer, autovacuum launcher), nearly all of it
    the same per write for an append and for a bare insert.
    """
    workers = postgres = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue  # the process ended while we looked
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        ticks = int(fields[11]) + int(fields[12])
        if int(fields[1]) == gunicorn_pid:
            workers += ticks
        elif name == "postgres" and _serves_bench_database(entry):
            postgres += ticks
    own = os.times()
    return {
        "gunicorn": workers / _TICK,
        "postgres": postgres / _TICK,
        "client": own.user + own.system,
    }


@dataclass
class Phase:
    tallies: list[Tally]
    wall: float
    cpu: dict[str, float]  # seconds, as ``cpu_seconds``
    start: float  # ``time.perf_counter``
    end: float


def phase(scorers: int, work: Callable[[int, Tally], None], master: int) -> Phase:
    """Run ``work`` in ``scorers`` threads: their tallies, the wall time, the CPU spent."""
    before = cpu_seconds(master)
    start = time.perf_counter()
    tallies, wall = run_threads(scorers, work)
    end = time.perf_counter()
    after = cpu_seconds(master)
    return Phase(tallies, wall, {k: after[k] - before[k] for k in before}, start, end)


def report_pauses(
    phases: list[Phase], client: Pauses, workers: list[tuple[int, int, float, float]]
) -> None:
    """The collections (generation 1 and older) of the client and of gunicorn's workers
    during the phases: how many, the longest, and the full ones."""

    def summary(pauses: list[tuple[int, float, float]]) -> str:
        if not pauses:
            return "none"
        longest = max(end - start for _, start, end in pauses)
        full = sum(1 for generation, _, _ in pauses if generation == 2)
        return f"{len(pauses)} ({full} full), longest {1000 * longest:.1f} ms"

    mine = [p for ran in phases for p in client.between(ran.start, ran.end)]
    theirs = [(g, a, b) for ran in phases for _, g, a, b in workers if ran.start <= a < ran.end]
    print(f"           collector pauses: client {summary(mine)}; workers {summary(theirs)}")


def quiet_spells(during: Phase, least: float = 0.010) -> list[float]:
    """The spells of the phase in which no answer arrived, of ``least`` seconds or more,
    longest first. With 16 requests always in flight, an answer comes every few
    milliseconds; a spell of tens of them is the whole server (or the machine)
    standing still, and every request in flight waits it out: a tail of that
    kind is made of bursts, not of slow requests."""
    answered = sorted(
        sent + latency
        for tally in during.tallies
        for sent, latency in zip(tally.sent, tally.latencies, strict=True)
    )
    spells = [b - a for a, b in itertools.pairwise(answered) if b - a >= least]
    return sorted(spells, reverse=True)


def report_spells(spells: list[float]) -> None:
    longest = ", ".join(f"{1000 * x:.1f}" for x in spells[:3])
    print(
        f"           no answer for 10 ms or more: {len(spells)} times"
        + (f", longest {longest} ms" if spells else "")
    )


def report_cpu(spent: dict[str, float], requests: int) -> dict[str, float]:
    per = {k: 1000 * v / max(requests, 1) for k, v in spent.items()}
    print(
        "           CPU per request: "
        + ", ".join(f"{k} {v:.2f} ms" for k, v in per.items())
        + f" (total {sum(per.values()):.2f} ms)"
    )
    return per


# --- The clients ----------------------------------------------------------------------------


class Client:
    """One keep-alive HTTP connection with a token (http.client reconnects when told to)."""

    def __init__(self, port: int, token: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.started = 0.0  # when the last request was sent (``time.perf_counter``)

    def post(self, path: str, body: Any, key: str | None = None) -> tuple[int, Any, float]:
        headers = self.headers if key is None else {**self.headers, "Idempotency-Key": key}
        started = time.perf_counter()
        self.connection.request("POST", path, json.dumps(body), headers)
        response = self.connection.getresponse()
        data = response.read()
        elapsed = time.perf_counter() - started
        self.started = started
        return response.status, json.loads(data) if data else None, elapsed


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    finishing: list[float] = field(default_factory=list)
    finishing_flags: list[bool] = field(default_factory=list)  # per latency: a game's last append?
    sent: list[float] = field(default_factory=list)  # per latency: when it was sent
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
    port: int,
    seeded: Seed,
    games: int,
    deadline: float,
    answer: str,
    keys: bool,
    think: float = 0.0,
    first_seed: int = 0,
) -> tuple[Callable[[int, Tally], None], list[int]]:
    """The scorers' work, and how many appends each will send.

    ``think``: mean seconds a scorer waits before each append (0: none, the
    scorers send as fast as they are answered). ``first_seed``: the generator's
    seeds of scorer ``i``'s games are ``first_seed + 1000 * i + g``.
    """
    from engine.generate import random_game
    from games.services import _renamed_record

    # Generated before the clock starts: the clients' own work would otherwise take
    # CPU from the server during this phase and not during the baseline's.
    records = {
        (i, g): _renamed_record(random_game(first_seed + 1000 * i + g, "fuchsen", 5), seeded.names)
        for i in range(len(seeded.tokens))
        for g in range(games)
    }

    pace = random.Random(0)

    def work(i: int, tally: Tally) -> None:
        client = Client(port, seeded.tokens[i])
        for g in range(games):
            if time.monotonic() > deadline:
                return
            record = records[i, g]
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
                if think:
                    time.sleep(think * (0.5 + pace.random()))
                status, body, elapsed = client.post(f"/api/games/{game_id}/events/", request, key)
                if status != 201:
                    tally.errors.append(f"append: {status} {body}")
                    return
                tally.latencies.append(elapsed)
                tally.sent.append(client.started)
                tally.finishing_flags.append(seq == len(record["events"]) - 1)
            tally.finishing.append(elapsed)
            if body["status"] != "finished":
                tally.errors.append(f"game {game_id} ended {body['status']}")
            tally.games += 1

    counts = [
        sum(len(records[i, g]["events"]) - 1 for g in range(games))
        for i in range(len(seeded.tokens))
    ]
    return work, counts


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
            tally.sent.append(client.started)

    return work


def write_timeline(
    path: Path,
    phases: dict[str, Phase],
    client: Pauses,
    workers: list[tuple[int, int, float, float]],
) -> None:
    """Every timed request and every collector pause, in the order they began, as CSV.

    ``at_s`` counts from the start of the first phase, ``clock`` is the same
    instant on ``time.perf_counter``'s clock (the system's monotonic clock: what
    another process records on it lines up); ``who`` is the scorer's number, or
    for a pause ``client`` or the worker's pid. A tail shows what it is
    made of: a burst where every scorer waits at once (something stopped the
    server or the client: look for a pause beside it), one scorer, or the games'
    last appends.
    """
    rows: list[tuple[float, str, str, float, int]] = []
    for name, ran in phases.items():
        for i, tally in enumerate(ran.tallies):
            flags = tally.finishing_flags or [False] * len(tally.latencies)
            for sent, latency, last in zip(tally.sent, tally.latencies, flags, strict=True):
                rows.append((sent, name, str(i), latency, int(last)))
    for generation, start, end in client.pauses:
        rows.append((start, f"gc{generation}", "client", end - start, 0))
    for pid, generation, start, end in workers:
        rows.append((start, f"gc{generation}", str(pid), end - start, 0))
    rows.sort()
    origin = min((ran.start for ran in phases.values()), default=0.0)
    with path.open("w") as out:
        out.write("at_s,what,who,ms,finishing,clock\n")
        for at, what, who, seconds, flag in rows:
            out.write(f"{at - origin:.6f},{what},{who},{1000 * seconds:.3f},{flag},{at:.6f}\n")


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


# --- The open loop ---------------------------------------------------------------------------


@dataclass
class Step:
    """One rate of the open loop: the appends' latencies (from when each card was due),
    the failures, the CPU spent and how long it ran."""

    rate: float
    latencies: list[float]
    failures: list[str]
    cpu: dict[str, float]
    wall: float
    requests: int  # every request sent in the step (a start dealt during it included)


def open_loop_step(
    port: int,
    seeded: Seed,
    records: list[dict[str, Any]],
    rate: float,
    seconds: float,
    master: int,
    answer: str,
    keys: bool,
) -> Step:
    """Appends arriving at ``rate`` per second from all the tables together, for ``seconds``.

    Every table (one scorer at his evening, one thread) plays cards at random
    (Poisson) moments, ``rate / tables`` per second on average, and waits for each
    answer before sending his next card: a card due while the previous one is still
    on its way goes out when that answer comes. A latency counts from when the card
    was due, so a server that falls behind shows it (no coordinated omission). Each
    table deals the games it will need before the clock starts (the starts are
    neither timed nor in the CPU figures, so that the offered rate is one of appends
    and the CPU per request is an append's); a table that still runs out deals its
    next game when one is over, counted.
    """
    tables = len(seeded.tokens)
    per_table = rate / tables
    latencies: list[list[float]] = [[] for _ in range(tables)]
    failures: list[str] = []
    sent = [0] * tables
    ready = threading.Barrier(tables + 1)
    go = threading.Barrier(tables + 1)
    origin = [0.0]
    expected = per_table * seconds
    shortest = min(len(record["events"]) - 1 for record in records)
    dealt_ahead = math.ceil((expected + 3 * math.sqrt(expected) + 2) / shortest)

    def table(i: int) -> None:
        client = Client(port, seeded.tokens[i])
        arrivals = random.Random(1000 * i + int(rate))
        g = i

        def deal() -> tuple[int, dict[str, Any]]:
            nonlocal g
            record = records[g % len(records)]
            g += tables
            start = {k: v for k, v in record["events"][0].items() if k != "type"}
            status, body, _elapsed = client.post(
                f"/api/evenings/{seeded.evenings[i]}/games/", {"deal": start}
            )
            if status != 201:
                raise RuntimeError(f"start: {status} {body}")
            return body["id"], record

        try:
            games = [deal() for _ in range(dealt_ahead)]
        except Exception as error:
            failures.append(repr(error))
            games = []
        ready.wait()
        go.wait()
        due = origin[0]
        end = origin[0] + seconds
        try:
            while True:
                if games:
                    game_id, record = games.pop(0)
                else:
                    game_id, record = deal()
                    sent[i] += 1
                for seq, event in enumerate(record["events"][1:], start=1):
                    due += arrivals.expovariate(per_table)
                    if due >= end:
                        return
                    if time.perf_counter() > end:
                        # The step is over and this card, due before its end, was never
                        # sent: the server fell behind. It counts as failed.
                        failures.append("not sent by the end of the step")
                        return
                    wait = due - time.perf_counter()
                    if wait > 0:
                        time.sleep(wait)
                    request: dict[str, Any] = {"expected_seq": seq, "events": [event]}
                    if answer != "full":
                        request["answer"] = answer
                    key = f"{i}-{game_id}-{seq}" if keys else None
                    status, body, _elapsed = client.post(
                        f"/api/games/{game_id}/events/", request, key
                    )
                    sent[i] += 1
                    latencies[i].append(time.perf_counter() - due)
                    if status != 201:
                        failures.append(f"append: {status} {body}")
                        return
        except Exception as error:  # a refused connection, a timeout: a failed request
            failures.append(repr(error))

    threads = [threading.Thread(target=table, args=(i,)) for i in range(tables)]
    for thread in threads:
        thread.start()
    ready.wait()  # every table has dealt its games
    before = cpu_seconds(master)
    origin[0] = time.perf_counter() + 0.05
    go.wait()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - origin[0]
    after = cpu_seconds(master)
    return Step(
        rate=rate,
        latencies=[x for t in latencies for x in t],
        failures=failures,
        cpu={k: after[k] - before[k] for k in before},
        wall=wall,
        requests=sum(sent),
    )


def statements_per_append(
    seeded: Seed, records: list[dict[str, Any]], answer: str
) -> tuple[float, int, int]:
    """Statements Django runs for one append (``CaptureQueriesContext``) over a whole game
    recorded as the API records it (the service, its key's answer stored by the API's
    ``answered_once`` in the same transaction), with an idempotency key: the median,
    the most (the append that finishes the game books its money) and the count."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from clubs.models import Role
    from games import services
    from games.apis.events import appended_data
    from games.apis.idempotency import answered_once
    from games.models import Evening

    record = records[0]
    evening = Evening.objects.get(pk=seeded.evenings[0])
    user = get_user_model().objects.get(username="scorer0")
    deal = {k: v for k, v in record["events"][0].items() if k != "type"}
    game = services.game_start(evening=evening, user=user, deal=deal)
    counts = []
    for seq, event in enumerate(record["events"][1:], start=1):

        def write(on_written: Any, seq: int = seq, event: dict[str, Any] = event) -> Any:
            return services.game_events_append(
                game=game.pk,
                user=user,
                expected_seq=seq,
                events=[event],
                min_role=Role.SCORER,
                idempotency_key=f"count-{seq}",
                on_written=on_written,
            )

        with CaptureQueriesContext(connection) as queries:
            # As the view does it: the key's answer stored in the append's transaction.
            answered_once(
                user=user,
                key=f"count-{seq}",
                fingerprint="bench",
                write=write,
                answer=lambda appended: appended_data(appended, answer=answer),
                status=201,
            )
        # Django (5.2) logs the transaction's BEGIN and COMMIT too: round trips, but not
        # statements of the append's own.
        control = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")
        counts.append(sum(1 for q in queries if not q["sql"].startswith(control)))
    return sorted(counts)[len(counts) // 2], max(counts), len(counts)


def open_loop(args: argparse.Namespace, port: int, master: int, seeded: Seed) -> None:
    """The open-loop run: a short bare-insert baseline, then every rate in turn; prints
    each rate's p50/p95/p99 and failures, the capacity (the highest rate whose p99
    stays under 50 ms with no failure), CPU per append against CPU per bare insert
    and the statements per append."""
    from engine.generate import random_game
    from games.services import _renamed_record

    records = [
        _renamed_record(random_game(7000 + n, "fuchsen", 5), seeded.names) for n in range(64)
    ]
    tables = len(seeded.tokens)
    inserts = [max(1, args.baseline_inserts // tables)] * tables
    base = phase(tables, baseline_inserts(port, seeded, inserts, time.monotonic() + 60), master)
    base_requests = sum(len(t.latencies) for t in base.tallies)
    base_cpu = {k: 1000 * v / max(base_requests, 1) for k, v in base.cpu.items()}
    insert_server = base_cpu["gunicorn"] + base_cpu["postgres"]
    print(
        f"bare insert (closed loop, {tables} clients): {base_requests} in {base.wall:.1f} s, "
        f"CPU per insert: gunicorn {base_cpu['gunicorn']:.2f} ms + postgres "
        f"{base_cpu['postgres']:.2f} ms = {insert_server:.2f} ms"
    )
    print(f"open loop: {tables} tables, Poisson arrivals, {args.step_seconds:.0f} s per rate")
    if args.warm_seconds:  # every worker's first games pay one-time costs: not counted
        open_loop_step(
            port, seeded, records, args.rates[0], args.warm_seconds, master, args.answer, args.keys
        )
    capacity = None
    for rate in args.rates:
        step = open_loop_step(
            port, seeded, records, rate, args.step_seconds, master, args.answer, args.keys
        )
        done = len(step.latencies)
        cpu = {k: 1000 * v / max(step.requests, 1) for k, v in step.cpu.items()}
        server = cpu["gunicorn"] + cpu["postgres"]
        p99 = percentile(step.latencies, 0.99)
        print(
            f"  {rate:6.0f}/s offered: {done / step.wall:6.1f}/s done, "
            f"p50 {1000 * percentile(step.latencies, 0.5):6.1f} ms, "
            f"p95 {1000 * percentile(step.latencies, 0.95):6.1f} ms, "
            f"p99 {1000 * p99:6.1f} ms, {len(step.failures)} failed; CPU per request "
            f"{server:.2f} ms ({server / insert_server:.2f}x a bare insert)"
        )
        if step.failures:
            print(f"           e.g. {step.failures[:2]}")
        if p99 < 0.050 and not step.failures:
            capacity = rate
    print(
        "capacity (highest offered rate with p99 < 50 ms and no failure): "
        + (f"{capacity:.0f} appends/s" if capacity is not None else "none of the rates")
    )
    median, most, appends = statements_per_append(seeded, records, args.answer)
    print(
        f"statements per append (Django's count, with a key, {appends} appends of a game): "
        f"median {median}, most {most} (the finishing append), each with BEGIN and COMMIT"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scorers", type=int, default=16)
    parser.add_argument("--games", type=int, default=8, help="complete games per scorer")
    parser.add_argument(
        "--warm-games",
        type=int,
        default=1,
        help="complete games per scorer recorded before the clock starts (not counted)",
    )
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
        "--think-ms",
        type=float,
        default=0,
        help="mean pause before each append (a paced table; prints latency only)",
    )
    parser.add_argument(
        "--keys",
        action="store_true",
        help="send an Idempotency-Key with every append (as the page does)",
    )
    parser.add_argument(
        "--open-loop",
        action="store_true",
        help="appends at fixed rates with Poisson gaps from many tables (--scorers of them)",
    )
    parser.add_argument(
        "--rates",
        type=lambda text: [float(r) for r in text.split(",")],
        default=[50.0, 100.0, 150.0, 200.0],
        help="open loop: the offered appends/s, comma-separated",
    )
    parser.add_argument("--step-seconds", type=float, default=15, help="open loop: per rate")
    parser.add_argument(
        "--warm-seconds", type=float, default=8, help="open loop: not counted, at the first rate"
    )
    parser.add_argument(
        "--baseline-inserts", type=int, default=2000, help="open loop: bare inserts for the CPU"
    )
    parser.add_argument(
        "--timeline",
        type=Path,
        help="write every timed request and collector pause to this CSV file",
    )
    args = parser.parse_args()
    client_pauses = Pauses()

    with (
        throwaway_database("stichbuch_bench") as database_url,
        throwaway_redis() as broker,
        tempfile.TemporaryDirectory() as logs,
    ):
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
            "BENCH_DATABASE": database_url.rsplit("/", 1)[1],
        }
        env.pop("PYTEST_VERSION", None)
        os.environ.update(env)
        # The workers write their collector's pauses here (``bench.baseline_settings``).
        worker_log = Path(logs) / "worker-pauses.csv"
        env["BENCH_GC_LOG"] = str(worker_log)
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
            f"{'with' if args.keys else 'no'} Idempotency-Keys; {args.warm_games} warm-up game(s) "
            f"per scorer; broker: {broker or 'none (eager)'}"
        )
        with gunicorn(env, args.workers, args.worker_class, args.threads) as (port, master):
            # Warm up: every worker imports and connects before the clock starts.
            warm = Client(port, seeded.tokens[0])
            for _ in range(4 * args.workers):
                warm.post("/bench/insert/", {"warm": True})
            if args.open_loop:
                open_loop(args, port, master, seeded)
                return
            if args.warm_games:
                warm_work, _counts = record_games(
                    port,
                    seeded,
                    args.warm_games,
                    time.monotonic() + args.max_seconds,
                    args.answer,
                    args.keys,
                    first_seed=500,
                )
                warmed, _wall = run_threads(args.scorers, warm_work)
                failed = [e for t in warmed for e in t.errors]
                if failed:
                    raise RuntimeError(f"the warm-up failed: {failed[:3]}")
            work, counts = record_games(
                port,
                seeded,
                args.games,
                time.monotonic() + 3 * args.max_seconds,
                args.answer,
                args.keys,
                args.think_ms / 1000,
            )
            paced = args.think_ms > 0
            # The baseline runs in two halves, before and after the appends, so that
            # a change in the machine's load during the run weighs on both alike.
            # (A paced run has no baseline: the pace, not the server, sets its rate.)
            halves = [[c // 2 for c in counts], [c - c // 2 for c in counts]]
            if paced:
                halves = [[0] * len(counts)] * 2
            first = baseline_inserts(port, seeded, halves[0], time.monotonic() + args.max_seconds)
            ran_a = phase(args.scorers, first, master)
            ran = phase(args.scorers, work, master)
            second = baseline_inserts(port, seeded, halves[1], time.monotonic() + args.max_seconds)
            ran_b = phase(args.scorers, second, master)
        tallies = ran.tallies
        worker_pauses = read_log(worker_log)
        if args.timeline:
            write_timeline(
                args.timeline,
                {"baseline": ran_a, "append": ran, "baseline2": ran_b},
                client_pauses,
                worker_pauses,
            )

        append_rate = report("appends", tallies, ran.wall)
        # Per request of any kind (the games' starts included): the CPU went to them all.
        starts = sum(t.games for t in tallies)
        append_cpu = report_cpu(ran.cpu, sum(len(t.latencies) for t in tallies) + starts)
        report_pauses([ran], client_pauses, worker_pauses)
        report_spells(quiet_spells(ran))
        finishing = [x for t in tallies for x in t.finishing]
        print(
            f"           {sum(t.games for t in tallies)} games; the finishing append: "
            f"p50 {1000 * percentile(finishing, 0.5):.1f} ms, "
            f"p99 {1000 * percentile(finishing, 0.99):.1f} ms"
        )
        appends_p99 = percentile([x for t in tallies for x in t.latencies], 0.99)
        # Where the tail comes from: the appends that finish a game (ledger entries, the
        # projection request) against the others.
        timed = [
            (x, f) for t in tallies for x, f in zip(t.latencies, t.finishing_flags, strict=True)
        ]
        others = [x for x, f in timed if not f]
        slowest = sorted(timed, reverse=True)[: max(1, len(timed) // 100)]
        print(
            f"           the other appends: p50 {1000 * percentile(others, 0.5):.1f} ms, "
            f"p99 {1000 * percentile(others, 0.99):.1f} ms; of the slowest 1 %, "
            f"{sum(f for _, f in slowest)} of {len(slowest)} finish a game"
        )
        if paced:
            print(
                f"paced scorers (each waits {args.think_ms:.0f} ms on average before an append): "
                f"appends p99 {1000 * appends_p99:.1f} ms"
            )
            return
        base = ran_a.tallies + ran_b.tallies
        base_rate = report("baseline", base, ran_a.wall + ran_b.wall)
        base_cpu = report_cpu(
            {k: ran_a.cpu[k] + ran_b.cpu[k] for k in ran_a.cpu},
            sum(len(t.latencies) for t in base),
        )
        report_pauses([ran_a, ran_b], client_pauses, worker_pauses)
        report_spells(sorted(quiet_spells(ran_a) + quiet_spells(ran_b), reverse=True))
        ratio = append_rate / base_rate if base_rate else float("nan")
        cpu_ratio = sum(base_cpu.values()) / max(sum(append_cpu.values()), 1e-9)
        print(
            f"CPU per baseline insert / CPU per append: {cpu_ratio:.2f} "
            "(the ratio the cores allow, whatever the neighbours do)"
        )
        print(
            f"ratio appends/baseline: {ratio:.2f} (target >= 0.5); "
            f"appends p99 {1000 * appends_p99:.1f} ms (target < 50 ms)"
        )
        # Clients that send again as soon as they are answered form a closed queue: by
        # Little's law the mean latency is clients / throughput, less the clients' own
        # time between an answer and the next request, whatever the server does inside;
        # a p99 is, in practice, well above the mean.
        mean = sum(x for t in tallies for x in t.latencies) / max(1, len(timed))
        base_mean = sum(x for t in base for x in t.latencies) / max(
            1, sum(len(t.latencies) for t in base)
        )
        print(
            f"closed queue of {args.scorers}: {args.scorers} / throughput = "
            f"{1000 * args.scorers / append_rate:.1f} ms for the appends (mean measured "
            f"{1000 * mean:.1f} ms), {1000 * args.scorers / base_rate:.1f} ms for the bare insert "
            f"(mean {1000 * base_mean:.1f} ms); a mean under 50 ms needs more than "
            f"{args.scorers / 0.05:.0f} requests/s"
        )


if __name__ == "__main__":
    main()
