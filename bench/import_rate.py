"""How fast does a club's kept score go in? Records imported per second, projections included.

Run::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> .venv/bin/python bench/import_rate.py \
        [--evening 200] [--season 2000] [--per-evening 200]

It creates a throwaway database of the configured kind (``bench/rebuild.py``'s: a
database ``<name>_bench_<pid>`` on the same PostgreSQL server, else a temporary SQLite
file), migrates it and seeds a club of six players with an open Fuchsen and an open
Königrufen season. The records are generated first (``engine.generate.random_game``:
complete legal games, every card, the deal's hands; five players at Fuchsen, four at
Königrufen), outside every clock. Then, for each game:

- **evening**: ``--evening`` records into one evening, in one call of
  ``games.services.games_import`` (the import and its projection run, which runs in
  process without a broker, as it does once the import has committed);
- **API**: the same number of other records through ``POST /api/evenings/{id}/import/``
  (Django's test client, a scorer's session: the serializer, the import, the answer);
- **season**: ``--season`` records in evenings of ``--per-evening`` through
  ``manage.py import_history`` (a JSON file, one call per evening).

Each prints games/s (wall time, projections included) and, for the evening in process,
this process's CPU time per record (PostgreSQL's own work is not in it: the steadier
figure on a shared machine) and the SQL statements per record of the import's
transaction and of its projection run (``CaptureQueriesContext``). Seeded: runs are
comparable.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.rebuild import throwaway_database  # noqa: E402

GAMES = {"fuchsen": 5, "koenigrufen": 4}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--evening", type=int, default=200, help="records into one evening")
    parser.add_argument("--season", type=int, default=2000, help="records into a season")
    parser.add_argument("--per-evening", type=int, default=200, help="the season's evenings")
    parser.add_argument("--games", default="fuchsen,koenigrufen", help="which games")
    parser.add_argument("--seed", type=int, default=2026)
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    os.environ["DJANGO_SETTINGS_MODULE"] = "stichbuch.settings"
    # As deployed (DEBUG off: no query log kept), but over plain HTTP on the test client.
    os.environ.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
        AXES_ENABLED="0",
    )
    os.environ.pop("CELERY_BROKER_URL", None)
    url, cleanup = throwaway_database()
    os.environ["DATABASE_URL"] = url
    try:
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command

        engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        print(f"database: {engine} (throwaway)", flush=True)
        call_command("migrate", verbosity=0)
        club = seed()
        for game in args.games.split(","):
            measure(args, club, game)
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"load average {load:.1f} on {os.cpu_count()} CPUs; target >= 300 games/s")
    finally:
        cleanup()


def seed() -> dict[str, Any]:
    """A club, its owner (who imports), six players and an open season of each game."""
    from datetime import date

    from django.contrib.auth.models import User

    from clubs.models import Club, GameKind, Membership, Player, Role, Season
    from engine.generate import NAMES

    club = Club.objects.create(name="Einfuhr", slug="einfuhr")
    user = User.objects.create_user("scorer", password=secrets.token_urlsafe(12))
    Membership.objects.create(club=club, user=user, role=Role.OWNER)
    players = {name: Player.objects.create(club=club, display_name=name.title()) for name in NAMES}
    seasons = {
        kind: Season.objects.create(
            club=club, name=f"Saison {kind}", game_kind=kind, start=date(2026, 1, 1)
        )
        for kind in (GameKind.FUCHSEN, GameKind.KOENIGRUFEN)
    }
    return {"club": club, "user": user, "players": players, "seasons": seasons}


def measure(args: argparse.Namespace, seeded: dict[str, Any], game: str) -> None:
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    from engine.generate import NAMES, random_game
    from games import services
    from ledger.services import projection_requests_deferred

    seats = GAMES[game]
    club, user, season = seeded["club"], seeded["user"], seeded["seasons"][game]
    seated = [seeded["players"][name].pk for name in NAMES[:seats]]
    base = args.seed * 1_000_003 + (0 if game == "fuchsen" else 500_000_000)
    counts = (args.evening, args.evening, args.season)
    records = [
        [random_game(base + sum(counts[:k]) + i, game, seats) for i in range(n)]
        for k, n in enumerate(counts)
    ]

    def evening() -> Any:
        return services.evening_create(club=club, user=user, season=season, players=seated)

    # In process: one call, its statements split into the import's and the projection
    # run's (the inner block ends with the import's commit, the outer one with the run).
    target = evening()
    started, cpu = time.perf_counter(), time.process_time()
    with (
        CaptureQueriesContext(connection) as everything,
        projection_requests_deferred(),
        CaptureQueriesContext(connection) as imported,
    ):
        outcomes = services.games_import(evening=target, user=user, records=records[0])
    took, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert all(o.imported for o in outcomes), [o.detail for o in outcomes if not o.imported]
    n = len(records[0])
    projection = len(everything) - len(imported)
    print(
        f"{game}, evening of {n}, in process: {took:.2f} s, {n / took:.0f} games/s "
        f"({1000 * cpu / n:.2f} ms of this process's CPU per record); "
        f"statements: import {len(imported)} ({len(imported) / n:.2f} per record), "
        f"projection run {projection} ({projection / n:.2f} per record)",
        flush=True,
    )

    client = APIClient()
    client.force_login(user)
    target = evening()
    started = time.perf_counter()
    response = client.post(f"/api/evenings/{target.pk}/import/", records[1], format="json")
    took = time.perf_counter() - started
    report = response.json()
    assert response.status_code == 200 and report["rejected"] == 0, report
    n = len(records[1])
    print(f"{game}, evening of {n}, API: {took:.2f} s, {n / took:.0f} games/s", flush=True)

    names = [seeded["players"][name].display_name for name in NAMES[:seats]]
    history = {
        "evenings": [
            {"season": season.pk, "players": names, "games": records[2][i : i + args.per_evening]}
            for i in range(0, len(records[2]), args.per_evening)
        ]
    }
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(history, file)
    try:
        started = time.perf_counter()
        call_command("import_history", club.slug, file.name, stdout=open(os.devnull, "w"))  # noqa: SIM115
        took = time.perf_counter() - started
    finally:
        os.unlink(file.name)
    n = len(records[2])
    print(
        f"{game}, season of {n} ({len(history['evenings'])} evenings), import_history: "
        f"{took:.2f} s, {n / took:.0f} games/s",
        flush=True,
    )


if __name__ == "__main__":
    main()
