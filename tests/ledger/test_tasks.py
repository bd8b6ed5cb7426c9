"""The Celery tasks as functions: projecting, repairing, closing expired seasons."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.utils import timezone

from clubs.models import Season
from ledger.models import ProjectionState, StandingRow
from ledger.tasks import close_expired_seasons, project_season, repair_projections
from tests.factories import SeasonFactory
from tests.ledger.factories import finish, make_table

pytestmark = pytest.mark.django_db


def test_project_season_is_idempotent_and_returns_the_version_it_computed_from() -> None:
    table = make_table(players=2)
    finish(table.new_game(), {table.pk(0): 10, table.pk(1): -10})
    assert project_season(table.season.pk) == 1
    assert project_season(table.season.pk) == 1
    assert ProjectionState.objects.get(season=table.season).runs == 1
    assert StandingRow.objects.filter(season=table.season, evening__isnull=True).count() == 2


def test_project_season_of_a_season_that_is_gone_does_nothing() -> None:
    assert project_season(987654) is None


def test_the_repair_recomputes_only_the_seasons_that_are_behind() -> None:
    behind, current = make_table(players=2), make_table(players=2)
    finish(behind.new_game(), {behind.pk(0): 10, behind.pk(1): -10})
    finish(current.new_game(), {current.pk(0): 10, current.pk(1): -10})
    project_season(current.season.pk)
    assert repair_projections() == [behind.season.pk]
    assert repair_projections() == []


def test_an_open_season_past_its_end_is_closed_and_others_are_left_alone() -> None:
    today = timezone.localdate()
    expired = SeasonFactory.create(
        start=today - datetime.timedelta(days=60), end=today - datetime.timedelta(days=2)
    )
    running = SeasonFactory.create(start=today - datetime.timedelta(days=10), end=today)
    endless = SeasonFactory.create(start=today - datetime.timedelta(days=10), end=None)
    assert close_expired_seasons() == [expired.pk]
    statuses = dict(Season.objects.values_list("pk", "status"))
    assert statuses == {
        expired.pk: Season.Status.CLOSED,
        running.pk: Season.Status.OPEN,
        endless.pk: Season.Status.OPEN,
    }
    assert close_expired_seasons() == []


def test_the_beat_schedule_runs_the_repair_and_the_season_closing() -> None:
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    # The repair runs through the catch-up, which calls ledger.repair_projections
    # under a lock (stichbuch.catch_up).
    assert {"stichbuch.catch_up_projections", "ledger.close_expired_seasons"} <= tasks
