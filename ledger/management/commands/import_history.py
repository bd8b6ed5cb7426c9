"""``manage.py import_history CLUB FILE``: import a club's kept score from a JSON file.

The file holds the club's evenings, oldest first::

    {"evenings": [{"season": 3, "date": "2019-05-02",
                   "players": ["Anna", "Bert", "Carl", "Dora"],
                   "games": [<record>, <record>, ...]}, ...]}

``season`` is the id of an open season of the club; ``players`` are display names
of the club's players, seated clockwise; ``date`` lies within the season; each
game is a record as the evening import takes it (a record, or an exported entry
with its legend). The file imports whole or not at all: its shape is checked
first (every problem named by its evening, none a traceback), then every evening
is opened, its records imported through ``games.services.games_import`` (the
engine judges each record) and the evening closed, as its games are all in, in
one transaction; a refused record rolls the whole file back and is reported by
its evening and place, with the others, so that the file can be fixed and run
again without duplicating anything. The projections take the games in once the
file commits: with a worker, one projection run applies all the changes it finds
waiting (``ledger.services.season_projections_recompute``).
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
from django.db import transaction

from clubs.models import Club, Player, Season
from games import services as game_services
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
        evenings = _evenings(_read(options["file"]))
        players = {p.display_name.casefold(): p.pk for p in Player.objects.filter(club=club)}
        seasons = {s.pk: s for s in Season.objects.filter(club=club)}
        problems = [
            problem
            for number, entry in enumerate(evenings, start=1)
            for problem in _problems(entry, number, players, seasons)
        ]
        if problems:
            raise CommandError(_nothing_imported(problems))
        total = sum(len(entry["games"]) for entry in evenings)
        started = time.perf_counter()
        refused: list[str] = []
        try:
            with transaction.atomic():
                imported = self._import(club, players, evenings, total, refused, started)
                if refused:
                    raise _RolledBack
        except _RolledBack:
            self.stdout.write("")
            raise CommandError(_nothing_imported(refused)) from None
        self.stdout.write("")
        took = time.perf_counter() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"imported {imported} of {total} games in {len(evenings)} evenings, "
                f"{took:.1f} s ({imported / took if took else 0:.0f} games/s); "
                "the evenings are closed"
            )
        )

    def _import(
        self,
        club: Club,
        players: dict[str, int],
        evenings: list[dict[str, Any]],
        total: int,
        refused: list[str],
        started: float,
    ) -> int:
        """Open, fill and close each evening; the refused records go into ``refused``."""
        done = imported = 0
        for number, entry in enumerate(evenings, start=1):
            try:
                evening = game_services.evening_create(
                    club=club,
                    user=None,
                    season=Season.objects.get(pk=entry["season"]),
                    players=[players[name.casefold()] for name in entry["players"]],
                    date=_date(entry.get("date")),
                )
            except ValidationError as error:
                refused.append(f"evening {number}: {'; '.join(error.messages)}")
                continue
            games = entry["games"]
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
            # Kept score: its games are all in, nothing more is recorded in it.
            game_services.evening_close(evening=evening)
        return imported

    def _progress(self, done: int, total: int, started: float) -> None:
        width = 30
        filled = width * done // total if total else width
        rate = done / (time.perf_counter() - started or 1)
        line = f"\r[{'#' * filled}{' ' * (width - filled)}] {done}/{total} games, {rate:.0f}/s"
        self.stdout.write(line, ending="")
        if sys.stdout.isatty():
            self.stdout.flush()


class _RolledBack(Exception):
    """A record was refused: the file's transaction is undone."""


def _nothing_imported(problems: list[str]) -> str:
    return (
        f"nothing imported: {len(problems)} problem(s) in the file; fix them and run it "
        "again (it imports whole or not at all):\n" + "\n".join(f"  {p}" for p in problems)
    )


def _read(path: Path) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except RecursionError:
        raise CommandError(f"cannot read {path}: its JSON is nested too deep") from None
    except (OSError, ValueError) as error:
        raise CommandError(f"cannot read {path}: {error}") from None


def _evenings(data: Any) -> list[dict[str, Any]]:
    evenings = data.get("evenings") if isinstance(data, dict) else None
    if not isinstance(evenings, list):
        raise CommandError('the file must hold {"evenings": [...]}')
    if not evenings:
        raise CommandError("the file holds no evening")
    for number, entry in enumerate(evenings, start=1):
        if not isinstance(entry, dict):
            raise CommandError(f"evening {number}: not an object, but {_kind(entry)}")
    return evenings


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a text", bool: "true/false"}.get(
        type(value), "a number" if isinstance(value, int | float) else "null"
    )


def _problems(
    entry: dict[str, Any], number: int, players: dict[str, int], seasons: dict[int, Season]
) -> list[str]:
    """What keeps evening ``number`` of the file from importing, before anything is written."""
    where = f"evening {number}"
    found: list[str] = []
    season_id = entry.get("season")
    season = seasons.get(season_id) if type(season_id) is int else None
    if season is None:
        found.append(f"{where}: no season {season_id!r} in the club")
    names = entry.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        found.append(f'{where}: "players" must be a list of names, not {_kind(names)}')
    else:
        missing = [n for n in names if n.casefold() not in players]
        if missing:
            found.append(f"{where}: no player called {', '.join(missing)}")
    if not isinstance(entry.get("games"), list):
        found.append(f'{where}: "games" must be a list of records, not {_kind(entry.get("games"))}')
    # Whether the date lies within the season is the evening's rule (evening_create).
    try:
        _date(entry.get("date"))
    except CommandError as error:
        found.append(f"{where}: {error}")
    return found


def _date(value: Any) -> datetime.date | None:
    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        raise CommandError(f"not a date: {value!r}") from None
