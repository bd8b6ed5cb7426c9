"""``manage.py import_history``: a club's evenings and their games from one file."""

from __future__ import annotations

import datetime
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from clubs.models import Club, GameKind, Season
from engine.generate import NAMES, random_game
from games.models import Game
from ledger.models import ProjectionState
from ledger.selectors import standing_list
from tests.factories import PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def history_file(tmp_path: Path, season_id: int, games: list[int]) -> Path:
    seated = [name.title() for name in NAMES[:5]]
    opened = Season.objects.get(pk=season_id).start  # the evenings lie within the season
    evenings = [
        {
            "season": season_id,
            "date": (opened + datetime.timedelta(days=i)).isoformat(),
            "players": seated,
            "games": [random_game(seed, "fuchsen", 5) for seed in range(start, start + count)],
        }
        for i, (start, count) in enumerate(zip([0, 100], games, strict=True))
    ]
    path = tmp_path / "history.json"
    path.write_text(json.dumps({"evenings": evenings}), encoding="utf-8")
    return path


def test_a_club_history_is_imported_evening_by_evening_and_projected(
    club: Club, tmp_path: Path, django_capture_on_commit_callbacks: Capture
) -> None:
    for name in NAMES[:5]:
        PlayerFactory.create(club=club, display_name=name.title())
    season = SeasonFactory.create(club=club, game_kind=GameKind.FUCHSEN)
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command(
            "import_history", club.slug, str(history_file(tmp_path, season.pk, [3, 4])), stdout=out
        )
    assert "imported 7 of 7 games in 2 evenings" in out.getvalue()
    assert "7/7 games" in out.getvalue()  # the progress bar's last state
    finished = Game.objects.filter(evening__season=season, status=Game.Status.FINISHED).count()
    state = ProjectionState.objects.get(season=season)
    assert not state.is_behind and state.games == finished
    assert sum(row.games for row in standing_list(season=season)) > 0


def test_an_unknown_player_stops_the_import_before_anything_is_written(
    club: Club, tmp_path: Path
) -> None:
    season = SeasonFactory.create(club=club, game_kind=GameKind.FUCHSEN)
    with pytest.raises(CommandError, match="no player called"):
        call_command("import_history", club.slug, str(history_file(tmp_path, season.pk, [1, 1])))
    assert not Game.objects.filter(evening__season=season).exists()


def test_an_import_asks_for_the_projections_once_not_once_per_game(
    club: Club, django_capture_on_commit_callbacks: Capture
) -> None:
    from games import services as game_services

    players = [PlayerFactory.create(club=club, display_name=name.title()) for name in NAMES[:5]]
    season = SeasonFactory.create(club=club, game_kind=GameKind.FUCHSEN)
    evening = game_services.evening_create(
        club=club, user=None, season=season, players=[p.pk for p in players]
    )
    records = [random_game(seed, "fuchsen", 5) for seed in range(4)]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        outcomes = game_services.games_import(evening=evening, user=None, records=records)
    assert all(outcome.imported for outcome in outcomes)
    # One projection request for the four games (the live push sends one per game:
    # a viewer's page reads the evening once per message, which is cheap).
    requests = [c for c in callbacks if "projection_request" in c.__qualname__]
    assert len(requests) == 1
    for callback in callbacks:
        callback()
    state = ProjectionState.objects.get(season=season)
    assert not state.is_behind
    assert state.games == Game.objects.filter(evening=evening, status=Game.Status.FINISHED).count()


def test_each_imported_record_is_judged_by_the_engine_once(
    club: Club, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engine

    for name in NAMES[:5]:
        PlayerFactory.create(club=club, display_name=name.title())
    season = SeasonFactory.create(club=club, game_kind=GameKind.FUCHSEN)
    replayed: list[Any] = []
    real_replay = engine.replay

    def counted(record: Any) -> Any:
        replayed.append(record)
        return real_replay(record)

    monkeypatch.setattr(engine, "replay", counted)
    call_command(
        "import_history",
        club.slug,
        str(history_file(tmp_path, season.pk, [3, 2])),
        stdout=io.StringIO(),
    )
    assert Game.objects.filter(evening__season=season).count() == 5
    assert len(replayed) == 5
    # The one replay judged the record as stored: its names are the players' ids.
    stored = {
        str(p) for g in Game.objects.filter(evening__season=season) for p in g.result["payouts"]
    }
    assert all(name.isdigit() for name in stored)
