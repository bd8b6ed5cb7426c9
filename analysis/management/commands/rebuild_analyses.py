"""``manage.py rebuild_analyses``: analyse every finished game whose analysis is missing or
not at its last seq (``--refresh``: every finished game, after an engine change), here,
one after the other. ``rebuild_projections`` calls it for the seasons it rebuilds."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from analysis import selectors, services


class Command(BaseCommand):
    help = "Analyse the finished games whose stored analysis is missing or out of date."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--season", type=int, action="append", dest="seasons", help="only this season (repeat)"
        )
        parser.add_argument(
            "--refresh", action="store_true", help="analyse every finished game again"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        game_ids = selectors.games_behind(
            season_ids=options["seasons"] or None, force=options["refresh"]
        )
        done = services.analyses_rebuild(game_ids=game_ids, force=options["refresh"])
        self.stdout.write(
            f"analyses: {done} of {len(game_ids)} games analysed in "
            f"{time.perf_counter() - started:.2f} s"
        )
