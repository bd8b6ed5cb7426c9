"""Where an append's CPU goes: the recording API in process, under cProfile.

Run: ``.venv/bin/python bench/append_profile.py [--games 40] [--top 40] [--sort tottime]``
(PostgreSQL on 127.0.0.1:5432 as for ``api_load.py``; a ``redis-server`` binary is used
as the broker if present, so that the projection requests are queued, not run).

It creates a throwaway database, seeds one club (``api_load.seed``), records
``--games`` generated complete games through Django's test client exactly as the
recording page sends them (``"answer": "new"`` and an ``Idempotency-Key`` per
append), and prints this process's CPU per append and per bare insert
(``/bench/insert/``, the same token, middleware and JSON parsing; PostgreSQL's own
CPU is not counted) and per lock alone (``games.selectors.game_for_append``, ``--locks``
times in one transaction), then cProfile's table of the appends alone and the share of
the append's CPU spent in each layer (authentication, parsing, the lock, the engine…).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import secrets
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.api_load import seed, throwaway_database, throwaway_redis  # noqa: E402

# The layers an append passes through, by the functions that own them (cumulative time
# of the first frame of each; a layer called inside another one is counted in both).
LAYERS = {
    "the whole request (Django's handler)": "django/core/handlers/base.py:_get_response",
    "middleware around the view": "django/core/handlers/base.py:get_response",
    "DRF: authentication (token lookup)": "rest_framework/request.py:_authenticate",
    "DRF: parsing the body": "rest_framework/request.py:_parse",
    "the input serializer": "rest_framework/serializers.py:is_valid",
    "the API's edge (answer, key)": "games/apis/idempotency.py:answered_once",
    "the service (transaction)": "games/services/append.py:game_events_append",
    "the lock with role and names": "games/selectors/append.py:game_for_append",
    "the stored events read": "games/selectors/games.py:game_event_rows",
    "the check (engine: table view)": "games/services/append.py:game_append_check",
    "engine.table_view": "engine/__init__.py:table_view",
    "the listeners (ledger: finishing appends)": "games/listeners.py:game_changed",
    "bulk_create of the events": "django/db/models/query.py:bulk_create",
    "the game's update": "games/services/recording.py:_game_update",
    "the answer (presenter)": "games/presenters.py:game_data",
    "the key's answer stored": "django/db/models/query.py:create",
    "on_commit pushes": "django/db/backends/base/base.py:run_and_clear_commit_hooks",
    "rendering the JSON answer": "rest_framework/response.py:rendered_content",
    "SQL: executing (all statements)": "django/db/backends/utils.py:_execute",
    "SQL: compiling (all statements)": "django/db/models/sql/compiler.py:as_sql",
}


def _layer_times(stats: pstats.Stats) -> dict[str, float]:
    found: dict[str, float] = {}
    for (filename, _line, name), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        for label, where in LAYERS.items():
            path, func = where.split(":")
            if filename.endswith(path) and name == func:
                found[label] = found.get(label, 0.0) + ct
    return found


def _lock_cpu(times: int) -> float:
    """CPU seconds of one append's lock (``games.selectors.game_for_append``, as the API
    calls it: a scorer, members only), taken ``times`` times in one transaction on
    the last game recorded."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from games import selectors
    from games.models import Game

    user = get_user_model().objects.get(username="scorer0")
    game_id = Game.objects.order_by("-pk").values_list("pk", flat=True)[0]
    with transaction.atomic():
        for _ in range(50):  # warm
            selectors.game_for_append(game_id=game_id, user=user, members_only=True)
        started = time.process_time()
        for _ in range(times):
            selectors.game_for_append(game_id=game_id, user=user, members_only=True)
        return (time.process_time() - started) / times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="complete games to record")
    parser.add_argument("--top", type=int, default=40, help="rows of cProfile's table")
    parser.add_argument("--sort", default="tottime", help="cProfile's sort key")
    parser.add_argument("--inserts", type=int, default=600, help="bare inserts for the floor")
    parser.add_argument("--locks", type=int, default=1000, help="locks for the lock's CPU")
    parser.add_argument("--no-profile", action="store_true", help="CPU figures only")
    args = parser.parse_args()

    with throwaway_database("stichbuch_profile") as database_url, throwaway_redis() as broker:
        os.environ.update(
            {
                "DATABASE_URL": database_url,
                "DJANGO_SETTINGS_MODULE": "bench.baseline_settings",
                "DEBUG": "0",
                "SECRET_KEY": secrets.token_urlsafe(50),
                "ALLOWED_HOSTS": "testserver,127.0.0.1",
                "SECURE_SSL_REDIRECT": "0",
                "LOG_LEVEL": "WARNING",
                "CELERY_BROKER_URL": broker or "",
            }
        )
        os.environ.pop("PYTEST_VERSION", None)
        import django

        django.setup()
        from django.core.management import call_command
        from django.test import Client

        from engine.generate import random_game
        from games.services import _renamed_record

        call_command("migrate", verbosity=0)
        seeded = seed(2)
        import stichbuch.wsgi  # noqa: F401 - warms up and freezes as a worker does

        client = Client(HTTP_AUTHORIZATION=f"Token {seeded.tokens[0]}")
        evening = seeded.evenings[0]
        records = [
            _renamed_record(random_game(7000 + n, "fuchsen", 5), seeded.names)
            for n in range(args.games + 2)
        ]

        def post(path: str, body: Any, key: str | None = None) -> Any:
            headers = {"Idempotency-Key": key} if key is not None else None
            response = client.post(
                path, json.dumps(body), content_type="application/json", headers=headers
            )
            if response.status_code not in (200, 201):
                raise SystemExit(f"{path}: {response.status_code} {response.content[:300]!r}")
            return response.json()

        def appends(record: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
            deal = {k: v for k, v in record["events"][0].items() if k != "type"}
            game = post(f"/api/evenings/{evening}/games/", {"deal": deal})
            path = f"/api/games/{game['id']}/events/"
            return [
                (
                    path,
                    {"expected_seq": seq, "events": [event], "answer": "new"},
                    secrets.token_hex(8),
                )
                for seq, event in enumerate(record["events"][1:], start=1)
            ]

        def record_all(
            games: list[dict[str, Any]], profile: cProfile.Profile | None
        ) -> tuple[int, float]:
            count, spent = 0, 0.0
            for record in games:
                requests = appends(record)  # the game's start is not counted
                started = time.process_time()
                if profile is not None:
                    profile.enable()
                for path, body, key in requests:
                    post(path, body, key)
                if profile is not None:
                    profile.disable()
                spent += time.process_time() - started
                count += len(requests)
            return count, spent

        # Warm: the first requests pay imports and the first statements' costs.
        record_all(records[:2], None)
        for n in range(50):
            post("/bench/insert/", {"expected_seq": n, "events": [{"type": "play"}]})
        started = time.process_time()
        for n in range(args.inserts):
            post("/bench/insert/", {"expected_seq": n, "events": [{"type": "play", "card": "EO"}]})
        insert_cpu = (time.process_time() - started) / args.inserts
        count, spent = record_all(records[2:], None)
        append_cpu = spent / count
        print(
            f"in process (Django's test client, PostgreSQL's CPU not counted): "
            f"bare insert {1000 * insert_cpu:.2f} ms, append {1000 * append_cpu:.2f} ms "
            f"({append_cpu / insert_cpu:.2f}x), {count} appends of {args.games} games"
        )
        print(f"the lock alone: {1000 * _lock_cpu(args.locks):.2f} ms ({args.locks} locks)")
        if args.no_profile:
            return
        profile = cProfile.Profile()
        count, spent = record_all(records[2:], profile)
        stats = pstats.Stats(profile, stream=io.StringIO())
        total = sum(tt for (_cc, _nc, tt, _ct, _c) in stats.stats.values())  # type: ignore[attr-defined]
        print(f"\nunder cProfile: {1000 * total / count:.2f} ms per append; by layer (cumulative):")
        for label, seconds in _layer_times(stats).items():
            print(f"  {label:40s} {1000 * seconds / count:6.2f} ms  {100 * seconds / total:5.1f} %")
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats(args.sort).print_stats(args.top)
        print(out.getvalue())


if __name__ == "__main__":
    main()
