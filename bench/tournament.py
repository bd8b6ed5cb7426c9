"""Tournament benchmark: 60 participants at 12 tables, 3 series of 20 deals through the API.

Run: ``.venv/bin/python bench/tournament.py [--pause 0.5] [--viewers 20] [--redis]``
(needs PostgreSQL on 127.0.0.1:5432 with trust auth for ``postgres``; ``--redis``
needs a ``redis-server`` binary).

What it does, all on loopback and thrown away at the end:

1. creates and migrates a PostgreSQL database ``stichbuch_tournament_<pid>``; seeds a
   club, an organiser with an API token, 60 players, a Fuchsen tournament of 3 series
   of 20 deals per table and a ranking link;
2. starts one uvicorn process (``stichbuch.asgi``, DEBUG off; with ``--redis`` pushing
   through a redis-server of its own) and opens ``--viewers`` streams of the ranking
   link (``/turnier/<key>/events/``);
3. per series: draws it through the API (tables of five: 12 tables; series 2 and 3
   seeded by the standing, spread) and confirms it — the draw's time is the POST's;
   then 12 threads, one per table, record its 20 deals (each one request: deal, call
   and tally, ``POST /api/evenings/{id}/games/``) ``--pause`` seconds apart; every
   viewer notes when the ranking first shows that table with that many deals finished;
   then the organiser confirms every sheet;
4. prints the p50 / p95 / max from sending a deal to each viewer's ranking showing it,
   the draws' times, and the ranking page's (``/turnier/<key>/``, 60 participants after
   3 series) p50 / p95 over ``--page-requests`` requests.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import secrets
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.api_load import percentile, throwaway_database, throwaway_redis  # noqa: E402
from bench.live import fmt_ms, uvicorn  # noqa: E402

PLAYERS, SERIES, DEALS, TABLE_SIZE = 60, 3, 20, 5


@dataclass
class Seeded:
    token: str
    slug: str
    tournament_id: int
    key: str


def seed() -> Seeded:
    from django.contrib.auth import get_user_model

    from clubs.models import Club, Membership, Player, Role
    from clubs.services import api_token_create
    from tournaments import services

    club = Club.objects.create(name="Preisfuchsen Benchmark", slug="bench")
    user = get_user_model().objects.create_user(username="organiser", password=None)
    Membership.objects.create(club=club, user=user, role=Role.ADMIN)
    players = [
        Player.objects.create(club=club, display_name=f"Spieler {n:02d}")
        for n in range(1, PLAYERS + 1)
    ]
    tournament = services.tournament_create(
        club=club,
        user=user,
        name="Preisfuchsen",
        game_kind="fuchsen",
        series_count=SERIES,
        deals_per_series=DEALS,
        players=[p.pk for p in players],
        seed="bench",
    )
    link = services.ranking_link_create(tournament=tournament)
    return Seeded(api_token_create(user=user, name="bench"), club.slug, tournament.pk, link.key)


class Client:
    def __init__(self, port: int, token: str | None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {"Content-Type": "application/json"}
        if token:
            self.headers["Authorization"] = f"Token {token}"

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        started = time.perf_counter()
        payload = json.dumps(body) if body is not None else None
        try:
            self.connection.request(method, path, payload, self.headers)
            response = self.connection.getresponse()
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            # uvicorn closed the idle keep-alive connection: a new one.
            self.connection.close()
            started = time.perf_counter()
            self.connection.request(method, path, payload, self.headers)
            response = self.connection.getresponse()
        raw = response.read()
        elapsed = time.perf_counter() - started
        data = (
            json.loads(raw)
            if raw and response.getheader("Content-Type", "").startswith("application/json")
            else raw
        )
        return response.status, data, elapsed


@dataclass
class Viewer:
    """When (``time.perf_counter``) each (series, table, finished) first appeared."""

    seen: dict[tuple[int, int, int], float] = field(default_factory=dict)
    ready: asyncio.Event = field(default_factory=asyncio.Event)


async def watch(port: int, path: str, viewer: Viewer) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n", 1)[0]:
        raise RuntimeError(f"the stream answered {head[:60]!r}")
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if not line.startswith(b"data: "):
                continue
            now = time.perf_counter()
            viewer.ready.set()
            state = json.loads(line[6:])
            for row in state.get("progress", []):
                key = (row["series"], row["table"], row["finished"])
                viewer.seen.setdefault(key, now)
    finally:
        writer.close()


def play_table(
    port: int,
    token: str,
    table: dict[str, Any],
    series: int,
    ids: dict[int, int],
    pause: float,
    sent: dict[tuple[int, int, int], float],
    errors: list[str],
) -> None:
    """Record the table's deals, one request each: deal, call, tally."""
    client = Client(port, token)
    seats = [str(ids[seat["start_number"]]) for seat in table["seats"]]
    rng = random.Random(f"{series}:{table['number']}")
    for deal in range(1, DEALS + 1):
        dealer = seats[(deal - 1) % len(seats)]
        macher, partner = rng.sample([s for s in seats if s != dealer], 2)
        events = [
            {"type": "deal", "dealer": dealer, "players": seats},
            {"type": "call", "player": macher, "card": "EA"},
            {"type": "tally", "level": "re", "augen": rng.choice([40, 70, 90]), "partner": partner},
        ]
        started = time.perf_counter()
        status, data, _ = client.call(
            "POST", f"/api/evenings/{table['evening_id']}/games/", {"events": events}
        )
        if status != 201:
            errors.append(f"table {table['number']} deal {deal}: {status} {data!r}"[:300])
            return
        sent[(series, table["number"], deal)] = started
        time.sleep(pause)


async def run(args: argparse.Namespace, port: int, seeded: Seeded) -> None:
    api = f"/api/clubs/{seeded.slug}/tournaments/{seeded.tournament_id}/"
    organiser = Client(port, seeded.token)
    status, detail, _ = organiser.call("GET", api)
    assert status == 200, detail
    ids = {p["start_number"]: p["player_id"] for p in detail["participants"]}
    viewers = [Viewer() for _ in range(args.viewers)]
    tasks = [asyncio.create_task(watch(port, f"/turnier/{seeded.key}/events/", v)) for v in viewers]
    await asyncio.wait_for(asyncio.gather(*(v.ready.wait() for v in viewers)), 60)
    sent: dict[tuple[int, int, int], float] = {}
    draws: list[float] = []
    errors: list[str] = []
    for series in range(1, SERIES + 1):
        seeding = "random" if series == 1 else "spread"
        status, drawn, elapsed = await asyncio.to_thread(
            organiser.call,
            "POST",
            api + "draw/",
            {"seeding": seeding, "leftover": "bye", "table_size": TABLE_SIZE},
        )
        assert status == 201, drawn
        draws.append(elapsed)
        status, confirmed, _ = await asyncio.to_thread(
            organiser.call, "POST", api + f"series/{series}/confirm/"
        )
        assert status == 200, confirmed
        tables = confirmed["tables"]
        threads = [
            threading.Thread(
                target=play_table,
                args=(port, seeded.token, t, series, ids, args.pause, sent, errors),
            )
            for t in tables
        ]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            await asyncio.to_thread(thread.join)
        wall = time.perf_counter() - started
        print(
            f"series {series}: {len(tables)} tables, drawn in {fmt_ms(draws[-1])}; "
            f"{len(tables) * DEALS} deals recorded in {wall:.1f} s"
        )
        if errors:
            raise SystemExit(f"{len(errors)} deals refused, e.g. {errors[:2]}")
        for table in tables:
            for seat in table["seats"]:
                status, data, _ = await asyncio.to_thread(
                    organiser.call,
                    "POST",
                    api + f"series/{series}/tables/{table['number']}/confirm/",
                    {"start_number": seat["start_number"]},
                )
                assert status == 200, data
    await asyncio.sleep(2)
    delays = []
    missing = 0
    for viewer in viewers:
        for key, at in sent.items():
            if key in viewer.seen:
                delays.append(viewer.seen[key] - at)
            else:
                missing += 1
    for task in tasks:
        task.cancel()
    delays.sort()
    print(
        f"deal sent → shown in the live ranking, {len(delays)} deliveries to {len(viewers)} "
        f"viewers ({missing} missing, a later frame showing a later deal first): "
        f"p50 {fmt_ms(percentile(delays, 0.5))}, p95 {fmt_ms(percentile(delays, 0.95))}, "
        f"max {fmt_ms(delays[-1])}"
    )
    print(f"draw of a series (POST …/draw/): {', '.join(fmt_ms(d) for d in draws)}")
    page = Client(port, None)
    times = []
    for _ in range(args.page_requests):
        status, _body, elapsed = page.call("GET", f"/turnier/{seeded.key}/")
        assert status == 200
        times.append(elapsed)
    print(
        f"ranking page (/turnier/<key>/, {PLAYERS} participants, {SERIES} series): "
        f"p50 {fmt_ms(percentile(times, 0.5))}, p95 {fmt_ms(percentile(times, 0.95))} "
        f"over {len(times)} requests"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between a table's deals")
    parser.add_argument("--viewers", type=int, default=20)
    parser.add_argument("--page-requests", type=int, default=50)
    parser.add_argument("--redis", action="store_true", help="push through Redis pub/sub")
    args = parser.parse_args()
    with throwaway_database("stichbuch_tournament") as database_url, throwaway_redis() as redis_url:
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
        # The pages need their static files collected (DEBUG off: hashed names).
        static_root = tempfile.mkdtemp(prefix="stichbuch_static_")
        env["STATIC_ROOT"] = static_root
        os.environ.update(env)
        import django
        from django.core.management import call_command
        from django.db import connections

        django.setup()
        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        seeded = seed()
        connections.close_all()
        print(
            f"one uvicorn process; {PLAYERS} participants, {SERIES} series of {DEALS} deals "
            f"at tables of {TABLE_SIZE}; {args.viewers} viewers on the ranking link; "
            f"a deal every {args.pause} s per table; push: "
            f"{'Redis pub/sub' if env['LIVE_REDIS_URL'] else 'in-process'}"
        )
        try:
            with uvicorn(env) as (port, _process):
                asyncio.run(run(args, port, seeded))
        finally:
            shutil.rmtree(static_root, ignore_errors=True)


if __name__ == "__main__":
    main()
