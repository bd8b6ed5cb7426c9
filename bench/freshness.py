"""How fresh are the standings? The time from a game's finishing append to the updated table.

Run: ``.venv/bin/python bench/freshness.py`` (needs PostgreSQL on 127.0.0.1:5432 with
trust auth for ``postgres`` and a ``redis-server`` binary).

It creates a throwaway PostgreSQL database and migrates it, starts its own
``redis-server`` on a free port, and seeds a club whose history holds
``--club-games`` finished games, ``--season-games`` of them in the open season
(bulk-created with their ledger entries, ``bench/rebuild.py``), and projects them
with ``rebuild_projections`` (timed: the rebuild of the whole club). Then it
starts a real Celery worker (``celery -A stichbuch worker``), imports
``--import-games`` complete records into an evening of the season through
``games.services.games_import`` (timed until the worker has projected them:
games/s, projections included), and records ``--games`` complete legal games
through the recording service. For each it takes the time at which the
finishing append has committed, and polls the season's ``ProjectionState``
until the worker has stored projections that include that game. It prints
p50/p95/max of that delay (target p95 < 200 ms). Everything is stopped and
dropped at the end.
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.api_load import percentile, throwaway_database, throwaway_redis  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games measured")
    parser.add_argument(
        "--season-games", type=int, default=10_000, help="finished games in the open season"
    )
    parser.add_argument(
        "--club-games", type=int, default=100_000, help="finished games in the club in all"
    )
    parser.add_argument("--import-games", type=int, default=300, help="records imported")
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes")
    parser.add_argument("--timeout", type=float, default=30, help="seconds to wait per game")
    args = parser.parse_args()

    with throwaway_database("stichbuch_fresh") as database_url, throwaway_redis() as broker:
        if broker is None:
            sys.exit("needs redis-server")
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "stichbuch.settings",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "LOG_LEVEL": "WARNING",
            "CELERY_BROKER_URL": broker,
        }
        env.pop("PYTEST_VERSION", None)
        os.environ.update(env)
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        call_command("migrate", verbosity=0)
        history = seed_history(args)
        worker = subprocess.Popen(
            [
                str(REPO / ".venv" / "bin" / "celery"),
                *("-A", "stichbuch", "worker", "--loglevel", "WARNING"),
                *("--concurrency", str(args.concurrency), "--without-gossip", "--without-mingle"),
            ],
            cwd=REPO,
            env=env,
        )
        try:
            measure(args, history)
        finally:
            worker.terminate()
            worker.wait(timeout=60)
            connections.close_all()


def seed_history(args: argparse.Namespace) -> dict[str, Any]:
    """The club, its players and its past (bulk), projected by one rebuild (timed)."""
    import random
    from datetime import UTC, date, datetime, timedelta

    from django.core.management import call_command

    from bench.rebuild import bulk_games
    from clubs.models import Club, GameKind, Player, Season
    from engine.generate import NAMES

    rng = random.Random(2026)
    club = Club.objects.create(name="Frische", slug="frische")
    players = {name: Player.objects.create(club=club, display_name=name.title()) for name in NAMES}
    ids = [p.pk for p in players.values()]
    clock = datetime(2016, 1, 1, 19, 0, tzinfo=UTC)
    started = time.perf_counter()
    past = max(args.club_games - args.season_games, 0)
    for s, first in enumerate(range(0, past, 10_000)):
        closed = Season.objects.create(
            club=club,
            name=f"Saison {s + 1}",
            game_kind=GameKind.FUCHSEN,
            start=date(2016, 1, 1) + timedelta(days=40 * s),
            status=Season.Status.CLOSED,
        )
        _, clock = bulk_games(
            season=closed, player_ids=ids, count=min(10_000, past - first), rng=rng, clock=clock
        )
    season = Season.objects.create(
        club=club, name="Bench", game_kind=GameKind.FUCHSEN, start=date(2026, 1, 1)
    )
    if args.season_games:
        bulk_games(season=season, player_ids=ids, count=args.season_games, rng=rng, clock=clock)
    generated = time.perf_counter() - started
    started = time.perf_counter()
    call_command("rebuild_projections", "--skip-ledger-check", stdout=open(os.devnull, "w"))  # noqa: SIM115
    print(
        f"history: {args.club_games} finished games in the club, {args.season_games} in the "
        f"season (generated in {generated:.1f} s); rebuild_projections of the club "
        f"{time.perf_counter() - started:.1f} s (target < 30 s for 100,000)",
        flush=True,
    )
    return {"club": club, "season": season, "players": players}


def measure(args: argparse.Namespace, history: dict[str, Any]) -> None:
    from clubs.models import GameKind
    from engine.generate import NAMES, random_game
    from games import services
    from games.services import _renamed_record
    from ledger.models import ProjectionState

    club, season, players = history["club"], history["season"], history["players"]
    names = {name: str(p.pk) for name, p in players.items()}
    evening = services.evening_create(
        club=club,
        user=None,
        season=season,
        players=[players[name].pk for name in NAMES[:5]],
        game_kind=GameKind.FUCHSEN,
    )

    def state() -> ProjectionState:
        return ProjectionState.objects.get(season=season)

    def wait_until_fresh(version: int, timeout: float) -> float | None:
        """Seconds until the stored projections are computed from ``version`` or later."""
        started = time.perf_counter()
        while time.perf_counter() - started < timeout:
            computed = (
                ProjectionState.objects.filter(season=season)
                .values_list("computed_from", flat=True)
                .first()
            )
            if computed is not None and computed >= version:
                return time.perf_counter() - started
            time.sleep(0.002)
        return None

    # An import: records with every card, in batches of 100 (each batch is one call).
    started = time.perf_counter()
    for first in range(0, args.import_games, 100):
        batch = [
            random_game(10_000 + i, "fuchsen", 5)
            for i in range(first, min(first + 100, args.import_games))
        ]
        services.games_import(evening=evening, user=None, records=batch)
    if args.import_games:
        wait_until_fresh(state().version, 300)
        took = time.perf_counter() - started
        print(
            f"import: {args.import_games} records in {took:.1f} s, projections included "
            f"({args.import_games / took:.0f} games/s; target >= 300)",
            flush=True,
        )

    delays: list[float] = []
    missed = 0
    for g in range(args.games):
        record = _renamed_record(random_game(g, "fuchsen", 5), names)
        deal = {k: v for k, v in record["events"][0].items() if k != "type"}
        game = services.game_start(evening=evening, user=None, deal=deal)
        events = record["events"][1:]
        game = services.game_events_append(
            game=game, user=None, expected_seq=1, events=events[:-1]
        ).game
        # The finishing append: the clock starts when it has committed.
        services.game_events_append(
            game=game, user=None, expected_seq=game.last_seq, events=events[-1:]
        )
        version = state().version
        delay = wait_until_fresh(version, args.timeout)
        if delay is None:
            missed += 1
        else:
            delays.append(delay)
    print(
        f"freshness over {len(delays)} games ({args.concurrency} worker processes): "
        f"p50 {1000 * percentile(delays, 0.5):.0f} ms, "
        f"p95 {1000 * percentile(delays, 0.95):.0f} ms, "
        f"max {1000 * max(delays, default=float('nan')):.0f} ms (target p95 < 200 ms)"
        + (f"; {missed} not fresh within {args.timeout:.0f} s" if missed else "")
    )


if __name__ == "__main__":
    main()
