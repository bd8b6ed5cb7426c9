"""``manage.py rebuild_analyses``: analyse every finished game whose analysis is missing or
not at its last seq (``--refresh``: every finished game, after an engine change).

With a broker the games are enqueued for the analysis workers (queue ``analysis``);
without one they are analysed here, one after the other. ``rebuild_projections``
calls it for the seasons it rebuilds."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from analysis import selectors, services
from analysis.tasks import analyse_game
from ledger.tasks import send_quietly


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
        if not analyse_game.app.conf.task_always_eager:
            # A broker: the analysis workers do the work (seconds a game), not this command.
            sent = sum(
                send_quietly(analyse_game, game_id, options["refresh"]) for game_id in game_ids
            )
            self.stdout.write(f"analyses: {sent} of {len(game_ids)} games enqueued")
            return
        done = services.analyses_rebuild(game_ids=game_ids, force=options["refresh"])
        self.stdout.write(
            f"analyses: {done} of {len(game_ids)} games analysed in "
            f"{time.perf_counter() - started:.2f} s"
        )
