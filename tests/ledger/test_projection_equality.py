"""The projections kept game by game equal the rebuild from the results alone.

Hypothesis draws sequences of what happens to a season's games: new games
finished (at any time, so many are late: played before games already
projected), results changed and moved in time (an evening reopened, a game
finished again), undos back into play, annulments, and imports (several games
finished in one transaction, taken in by one projection run). After each step
the projection runs — eagerly on SQLite, through a real Celery worker on
PostgreSQL — and at the end every stored projection, down to each player's
row per game, must equal what ``rebuild_projections`` computes from nothing.
"""

from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Season as Season_
from games.models import Game
from ledger import services
from ledger.models import AllTimeGame, AllTimeRow, ProjectionChange, ProjectionState
from ledger.selectors import balance_map
from tests.factories import SeasonFactory
from tests.ledger.factories import (
    EveningFactory,
    Table,
    annul,
    finish,
    make_table,
    reopen,
    zero_sum,
)
from tests.reliability.helpers import projections_snapshot

Capture = Callable[..., Any]

_minute = st.integers(min_value=0, max_value=600)
_seed = st.integers(min_value=0, max_value=10_000)
_pick = st.integers(min_value=0, max_value=1_000)
# Evenings 0-2 are of the open season, 3 of an earlier season of the same game (its
# games interleave in time with the open season's: the all-time rating folds both).
_new = st.tuples(st.just("new"), st.integers(min_value=0, max_value=3), _minute, _seed)
STEPS = st.lists(
    st.one_of(
        _new,
        _new,
        st.tuples(st.just("again"), _pick, _minute, _seed),
        st.tuples(st.just("undo"), _pick),
        st.tuples(st.just("annul"), _pick),
        st.tuples(st.just("import"), st.lists(_new, min_size=2, max_size=5)),
    ),
    min_size=1,
    max_size=14,
)


class Season:
    """A season of three evenings whose games the steps change, as the recording does,
    and an evening of an earlier season of the same club and game."""

    def __init__(self) -> None:
        self.table: Table = make_table(players=6)
        self.earlier = SeasonFactory.create(
            club=self.table.club, game_kind=self.table.season.game_kind, status="closed"
        )
        self.evenings = [
            self.table.evening,
            self.table.new_evening(),
            self.table.new_evening(),
            EveningFactory.create(season=self.earlier, club=self.table.club),
        ]
        self.games: list[Game] = []
        self.start: datetime = timezone.now() - timedelta(days=2)

    def result(self, seed: int) -> tuple[dict[str, int], list[str]]:
        rng = random.Random(seed)
        return zero_sum(rng, self.table, seated=rng.choice([3, 4, 5]))

    def step(self, step: tuple[Any, ...]) -> None:
        kind = step[0]
        if kind == "new":
            _kind, evening, minute, seed = step
            game = self.table.new_game(self.evenings[evening])
            finish(game, *self.result(seed), at=self.start + timedelta(minutes=minute))
            self.games.append(game)
        elif kind == "import":
            with transaction.atomic():
                for new in step[1]:
                    self.step(new)
        elif not self.games:
            return
        elif kind == "again":
            _kind, pick, minute, seed = step
            game = self.games[pick % len(self.games)]
            game.finished_at = None
            finish(game, *self.result(seed), at=self.start + timedelta(minutes=minute))
        elif kind == "undo":
            reopen(self.games[step[1] % len(self.games)])
        else:
            annul(self.games[step[1] % len(self.games)])


def rebuilt(season_id: int) -> dict[str, Any]:
    services.season_projections_recompute(season_id=season_id, force=True)
    return projections_snapshot(season_id)


def all_time(club_id: int) -> dict[str, list[tuple[Any, ...]]]:
    """The club's all-time lines (sums and rating) and every step of its rating."""
    return {
        "lines": list(
            AllTimeRow.objects.filter(club_id=club_id)
            .exclude(games=0, net=0, seasons=0, rated=0)
            .order_by("game_kind", "player_id")
            .values_list(
                "game_kind",
                "player_id",
                "seasons",
                *services.FIGURES,
                "mu",
                "sigma",
                "ordinal",
                "rated",
            )
        ),
        "steps": list(
            AllTimeGame.objects.filter(club_id=club_id)
            .order_by("played_at", "game_id", "player_id")
            .values_list("game_kind", "game_id", "player_id", "mu", "sigma", "ordinal")
        ),
    }


def check_equal_to_rebuild(season: Season) -> None:
    season_id = season.table.season.pk
    # The seasons a game of the steps changed (a season never changed was never projected).
    changed = [
        pk
        for pk in (season_id, season.earlier.pk)
        if ProjectionState.objects.filter(season_id=pk).exists()
    ]
    incremental_seasons = {pk: projections_snapshot(pk) for pk in changed}
    incremental_all_time = all_time(season.table.club.pk)
    for pk in changed:
        assert rebuilt(pk) == incremental_seasons[pk]
    services.all_time_rebuild(club_id=season.table.club.pk)
    assert all_time(season.table.club.pk) == incremental_all_time
    # The all-time rating of a player is his last step's, over both seasons' games.
    for line in AllTimeRow.objects.filter(club_id=season.table.club.pk, rated__gt=0):
        last = AllTimeGame.objects.filter(
            club_id=line.club_id, game_kind=line.game_kind, player_id=line.player_id
        ).last()
        assert last is not None and (last.mu, last.sigma) == (line.mu, line.sigma)
    for pk in changed:
        finished = Game.objects.filter(evening__season_id=pk, status=Game.Status.FINISHED)
        assert ProjectionState.objects.get(season_id=pk).games == finished.count()
        # The season table's nets are the ledger's season balances.
        standings = incremental_seasons[pk]["standings"]
        nets = {row[2]: row[4] for row in standings if row[0] is None and row[4]}
        balances = balance_map(club=season.table.club, season=Season_.objects.get(pk=pk))
        assert nets == {p: b for p, b in balances.items() if b}


@pytest.mark.django_db
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS)
def test_game_by_game_projections_equal_the_rebuild_after_any_sequence(
    steps: list[tuple[Any, ...]], django_capture_on_commit_callbacks: Capture
) -> None:
    season = Season()
    for step in steps:
        # Each step's projection runs when its transaction commits, as in production.
        with django_capture_on_commit_callbacks(execute=True):
            season.step(step)
    if season.games:
        for projected in (season.table.season, season.earlier):
            state = ProjectionState.objects.filter(season=projected).first()
            assert state is None or not state.is_behind
        check_equal_to_rebuild(season)


def wait_until_fresh(season_id: int, worker: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert worker.poll() is None, "the Celery worker died"
        state = ProjectionState.objects.filter(season_id=season_id).first()
        if (state is None or not state.is_behind) and not ProjectionChange.objects.filter(
            season_id=season_id
        ).exists():
            return
        time.sleep(0.1)
    raise AssertionError("the worker did not bring the projections up to date")


@pytest.mark.postgres
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS)
def test_a_real_worker_keeps_projections_equal_to_the_rebuild(
    steps: list[tuple[Any, ...]], worker: subprocess.Popen[bytes]
) -> None:
    season = Season()
    for step in steps:
        season.step(step)  # each commits, and the worker takes the change from the queue
    if season.games:
        wait_until_fresh(season.table.season.pk, worker)
        wait_until_fresh(season.earlier.pk, worker)
        check_equal_to_rebuild(season)
