"""An evening's analyses on the worker: the time from the last card to every analysis stored.

Run: ``.venv/bin/python bench/analysis_evening.py`` (needs PostgreSQL on 127.0.0.1:5432
with trust auth for ``postgres`` and a ``redis-server`` binary).

It creates a throwaway PostgreSQL database, starts its own ``redis-server`` and a
real Celery worker (``celery -A stichbuch worker -Q analysis,celery``, ``--concurrency``
processes), and
records ``--games`` played-out Fuchsen deals (seeded random legal games with every
card, ``engine.generate``, kept only when played to the sixth trick) through the
recording service, one after the other as fast as the service takes them (the
worst case of an evening, every analysis queued at once), or ``--spacing`` seconds
apart (an evening as it is played, a deal every few minutes). Each game's finishing
append enqueues its analysis (``analysis.tasks.analyse_game``) on commit. It prints
the time from the last game's finishing commit to all analyses stored (target
<= 1 min), the time from the first finishing commit, and the engine's time per
deal as the worker stored it (``GameAnalysis.duration_ms``: median, p95, max, and
the slowest deal's seed). Everything is stopped and dropped at the end.
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
    parser.add_argument("--games", type=int, default=40, help="played-out deals recorded")
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=1, help="first seed of the deals")
    parser.add_argument("--timeout", type=float, default=600, help="seconds to wait in all")
    parser.add_argument(
        "--spacing",
        type=float,
        default=0,
        help="seconds between one game's last card and the next game (0: the worst case)",
    )
    args = parser.parse_args()

    with throwaway_database("stichbuch_analysis") as database_url, throwaway_redis() as broker:
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
                *("-A", "stichbuch", "worker", "--loglevel", "WARNING", "-Q", "analysis,celery"),
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


def played_out(first_seed: int, count: int) -> list[tuple[int, dict[str, Any]]]:
    """``count`` seeded Fuchsen records played to the sixth trick, with their seeds."""
    import engine
    from engine.generate import random_game

    found: list[tuple[int, dict[str, Any]]] = []
    seed = first_seed
    while len(found) < count:
        record = random_game(seed, "fuchsen", 5)
        result = engine.replay(record)
        if result.status == "finished" and result.reason == "played_out":
            found.append((seed, record))
        seed += 1
    return found


def measure(args: argparse.Namespace) -> None:
    from analysis.models import GameAnalysis
    from clubs.models import Club, GameKind, Player, Season
    from engine.generate import NAMES
    from games import services
    from games.services import _renamed_record

    club = Club.objects.create(name="Bench", slug=f"bench-{os.getpid()}")
    players = {name: Player.objects.create(club=club, display_name=name) for name in NAMES[:5]}
    season = Season.objects.create(
        club=club, name="Bench", game_kind=GameKind.FUCHSEN, start="2026-01-01"
    )
    evening = services.evening_create(
        club=club,
        user=None,
        season=season,
        players=[players[name].pk for name in NAMES[:5]],
        game_kind=GameKind.FUCHSEN,
    )
    names = {name: str(p.pk) for name, p in players.items()}
    deals = played_out(args.seed, args.games)
    game_seed: dict[int, int] = {}
    first_commit = last_commit = 0.0
    for n, (seed, raw) in enumerate(deals):
        record = _renamed_record(raw, names)
        deal = {k: v for k, v in record["events"][0].items() if k != "type"}
        game = services.game_start(evening=evening, user=None, deal=deal)
        events = record["events"][1:]
        game = services.game_events_append(
            game=game, user=None, expected_seq=1, events=events[:-1]
        ).game
        # The last card: its append commits, and on commit enqueues the analysis.
        services.game_events_append(
            game=game, user=None, expected_seq=game.last_seq, events=events[-1:]
        )
        last_commit = time.perf_counter()
        if n == 0:
            first_commit = last_commit
        game_seed[game.pk] = seed
        if args.spacing and n < len(deals) - 1:
            time.sleep(args.spacing)
    done = GameAnalysis.objects.filter(game_id__in=game_seed).exclude(
        status=GameAnalysis.Status.PENDING
    )
    while done.count() < len(game_seed):
        if time.perf_counter() - last_commit > args.timeout:
            break
        time.sleep(0.05)
    stored = time.perf_counter()
    rows = list(done.values_list("game_id", "status", "duration_ms"))
    durations = sorted((ms or 0) / 1000 for _, _, ms in rows)
    statuses: dict[str, int] = {}
    for _, status, _ in rows:
        statuses[status] = statuses.get(status, 0) + 1
    slowest = max(rows, key=lambda row: row[2] or 0, default=None)
    print(
        f"{len(rows)} of {len(game_seed)} played-out Fuchsen deals analysed by the worker "
        f"({args.concurrency} processes, {args.spacing:g} s between games): {statuses}",
        flush=True,
    )
    print(
        f"last card -> all analyses stored: {stored - last_commit:.1f} s (target <= 60 s); "
        f"first last card -> all stored: {stored - first_commit:.1f} s "
        f"(the {len(game_seed)} deals recorded in {last_commit - first_commit:.1f} s)"
    )
    if durations:
        print(
            f"engine per deal on the worker: median {percentile(durations, 0.5):.2f} s, "
            f"p95 {percentile(durations, 0.95):.2f} s, max {durations[-1]:.2f} s"
            + (f" (seed {game_seed[slowest[0]]})" if slowest else "")
        )


if __name__ == "__main__":
    main()
