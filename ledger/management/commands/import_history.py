"""``manage.py import_history CLUB FILE``: import a club's kept score from a JSON file.

The file holds the club's evenings, oldest first::

    {"evenings": [{"season": 3, "date": "2019-05-02",
                   "players": ["Anna", "Bert", "Carl", "Dora"],
                   "games": [<record>, <record>, ...]}, ...]}

``season`` is the id of an open season of the club; ``players`` are display names
of the club's players, seated clockwise; each game is a record as the evening
import takes it (a record, or an exported entry with its legend). Every evening is
opened and its records imported through ``games.services.games_import`` (the
engine judges each record; a refused record is reported by its place and the rest
go on), with a progress bar. The projections take the games in as they commit:
with a worker, one projection run applies all the changes it finds waiting
(``ledger.services.season_projections_recompute``), not one run per game.
"""

from __future__ import annotations

import datetime
import json
import sys
import time
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club, Player, Season
from games import services as game_services
from games.models import Evening
from games.services import MAX_IMPORT_RECORDS


class Command(BaseCommand):
    help = "Import a club's history (evenings with their games) from a JSON file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", help="the club's slug")
        parser.add_argument("file", type=Path, help="the JSON file")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"no club {options['club']!r}")
        try:
            data = json.loads(Path(options["file"]).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot read {options['file']}: {error}") from None
        evenings = data.get("evenings") if isinstance(data, dict) else None
        if not isinstance(evenings, list):
            raise CommandError('the file must hold {"evenings": [...]}')
        players = {p.display_name.casefold(): p.pk for p in Player.objects.filter(club=club)}
        total = sum(len(e.get("games") or []) for e in evenings if isinstance(e, dict))
        done = imported = 0
        refused: list[str] = []
        started = time.perf_counter()
        for number, entry in enumerate(evenings, start=1):
            evening = self._open(club, players, entry, number)
            games = list(entry.get("games") or [])
            for first in range(0, len(games), MAX_IMPORT_RECORDS):
                outcomes = game_services.games_import(
                    evening=evening, user=None, records=games[first : first + MAX_IMPORT_RECORDS]
                )
                for outcome in outcomes:
                    if outcome.imported:
                        imported += 1
                    else:
                        refused.append(
                            f"evening {number}, game {first + outcome.index + 1}: {outcome.detail}"
                        )
                done += len(outcomes)
                self._progress(done, total, started)
        self.stdout.write("")
        for line in refused:
            self.stderr.write(line)
        took = time.perf_counter() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"imported {imported} of {total} games in {len(evenings)} evenings, "
                f"{took:.1f} s ({imported / took if took else 0:.0f} games/s); "
                f"{len(refused)} refused"
            )
        )

    def _open(self, club: Club, players: dict[str, int], entry: Any, number: int) -> Evening:
        if not isinstance(entry, dict):
            raise CommandError(f"evening {number}: not an object")
        season_id = entry.get("season")
        season = (
            Season.objects.filter(club=club, pk=season_id).first()
            if isinstance(season_id, int)
            else None
        )
        if season is None:
            raise CommandError(f"evening {number}: no season {entry.get('season')!r} in the club")
        names = entry.get("players") or []
        missing = [n for n in names if str(n).casefold() not in players]
        if missing:
            raise CommandError(f"evening {number}: no player called {', '.join(map(str, missing))}")
        try:
            return game_services.evening_create(
                club=club,
                user=None,
                season=season,
                players=[players[str(n).casefold()] for n in names],
                date=_date(entry.get("date")),
            )
        except ValidationError as error:
            raise CommandError(f"evening {number}: {'; '.join(error.messages)}") from None

    def _progress(self, done: int, total: int, started: float) -> None:
        width = 30
        filled = width * done // total if total else width
        rate = done / (time.perf_counter() - started or 1)
        line = f"\r[{'#' * filled}{' ' * (width - filled)}] {done}/{total} games, {rate:.0f}/s"
        self.stdout.write(line, ending="")
        if sys.stdout.isatty():
            self.stdout.flush()


def _date(value: Any) -> datetime.date | None:
    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        raise CommandError(f"not a date: {value!r}") from None
