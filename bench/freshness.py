"""How fresh are the standings? The time from a game's finishing append to the updated table.

Run: ``.venv/bin/python bench/freshness.py`` (needs PostgreSQL on 127.0.0.1:5432 with
trust auth for ``postgres`` and a ``redis-server`` binary).

It creates a throwaway PostgreSQL database and migrates it, starts its own
``redis-server`` on a free port and a real Celery worker (``celery -A stichbuch
worker``) on it, seeds a club whose season already holds ``--history`` finished
games (imported), then records ``--games`` complete legal games through the
recording service. For each game it takes the time at which the finishing
append has committed, and polls the season's ``ProjectionState`` until the
worker has stored projections that include that game. It prints p50/p95/max of
that delay (target p95 < 1 s). Everything is stopped and dropped at the end.
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.api_load import percentile, throwaway_database, throwaway_redis  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games measured")
    parser.add_argument("--history", type=int, default=200, help="finished games before")
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
            measure(args)
        finally:
            worker.terminate()
            worker.wait(timeout=60)
            connections.close_all()


def measure(args: argparse.Namespace) -> None:
    from clubs.models import Club, GameKind, Player, Season
    from engine.generate import NAMES, random_game
    from games import services
    from games.services import _renamed_record
    from ledger.models import ProjectionState

    club = Club.objects.create(name="Frische", slug="frische")
    season = Season.objects.create(
        club=club, name="Bench", game_kind=GameKind.FUCHSEN, start="2026-01-01"
    )
    players = {name: Player.objects.create(club=club, display_name=name.title()) for name in NAMES}
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

    # The season's past: imported in batches (each batch asks for one projection).
    started = time.perf_counter()
    for first in range(0, args.history, 100):
        batch = [
            random_game(10_000 + i, "fuchsen", 5)
            for i in range(first, min(first + 100, args.history))
        ]
        services.games_import(evening=evening, user=None, records=batch)
    if args.history:
        wait_until_fresh(state().version, 300)
    print(
        f"history: {state().games} finished games in the season "
        f"({time.perf_counter() - started:.1f} s to import and project)"
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
        f"max {1000 * max(delays, default=float('nan')):.0f} ms (target p95 < 1000 ms)"
        + (f"; {missed} not fresh within {args.timeout:.0f} s" if missed else "")
    )


if __name__ == "__main__":
    main()
