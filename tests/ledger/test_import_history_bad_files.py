"""``manage.py import_history`` and bad files (issue 38, point 9): a file imports whole or
not at all, every bad record is named, no shape gives a traceback, the dates lie
within the season (the API's too), and the imported evenings are closed."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from clubs.models import Club, GameKind, Season
from engine.generate import NAMES, random_game
from games.models import Evening, Game
from tests.conftest import PersonaClient
from tests.factories import PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db

SEATED = [name.title() for name in NAMES[:5]]


@pytest.fixture
def season(club: Club) -> Season:
    for name in SEATED:
        PlayerFactory.create(club=club, display_name=name)
    return SeasonFactory.create(club=club, game_kind=GameKind.FUCHSEN)


def _evening(of: Season, day: int, seeds: range, **changes: Any) -> dict[str, Any]:
    return {
        "season": of.pk,
        "date": (of.start + datetime.timedelta(days=day)).isoformat(),
        "players": SEATED,
        "games": [random_game(seed, "fuchsen", 5) for seed in seeds],
        **changes,
    }


def _run(tmp_path: Path, club: Club, content: str) -> str:
    path = tmp_path / "history.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("import_history", club.slug, str(path), stdout=open(tmp_path / "out", "w"))  # noqa: SIM115
    return str(refused.value)


def _file(*evenings: dict[str, Any]) -> str:
    return json.dumps({"evenings": list(evenings)})


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"games": 5}, '"games" must be a list of records, not a number'),
        ({"players": 7}, '"players" must be a list of names, not a number'),
        ({"players": [1, 2]}, '"players" must be a list of names'),
        ({"season": "drei"}, "no season 'drei' in the club"),
        ({"date": "gestern"}, "not a date: 'gestern'"),
    ],
)
def test_a_bad_shape_is_named_by_its_evening_and_nothing_is_written(
    club: Club, season: Season, tmp_path: Path, change: dict[str, Any], said: str
) -> None:
    message = _run(
        tmp_path,
        club,
        _file(_evening(season, 0, range(2)), _evening(season, 1, range(2), **change)),
    )
    assert "evening 2" in message and said in message
    assert not Evening.objects.filter(club=club).exists()


def test_json_nested_100000_deep_is_refused_without_a_traceback(club: Club, tmp_path: Path) -> None:
    deep = '{"evenings": ' + "[" * 100_000 + "]" * 100_000 + "}"
    assert "nested too deep" in _run(tmp_path, club, deep)


def test_a_file_failing_at_its_second_evening_imports_nothing_and_a_fixed_rerun_imports_once(
    club: Club, season: Season, tmp_path: Path
) -> None:
    broken = random_game(7, "fuchsen", 5)
    broken["events"][3] = {**broken["events"][3], "card": "XX"}
    first, second = _evening(season, 0, range(3)), _evening(season, 1, range(10, 12))
    second["games"].append(broken)
    message = _run(tmp_path, club, _file(first, second))
    assert "nothing imported" in message and "evening 2, game 3" in message
    assert not Evening.objects.filter(club=club).exists()
    assert not Game.objects.exists()

    second["games"].pop()
    path = tmp_path / "fixed.json"
    path.write_text(_file(first, second), encoding="utf-8")
    call_command("import_history", club.slug, str(path), stdout=open(tmp_path / "out", "w"))  # noqa: SIM115
    assert Game.objects.filter(evening__club=club).count() == 5
    # Kept score: the imported evenings are closed.
    assert set(Evening.objects.filter(club=club).values_list("status", flat=True)) == {
        Evening.Status.CLOSED
    }


def test_an_evening_whose_games_all_fail_leaves_no_empty_evening(
    club: Club, season: Season, tmp_path: Path
) -> None:
    wrong_kind = [random_game(seed, "koenigrufen", 4) for seed in range(2)]
    message = _run(tmp_path, club, _file(_evening(season, 0, range(0), games=wrong_kind)))
    assert "evening 1, game 1" in message and "evening 1, game 2" in message
    assert not Evening.objects.filter(club=club).exists()


@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31"])
def test_a_date_outside_the_season_is_refused_by_the_import(
    club: Club, season: Season, tmp_path: Path, day: str
) -> None:
    message = _run(tmp_path, club, _file(_evening(season, 0, range(1), date=day)))
    assert "evening 1" in message and season.name in message
    assert not Evening.objects.filter(club=club).exists()


@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31"])
def test_a_date_outside_the_season_is_a_400_on_the_api(
    club: Club, season: Season, scorer: PersonaClient, day: str
) -> None:
    players = list(club.players.filter(display_name__in=SEATED).values_list("pk", flat=True))
    body = {"season": season.pk, "date": day, "players": players}
    response = scorer.post(f"/api/clubs/{club.slug}/evenings/", body, format="json")
    assert response.status_code == 400
    assert "date" in response.json()
    inside = {**body, "date": season.start.isoformat()}
    assert (
        scorer.post(f"/api/clubs/{club.slug}/evenings/", inside, format="json").status_code == 201
    )
