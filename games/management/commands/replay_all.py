"""``manage.py replay_all``: replay every stored game and compare with its cached result.

The engine is the judge, and a game's status and result are only a cache of
the replay of its events. After an engine change (or to audit the store) this
replays every game under its own stored house rules and reports each game
whose fresh result differs from the stored one. Exit status 1 if any does.
It changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Prefetch

import engine
from games import selectors
from games.models import Game, GameEvent


class Command(BaseCommand):
    help = "Replay every stored game and report those whose result differs from the stored one."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", help="only the games of the club with this slug")
        parser.add_argument(
            "--batch-size", type=int, default=500, help="games loaded per query (default 500)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.order_by("id").prefetch_related(
            Prefetch("events", queryset=GameEvent.objects.order_by("seq"))
        )
        if options["club"]:
            games = games.filter(evening__club__slug=options["club"])
        checked = 0
        differing = 0
        for game in games.iterator(chunk_size=options["batch_size"]):
            checked += 1
            events = list(game.events.all())
            record = selectors.game_record(game=game, events=events)
            fresh = engine.replay(record).to_dict()
            seqs = [event.seq for event in events]
            label = f"game {game.pk} (evening {game.evening_id}, #{game.number})"
            if seqs != list(range(1, len(seqs) + 1)) or game.last_seq != len(seqs):
                differing += 1
                self.stdout.write(
                    f"{label}: its events are numbered {seqs[:3]}… ({len(seqs)} events) "
                    f"but last_seq is {game.last_seq}"
                )
            elif fresh != game.result or fresh.get("status") != game.status:
                differing += 1
                self.stdout.write(
                    f"{label} differs:\n"
                    f"  stored: {json.dumps(game.result, sort_keys=True)}\n"
                    f"  replay: {json.dumps(fresh, sort_keys=True)}"
                )
        summary = f"{checked} games replayed, {differing} differ."
        if differing:
            raise CommandError(summary, returncode=1)
        self.stdout.write(self.style.SUCCESS(summary))
