"""Projections: standings, evening tables, ratings and series, recomputed idempotently.

With no broker configured the project runs Celery tasks eagerly, so
``django_capture_on_commit_callbacks(execute=True)`` drives the real
incremental path: the hook's on-commit request runs ``project_season``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.db.models import F
from django.utils import timezone

from games.models import Game
from ledger import services
from ledger.models import (
    PlayerRating,
    ProjectionChange,
    ProjectionState,
    SeasonSeries,
    StandingRow,
)
from ledger.selectors import (
    balance_map,
    rating_get,
    season_series_get,
    seasons_behind,
    standing_list,
)
from tests.ledger.factories import (
    StandingsConfigFactory,
    Table,
    annul,
    finish,
    make_table,
    reopen,
    zero_sum,
)
from tests.reliability.helpers import projections_snapshot

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def snapshot(table: Table) -> dict[str, Any]:
    """Everything projected for the table's season, comparable with ==."""
    return projections_snapshot(table.season.pk)


@pytest.fixture
def table() -> Table:
    return make_table(players=5)


def test_a_finished_game_appears_in_the_season_table_on_commit(
    table: Table, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        finish(table.new_game(), {table.pk(0): 40, table.pk(1): -20, table.pk(2): -20})
    rows = list(standing_list(season=table.season))
    assert [(r.player_id, r.rank, r.net, r.games) for r in rows] == [
        (table.players[0].pk, 1, 40, 1),
        (table.players[1].pk, 2, -20, 1),
        (table.players[2].pk, 2, -20, 1),
    ]
    state = ProjectionState.objects.get(season=table.season)
    assert not state.is_behind and state.games == 1


def test_a_game_taken_back_leaves_the_standings(
    table: Table, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = finish(table.new_game(), {table.pk(0): 40, table.pk(1): -40})
    with django_capture_on_commit_callbacks(execute=True):
        reopen(game)
    assert list(standing_list(season=table.season)) == []
    series = season_series_get(season=table.season)
    assert series is not None and series.cumulative == {
        "game_ids": [],
        "values": {},
    }


def test_the_evening_table_ranks_that_evening_only(
    table: Table, django_capture_on_commit_callbacks: Capture
) -> None:
    later = table.new_evening()
    with django_capture_on_commit_callbacks(execute=True):
        finish(table.new_game(), {table.pk(0): 40, table.pk(1): -40})
        finish(table.new_game(later), {table.pk(1): 10, table.pk(2): -10})
    evening = [(r.player_id, r.net) for r in standing_list(season=table.season, evening=later)]
    assert evening == [(table.players[1].pk, 10), (table.players[2].pk, -10)]


def test_recomputing_twice_gives_the_same_rows_and_skips_when_up_to_date(table: Table) -> None:
    rng = random.Random(7)
    for _ in range(12):
        finish(table.new_game(), *zero_sum(rng, table))
    first = services.season_projections_recompute(season_id=table.season.pk)
    before = snapshot(table)
    again = services.season_projections_recompute(season_id=table.season.pk)
    assert again.runs == first.runs  # up to date: nothing recomputed
    forced = services.season_projections_recompute(season_id=table.season.pk, force=True)
    assert forced.runs == first.runs + 1
    assert snapshot(table) == before


def test_each_change_is_applied_once_and_the_stored_version_never_goes_back(
    table: Table,
) -> None:
    finish(table.new_game(), {table.pk(0): 40, table.pk(1): -40})
    state = services.season_projections_recompute(season_id=table.season.pk)
    ProjectionState.objects.filter(pk=state.pk).update(computed_from=state.version + 5)
    finish(table.new_game(), {table.pk(0): 10, table.pk(1): -10})
    services.season_projections_recompute(season_id=table.season.pk)
    state.refresh_from_db()
    assert state.computed_from == state.version + 4  # kept: never back to an older one
    assert standing_list(season=table.season).get(player=table.players[0]).net == 50
    # A run that finds no change left applies nothing twice.
    ProjectionState.objects.filter(pk=state.pk).update(computed_from=None)
    services.season_projections_recompute(season_id=table.season.pk)
    assert standing_list(season=table.season).get(player=table.players[0]).net == 50
    assert not ProjectionChange.objects.filter(season=table.season).exists()


def test_the_min_games_and_tie_break_of_the_club_shape_the_table(
    table: Table, django_capture_on_commit_callbacks: Capture
) -> None:
    StandingsConfigFactory.create(club=table.club, min_games=2, tie_break=["wins", "net"])
    with django_capture_on_commit_callbacks(execute=True):
        finish(table.new_game(), {table.pk(0): 90, table.pk(1): -30, table.pk(2): -60})
        finish(table.new_game(), {table.pk(1): 10, table.pk(2): 10, table.pk(0): -20})
        finish(table.new_game(), {table.pk(3): 5, table.pk(4): -5})
    rows = [(r.player_id, r.rank) for r in standing_list(season=table.season)]
    p = [player.pk for player in table.players]
    # p1 and p2 have a win each, p0 too: net decides; p3/p4 played once: unranked.
    assert rows == [(p[0], 1), (p[1], 2), (p[2], 3), (p[3], None), (p[4], None)]


def test_changing_the_standings_config_marks_the_seasons_behind_and_reprojects(
    table: Table, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        finish(table.new_game(), {table.pk(0): 40, table.pk(1): -40})
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.standings_config_update(club=table.club, min_games=3)
    assert list(seasons_behind()) == [ProjectionState.objects.get(season=table.season)]
    for callback in callbacks:
        callback()
    assert all(row.rank is None for row in standing_list(season=table.season))
    assert not seasons_behind().exists()


def test_ratings_move_the_winners_up_and_keep_a_history_per_game(
    table: Table, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            finish(
                table.new_game(),
                {table.pk(0): 30, table.pk(1): -10, table.pk(2): -10, table.pk(3): -10},
                declarers=[table.pk(0)],
            )
    ratings = {
        r.player_id: rating_get(season=table.season, player_id=r.player_id)
        for r in PlayerRating.objects.filter(season=table.season)
    }
    winner, loser = ratings[table.players[0].pk], ratings[table.players[1].pk]
    assert winner.ordinal > loser.ordinal
    assert winner.games == 3 and len(winner.history) == 3
    assert winner.history[-1][1:] == [winner.mu, winner.sigma, winner.ordinal]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_rebuild_equals_the_incremental_projections_after_a_random_mix(
    table: Table, django_capture_on_commit_callbacks: Capture, seed: int
) -> None:
    rng = random.Random(seed)
    evenings = [table.evening, table.new_evening()]
    games: list[Game] = []
    start = timezone.now() - timedelta(days=1)
    with django_capture_on_commit_callbacks(execute=True):
        for step in range(40):
            roll = rng.random()
            if games and roll < 0.2:
                reopen(rng.choice(games))
            elif games and roll < 0.3:
                annul(rng.choice(games))
            elif games and roll < 0.4:
                finish(rng.choice(games), *zero_sum(rng, table), at=start + timedelta(minutes=step))
            else:
                game = table.new_game(rng.choice(evenings))
                finish(game, *zero_sum(rng, table), at=start + timedelta(minutes=step))
                games.append(game)
    incremental = snapshot(table)
    assert incremental["standings"]
    assert not seasons_behind().exists()
    for scope in ({"season": table.season}, {"evening": evenings[0]}, {"evening": evenings[1]}):
        assert sum(balance_map(club=table.club, **scope).values()) == 0

    StandingRow.objects.all().delete()
    PlayerRating.objects.all().delete()
    SeasonSeries.objects.all().delete()
    call_command("rebuild_projections", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert snapshot(table) == incremental

    # The net of the table is the ledger's season balance, player by player.
    nets = {row[2]: row[4] for row in incremental["standings"] if row[0] is None}
    assert {p: n for p, n in nets.items() if n} == {
        p: b for p, b in balance_map(club=table.club, season=table.season).items() if b
    }


def test_the_rebuild_resyncs_a_game_whose_ledger_disagrees_with_its_result(table: Table) -> None:
    game = finish(table.new_game(), {table.pk(0): 40, table.pk(1): -40})
    # A result changed behind the hook's back (say, a bug fixed in the engine).
    Game.objects.filter(pk=game.pk).update(
        result={**game.result, "payouts": {table.pk(0): -40, table.pk(1): 40}}
    )
    call_command("rebuild_projections", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert balance_map(club=table.club) == {table.players[0].pk: -40, table.players[1].pk: 40}
    assert standing_list(season=table.season).first().player_id == table.players[1].pk  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", range(20))
def test_the_fast_head_to_head_equals_the_reference_definition(seed: int) -> None:
    from datetime import datetime

    from ledger.projections import head_to_head_exact
    from ledger.series import head_to_head
    from ledger.standings import GameOutcome

    rng = random.Random(seed)
    names = [f"p{i}" for i in range(7)]
    outcomes = []
    for game_id in range(rng.randint(0, 60)):
        seated = rng.sample(names, rng.choice([3, 4, 5]))
        amounts = [rng.choice([0, 5, 10, 20, 40]) * rng.choice([1, -1]) for _ in seated[1:]]
        payouts = dict(zip(seated, [-sum(amounts), *amounts], strict=True))
        outcomes.append(
            GameOutcome(
                game_id=game_id,
                played_at=datetime(2026, 1, 1),
                kind="fuchsen",
                payouts=payouts,
                active=tuple(seated),
            )
        )
    assert head_to_head_exact(outcomes) == head_to_head(outcomes)


def test_a_result_that_names_players_instead_of_ids_is_left_out_not_fatal(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    finish(table.new_game(), {table.pk(0): 40, table.pk(1): -40})
    odd = table.new_game()
    Game.objects.filter(pk=odd.pk).update(
        status=Game.Status.FINISHED,
        result={"status": "finished", "payouts": {"anna": 10, "bert": -10}, "declarers": []},
    )
    # Written behind the hook's back: the rebuild reads it, and so does a run told of it.
    state = services.season_projections_recompute(season_id=table.season.pk, force=True)
    assert state.games == 1
    assert "cannot be projected" in caplog.text
    caplog.clear()
    ProjectionChange.objects.create(season=table.season, game_id=odd.pk)
    ProjectionState.objects.filter(pk=state.pk).update(version=F("version") + 1)
    state = services.season_projections_recompute(season_id=table.season.pk)
    assert state.games == 1
    assert "cannot be projected" in caplog.text
