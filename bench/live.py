"""Live table benchmark: open live links on one uvicorn process, append → change received.

Run: ``.venv/bin/python bench/live.py [--viewers 500] [--appends 30] [--redis]``
(needs PostgreSQL on 127.0.0.1:5432 with trust auth for ``postgres``; ``--redis``
needs a ``redis-server`` binary).

What it does, all on loopback and thrown away at the end:

1. creates and migrates a PostgreSQL database ``stichbuch_live_<pid>``;
2. seeds a club, a scorer with an API token, an open Fuchsen evening of five, its
   first game (a generated complete game, ``engine.generate``, dealt) and a live link;
3. starts **one** uvicorn process (``stichbuch.asgi``, DEBUG off); with ``--redis``
   also a ``redis-server`` of its own, and the app pushes through it
   (``LIVE_REDIS_URL``), as production does between processes;
4. times ``--appends`` appends with no viewer open (the recording API's figure alone);
5. opens ``--viewers`` server-sent event streams of the live link (``/live/<token>/events/``,
   one asyncio connection each, in this process) and waits until each has its first state;
6. appends the game's next events one at a time (``POST /api/games/{id}/events/`` with
   ``expected_seq``, as a phone does), ``--pause`` seconds apart, and notes for every
   viewer when the state carrying the new ``last_seq`` arrives;
   (``--split``: to a second uvicorn process, the streams' process hearing of them
   through Redis — the production layout, where the recording API's workers hold no
   stream);
7. prints the p50 / p95 / max from sending each append to each viewer receiving it,
   the appends' own latency without and with the viewers open, and the uvicorn
   process's resident memory with the viewers open.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.api_load import (  # noqa: E402
    free_port,
    percentile,
    throwaway_database,
    throwaway_redis,
    wait_for_port,
)


@dataclass
class Seeded:
    token: str
    game_id: int
    link: str
    events: list[dict[str, Any]]  # the game's events after its deal


def seed(events_needed: int) -> Seeded:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from clubs.models import Club, GameKind, Membership, Player, Role, Season
    from engine.generate import NAMES, random_game
    from games import services
    from games.services import _renamed_record
    from live import services as live_services

    club = Club.objects.create(name="Benchmark Stammtisch", slug="bench")
    season = Season.objects.create(
        club=club, name="Bench", game_kind=GameKind.FUCHSEN, start="2026-01-01"
    )
    players = {name: Player.objects.create(club=club, display_name=name.title()) for name in NAMES}
    user = get_user_model().objects.create_user(username="scorer", password=None)
    Membership.objects.create(club=club, user=user, role=Role.SCORER)
    evening = services.evening_create(
        club=club,
        user=user,
        season=season,
        players=[players[name].pk for name in NAMES[:5]],
        game_kind=GameKind.FUCHSEN,
    )
    names = {name: str(p.pk) for name, p in players.items()}
    for seed_number in range(1000):
        record = _renamed_record(random_game(seed_number, "fuchsen", 5), names)
        if len(record["events"]) > events_needed:
            break
    else:
        raise SystemExit(f"no generated game has {events_needed} events: ask fewer --appends")
    game = services.game_start(evening=evening, user=user, deal=record["events"][0])
    link = live_services.live_link_create(evening=evening, user=user)
    return Seeded(
        token=Token.objects.create(user=user).key,
        game_id=game.pk,
        link=f"/live/{live_services.link_token(link)}/events/",
        events=record["events"][1:],
    )


@contextmanager
def uvicorn(env: dict[str, str]) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = free_port()
    command = [
        str(REPO / ".venv" / "bin" / "python"),
        *("-m", "uvicorn", "stichbuch.asgi:application"),
        *("--host", "127.0.0.1", "--port", str(port), "--workers", "1"),
        *("--log-level", "warning", "--no-access-log", "--backlog", "4096"),
    ]
    process = subprocess.Popen(command, cwd=REPO, env=env)
    try:
        wait_for_port(port, "uvicorn")
        yield port, process
    finally:
        process.terminate()
        process.wait(timeout=30)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class Viewer:
    """One open stream: when (``time.perf_counter``) each ``last_seq`` first arrived."""

    seen: dict[int, float] = field(default_factory=dict)
    ready: asyncio.Event = field(default_factory=asyncio.Event)


async def watch(port: int, path: str, viewer: Viewer, seqs: range) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n", 1)[0]:
        raise RuntimeError(f"the stream answered {head[:60]!r}")
    wanted = [(seq, f'"last_seq":{seq},'.encode()) for seq in seqs]
    buffer = b""
    try:
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return
            now = time.perf_counter()
            buffer = buffer[-64:] + chunk
            if not viewer.ready.is_set() and b"event: state" in buffer:
                viewer.ready.set()
            for seq, needle in wanted:
                if seq not in viewer.seen and needle in buffer:
                    viewer.seen[seq] = now
    finally:
        writer.close()


class Scorer:
    def __init__(self, port: int, token: str, game_id: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.path = f"/api/games/{game_id}/events/"

    def append(self, seq: int, event: dict[str, Any]) -> tuple[float, float]:
        """Send the event after ``seq``; (when it was sent, how long the answer took)."""
        body = json.dumps({"expected_seq": seq, "events": [event], "answer": "new"})
        started = time.perf_counter()
        self.connection.request("POST", self.path, body, self.headers)
        response = self.connection.getresponse()
        response.read()
        elapsed = time.perf_counter() - started
        if response.status != 201:
            raise RuntimeError(f"append {seq + 1}: {response.status}")
        return started, elapsed


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


async def run(args: argparse.Namespace, port: int, seeded: Seeded, pid: int, api_port: int) -> None:
    scorer = Scorer(api_port, seeded.token, seeded.game_id)
    events = iter(seeded.events)
    seq = 1  # the deal
    alone = []
    # One warm-up append (the process's first request pays its imports), not counted.
    await asyncio.to_thread(scorer.append, seq, next(events))
    seq += 1
    for _ in range(args.appends):
        _sent, elapsed = await asyncio.to_thread(scorer.append, seq, next(events))
        seq += 1
        alone.append(elapsed)
    first = seq + 1
    seqs = range(first, first + args.appends)
    viewers = [Viewer() for _ in range(args.viewers)]
    opened = time.perf_counter()
    tasks = []
    for viewer in viewers:
        tasks.append(asyncio.create_task(watch(port, seeded.link, viewer, seqs)))
        await asyncio.sleep(0.002)  # a room of phones, not one burst
    await asyncio.wait_for(asyncio.gather(*(v.ready.wait() for v in viewers)), 120)
    print(
        f"{len(viewers)} viewers connected in {time.perf_counter() - opened:.1f} s; "
        f"uvicorn RSS {rss_mb(pid):.0f} MB"
    )
    # A new connection: uvicorn closed the idle one while the viewers came in.
    scorer = Scorer(api_port, seeded.token, seeded.game_id)
    sent_at: dict[int, float] = {}
    crowded = []
    for _ in range(args.appends):
        sent, elapsed = await asyncio.to_thread(scorer.append, seq, next(events))
        seq += 1
        sent_at[seq] = sent
        crowded.append(elapsed)
        await asyncio.sleep(args.pause)
    await asyncio.sleep(2)
    delays = []
    missing = 0
    missed: set[int] = set()
    for viewer in viewers:
        for s, at in sent_at.items():
            if s in viewer.seen:
                delays.append(viewer.seen[s] - at)
            else:
                missing += 1
                missed.add(s)
    for task in tasks:
        task.cancel()
    delays.sort()
    print(
        f"append → change received, {len(delays)} deliveries ({missing} missing): "
        f"p50 {fmt_ms(percentile(delays, 0.5))}, p95 {fmt_ms(percentile(delays, 0.95))}, "
        f"max {fmt_ms(delays[-1])}"
    )
    print(
        f"append latency p50: {fmt_ms(percentile(alone, 0.5))} with no viewer, "
        f"{fmt_ms(percentile(crowded, 0.5))} with {len(viewers)} viewers "
        f"(p95 {fmt_ms(percentile(alone, 0.95))} / {fmt_ms(percentile(crowded, 0.95))})"
    )
    print(f"uvicorn RSS with the viewers open: {rss_mb(pid):.0f} MB")
    if os.environ.get("BENCH_VERBOSE"):
        print(
            "alone", [round(x * 1000) for x in alone], "crowded", [round(x * 1000) for x in crowded]
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=500)
    parser.add_argument("--appends", type=int, default=15, help="per phase (one game)")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between appends")
    parser.add_argument("--redis", action="store_true", help="push through Redis pub/sub")
    parser.add_argument(
        "--split",
        action="store_true",
        help="send the appends to a second uvicorn process (implies --redis)",
    )
    args = parser.parse_args()
    args.redis = args.redis or args.split
    with throwaway_database("stichbuch_live") as database_url, throwaway_redis() as redis_url:
        if args.redis and redis_url is None:
            raise SystemExit("--redis needs a redis-server binary")
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "stichbuch.settings",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "LOG_LEVEL": "WARNING",
            "LIVE_REDIS_URL": redis_url if args.redis and redis_url else "",
        }
        env.pop("PYTEST_VERSION", None)
        os.environ.update(env)
        import django
        from django.core.management import call_command
        from django.db import connections

        django.setup()
        call_command("migrate", verbosity=0)
        seeded = seed(2 * args.appends + 3)
        connections.close_all()
        print(
            f"one uvicorn process; {args.viewers} viewers on one live link; "
            f"{args.appends} appends {args.pause} s apart; push: "
            f"{'Redis pub/sub' if env['LIVE_REDIS_URL'] else 'in-process'}; appends to "
            f"{'a second uvicorn process' if args.split else 'the same process'}"
        )
        with uvicorn(env) as (port, process):
            if not args.split:
                asyncio.run(run(args, port, seeded, process.pid, port))
                return
            with uvicorn(env) as (api_port, _api):
                asyncio.run(run(args, port, seeded, process.pid, api_port))


if __name__ == "__main__":
    main()
