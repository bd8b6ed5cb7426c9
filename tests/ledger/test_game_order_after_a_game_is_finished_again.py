"""A season's games are in the order they were finished: a game finished again later
(its result the same, so no money moves) takes its new place in the projections
kept game by game, as it does in the rebuild from the games alone."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from clubs.models import Season
from games.models import Game
from ledger import services
from ledger.models import ProjectionChange
from ledger.selectors import season_series_get
from tests.ledger.factories import Table, annul, finish, make_table
from tests.reliability.helpers import projections_snapshot

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def payouts(table: Table, first: int) -> tuple[dict[str, int], list[str]]:
    """A game of four: player ``first`` alone against three of the others."""
    others = [table.pk((first + i) % len(table.players)) for i in (1, 2, 3)]
    return {table.pk(first): 60, **dict.fromkeys(others, -20)}, [table.pk(first)]


def series_order(table: Table) -> list[int]:
    series = season_series_get(season=Season.objects.get(pk=table.season.pk))
    assert series is not None
    return list(series.cumulative["game_ids"])


def test_a_game_finished_again_after_another_moves_behind_it_as_in_the_rebuild(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    table = make_table(players=5)
    start = timezone.now() - timedelta(days=1)
    first, second = table.new_game(), table.new_game()
    with django_capture_on_commit_callbacks(execute=True):
        finish(first, *payouts(table, 0), at=start)
    with django_capture_on_commit_callbacks(execute=True):
        finish(second, *payouts(table, 1), at=start + timedelta(minutes=10))
    assert series_order(table) == [first.pk, second.pk]

    # The first game is finished again, later, with the same result: no money moves.
    first.finished_at = None
    with django_capture_on_commit_callbacks(execute=True):
        finish(first, *payouts(table, 0), at=start + timedelta(minutes=20))

    incremental = projections_snapshot(table.season.pk)
    assert series_order(table) == [second.pk, first.pk]
    services.season_projections_recompute(season_id=table.season.pk, force=True)
    assert projections_snapshot(table.season.pk) == incremental


def test_a_sync_that_moves_neither_money_nor_the_finished_time_asks_for_no_projection(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    table = make_table(players=5)
    game = table.new_game()
    with django_capture_on_commit_callbacks(execute=True):
        finish(game, *payouts(table, 0), at=timezone.now() - timedelta(hours=1))
    state = services.season_projections_recompute(season_id=table.season.pk)
    with django_capture_on_commit_callbacks(execute=True):
        finish(game, *payouts(table, 0))
    assert not ProjectionChange.objects.filter(season_id=table.season.pk).exists()
    assert services.season_projections_recompute(season_id=table.season.pk).version == (
        state.version
    )


def test_a_game_annulled_from_play_asks_for_no_projection(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    table = make_table(players=5)
    game = table.new_game()
    assert game.status == Game.Status.IN_PROGRESS
    with django_capture_on_commit_callbacks(execute=True):
        annul(game)
    assert not ProjectionChange.objects.filter(season_id=table.season.pk).exists()
