"""``manage.py rebuild_projections``: rebuild every projection from the games' stored results.

For each season that has games (or projections): first the ledger is checked
against the games' results in one aggregate query per season and any game
whose entries disagree is re-synced (normally none); then the season's
standings, evening tables, ratings and chart series are recomputed from the
finished games' results alone and replace what is stored (the per-game rows
included); the tests hold the per-game task's results equal to them. Last, the
all-time tables are summed again from the season tables and the all-time ratings
folded again over every game (not with ``--season``: then each season's rebuild
folds the all-time rating from its first game on).

The statistics' facts of each game (``engine.game_facts``) are read from their
cache, ``GameFacts``, at the game's last seq, and replayed from the events where
it has none; ``--refresh-facts`` drops the cache first, so every game is replayed
(after an engine change that counts the facts differently).

Then the games' analyses: ``manage.py rebuild_analyses`` for the same seasons
analyses each finished game whose analysis is missing or out of date
(``--refresh-analyses``: every one; ``--skip-analyses``: none).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from games.models import Evening
from ledger import services
from ledger.models import GameFacts, ProjectionState


class Command(BaseCommand):
    help = "Rebuild standings, ratings and chart series of every season from the games' results."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--season", type=int, action="append", dest="seasons", help="only this season (repeat)"
        )
        parser.add_argument(
            "--skip-ledger-check",
            action="store_true",
            help="do not compare the ledger with the games' results first",
        )
        parser.add_argument(
            "--refresh-facts",
            action="store_true",
            help="replay every game's events for the statistics' facts, not their cache",
        )
        parser.add_argument(
            "--skip-analyses", action="store_true", help="leave the games' analyses as they are"
        )
        parser.add_argument(
            "--refresh-analyses",
            action="store_true",
            help="analyse every finished game again, not only those missing or out of date",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        if options["seasons"]:
            season_ids = sorted(set(options["seasons"]))
        else:
            with_games = Evening.objects.filter(games__isnull=False).values_list(
                "season_id", flat=True
            )
            with_state = ProjectionState.objects.values_list("season_id", flat=True)
            season_ids = sorted(set(with_games) | set(with_state))
        if options["refresh_facts"]:
            facts = GameFacts.objects.all()
            if options["seasons"]:
                facts = facts.filter(evening__season_id__in=season_ids)
            facts.delete()
        games = repaired = 0
        for season_id in season_ids:
            season_started = time.perf_counter()
            if not options["skip_ledger_check"]:
                repaired += services.ledger_repair_season(season_id=season_id)
            checked = time.perf_counter()
            # The all-time ratings are folded once at the end (with every season), not
            # after each season from its first game on.
            state = services.season_projections_recompute(
                season_id=season_id, force=True, all_time=bool(options["seasons"])
            )
            games += state.games
            self.stdout.write(
                f"season {season_id}: {state.games} finished games, "
                f"ledger checked in {checked - season_started:.2f} s, "
                f"projected in {time.perf_counter() - checked:.2f} s"
            )
        if not options["seasons"]:
            lines = services.all_time_rebuild()
            self.stdout.write(f"all-time tables: {lines} lines summed from the season tables")
        if not options["skip_analyses"]:
            call_command(
                "rebuild_analyses",
                seasons=options["seasons"],
                refresh=options["refresh_analyses"],
                stdout=self.stdout,
            )
        self.stdout.write(
            self.style.SUCCESS(
                f"rebuilt {len(season_ids)} seasons, {games} finished games, "
                f"{repaired} games re-synced into the ledger, "
                f"{time.perf_counter() - started:.2f} s"
            )
        )
