"""Benchmark ``manage.py rebuild_projections`` on a club with many games.

Run::

    DJANGO_SETTINGS_MODULE=stichbuch.settings .venv/bin/python bench/rebuild.py --games 100000

It creates a throwaway database of the configured kind — a temporary SQLite
file, or, when ``DATABASE_URL`` is PostgreSQL, a database ``<name>_bench_<pid>``
on the same server — migrates it, bulk-creates one club with synthetic
finished Fuchsen games (five of the club's players at the table, zero-sum
payouts, the ledger's result entries as the hook would have written them),
then times the rebuild and drops the database again. It prints the figures;
the target is under 30 s for 100,000 games. Seeded: runs are comparable.
Besides wall-clock time it prints this process's CPU time, which a shared
machine disturbs less (on PostgreSQL the server's own work is not in it).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=12, help="players of the club")
    parser.add_argument("--seasons", type=int, default=4, help="the games are split evenly")
    parser.add_argument("--per-evening", type=int, default=30, help="games per evening")
    parser.add_argument("--seed", type=int, default=2026)
    return parser.parse_args()


def throwaway_database() -> tuple[str, Any]:
    """Point DATABASE_URL at a new database of the configured kind; return (url, cleanup)."""
    url = os.environ.get("DATABASE_URL", "sqlite:///db.sqlite3")
    if url.startswith(("postgres://", "postgresql://", "pgsql://")):
        import psycopg

        parts = urlsplit(url)
        name = f"{parts.path.lstrip('/') or 'stichbuch'}_bench_{os.getpid()}"
        admin_url = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

        def drop() -> None:
            from django.db import connections

            connections.close_all()
            with psycopg.connect(admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        return urlunsplit(parts._replace(path=f"/{name}")), drop
    handle, path = tempfile.mkstemp(prefix="stichbuch-bench-", suffix=".sqlite3")
    os.close(handle)

    def remove() -> None:
        from django.db import connections

        connections.close_all()
        for suffix in ("", "-wal", "-shm", "-journal"):
            if os.path.exists(path + suffix):
                os.unlink(path + suffix)

    return f"sqlite:///{path}", remove


def zero_sum_game(rng: random.Random, seated: list[int]) -> tuple[dict[str, int], list[str], bool]:
    """A Fuchsen-like result: a Macher (and mostly a partner) against the rest."""
    ids = [str(p) for p in seated]
    partner = rng.random() < 0.8
    declarers = ids[:2] if partner else ids[:1]
    opponents = ids[len(declarers) :]
    value = rng.choice((10, 10, 20, 20, 40, 80))
    won = rng.random() < 0.55
    sign = 1 if won else -1
    payouts = {p: -sign * value for p in opponents}
    if partner:
        payouts[declarers[1]] = sign * value
        payouts[declarers[0]] = sign * value * (len(opponents) - 1)
    else:
        payouts[declarers[0]] = sign * value * len(opponents)
    assert sum(payouts.values()) == 0
    return payouts, declarers, won


def bulk_games(
    *,
    season: Any,
    player_ids: list[int],
    count: int,
    rng: random.Random,
    clock: datetime,
    per_evening: int = 30,
) -> tuple[int, datetime]:
    """Bulk-create ``count`` finished synthetic games in new evenings of ``season``
    (five of ``player_ids`` at the table, one game every 4 minutes from ``clock``)
    with the ledger's result entries as the hook would have written them, and a
    whole-season ``ProjectionChange`` so the next projection run (or the rebuild)
    takes them in. Returns (entries written, the clock after the last game)."""
    from django.db import transaction

    from clubs.models import GameKind
    from games.models import Evening, Game
    from ledger.models import LedgerEntry, ProjectionChange

    with transaction.atomic():
        evenings = Evening.objects.bulk_create(
            [
                Evening(
                    club_id=season.club_id,
                    season=season,
                    game_kind=GameKind.FUCHSEN,
                    date=season.start + timedelta(days=e),
                )
                for e in range(-(-count // per_evening))
            ]
        )
        games: list[Game] = []
        payouts_of: list[dict[str, int]] = []
        for i in range(count):
            seated = rng.sample(player_ids, 5)
            payouts, declarers, won = zero_sum_game(rng, seated)
            clock += timedelta(minutes=4)
            games.append(
                Game(
                    evening=evenings[i // per_evening],
                    number=i % per_evening + 1,
                    game_kind=GameKind.FUCHSEN,
                    status=Game.Status.FINISHED,
                    result={
                        "status": "finished",
                        "game": "fuchsen",
                        "contract": "partner" if len(declarers) > 1 else "alone",
                        "declarers": declarers,
                        "won": won,
                        "reason": "played_out",
                        "tricks": 6,
                        "payouts": payouts,
                    },
                    last_seq=30,
                    created_at=clock - timedelta(minutes=3),
                    finished_at=clock,
                )
            )
            payouts_of.append(payouts)
        Game.objects.bulk_create(games, batch_size=2000)
        rows = [
            LedgerEntry(
                club_id=season.club_id,
                season_id=season.pk,
                evening_id=game.evening_id,
                game_id=game.pk,
                player_id=int(player),
                amount=amount,
                kind=LedgerEntry.Kind.RESULT,
                created_at=game.finished_at or clock,
            )
            for game, payouts in zip(games, payouts_of, strict=True)
            for player, amount in sorted(payouts.items())
            if amount
        ]
        LedgerEntry.objects.bulk_create(rows, batch_size=5000)
        ProjectionChange.objects.create(season=season, game_id=None)
    return len(rows), clock


def generate(args: argparse.Namespace) -> dict[str, Any]:
    from clubs.models import Club, GameKind, Player, Season

    rng = random.Random(args.seed)
    club = Club.objects.create(name="Benchmark-Stammtisch", slug="benchmark")
    players = Player.objects.bulk_create(
        [Player(club=club, display_name=f"Spieler {i:02d}") for i in range(args.players)]
    )
    player_ids = [p.pk for p in players]
    per_season = -(-args.games // args.seasons)
    start = date(2020, 1, 1)
    clock = datetime(2020, 1, 1, 19, 0, tzinfo=UTC)
    made = 0
    entries = 0
    for s in range(args.seasons):
        count = min(per_season, args.games - made)
        if count <= 0:
            break
        season = Season.objects.create(
            club=club,
            name=f"Saison {s + 1}",
            game_kind=GameKind.FUCHSEN,
            start=start + timedelta(days=365 * s),
            status=Season.Status.CLOSED,
        )
        written, clock = bulk_games(
            season=season,
            player_ids=player_ids,
            count=count,
            rng=rng,
            clock=clock,
            per_evening=args.per_evening,
        )
        made += count
        entries += written
    return {"club": club, "games": made, "entries": entries}


def main() -> None:
    args = parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stichbuch.settings")
    # A benchmark is not a deployment: allow the development key.
    os.environ.setdefault("DEBUG", "1")
    os.environ.pop("CELERY_BROKER_URL", None)
    url, cleanup = throwaway_database()
    os.environ["DATABASE_URL"] = url
    try:
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command
        from django.db import connection

        engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        print(f"database: {engine} ({settings.DATABASES['default']['NAME']}, throwaway)")
        started = time.perf_counter()
        call_command("migrate", verbosity=0)
        print(f"migrate: {time.perf_counter() - started:.1f} s")

        started = time.perf_counter()
        made = generate(args)
        generated = time.perf_counter() - started
        print(
            f"generated: {made['games']} games in {args.seasons} seasons, "
            f"{made['entries']} ledger entries, {args.players} players: {generated:.1f} s"
        )
        if engine == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")

        from ledger.models import PlayerRating, SeasonSeries, StandingRow
        from ledger.selectors import balance_map

        timings = []
        for label, options in (
            ("rebuild_projections (first)", {}),
            ("rebuild_projections (again)", {}),
            ("rebuild_projections --skip-ledger-check", {"skip_ledger_check": True}),
        ):
            started, cpu_started = time.perf_counter(), time.process_time()
            # The analyses of played deals are bench/analysis_evening.py's (these
            # synthetic games have no cards to analyse).
            call_command(
                "rebuild_projections",
                stdout=open(os.devnull, "w"),  # noqa: SIM115
                skip_analyses=True,
                **options,
            )
            elapsed = time.perf_counter() - started
            cpu = time.process_time() - cpu_started
            timings.append(elapsed)
            per_game = elapsed / max(made["games"], 1) * 1e6
            print(
                f"{label}: {elapsed:.1f} s wall ({per_game:.0f} µs per game), "
                f"{cpu:.1f} s CPU of this process"
            )

        balances = balance_map(club=made["club"])
        print(
            f"projected: {StandingRow.objects.count()} standing rows, "
            f"{PlayerRating.objects.count()} ratings, {SeasonSeries.objects.count()} series; "
            f"club balances sum to {sum(balances.values())}"
        )
        started = time.perf_counter()
        balance_map(club=made["club"])
        print(f"club balances query: {(time.perf_counter() - started) * 1000:.0f} ms")
        verdict = "OK" if timings[0] < 30 else "OVER"
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(
            f"target: first rebuild < 30 s wall for 100,000 games — {verdict} "
            f"({timings[0]:.1f} s; load average {load:.1f} on {os.cpu_count()} CPUs)"
        )
    finally:
        cleanup()


if __name__ == "__main__":
    main()
