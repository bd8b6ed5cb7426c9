"""With the broker down, money is booked at once and the standings follow after the repair.

The Celery app is pointed at a port nothing listens on, with eager mode off,
as in production with Redis gone: the hook's on-commit enqueue fails fast,
is logged and dropped; recording and balances do not notice.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from clubs.models import Club
from ledger.models import ProjectionState
from ledger.selectors import seasons_behind
from ledger.tasks import project_season, repair_projections, send_quietly
from stichbuch.celery import app
from tests.conftest import PersonaClient
from tests.ledger.factories import Table, finish, make_table

pytestmark = pytest.mark.django_db

DEAD_BROKER = "redis://127.0.0.1:1/0"


@pytest.fixture
def dead_broker() -> Iterator[None]:
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=DEAD_BROKER, task_always_eager=False)
    try:
        yield
    finally:
        app.conf.update(saved)


@pytest.fixture
def table(club: Club) -> Table:
    return make_table(club=club, players=3)


def test_enqueueing_on_a_dead_broker_fails_fast_and_quietly(dead_broker: None) -> None:
    started = time.perf_counter()
    assert send_quietly(project_season, 1) is False
    assert time.perf_counter() - started < 5


def test_a_game_recorded_with_the_broker_down_is_in_the_balances_at_once(
    dead_broker: None,
    table: Table,
    member: PersonaClient,
    django_capture_on_commit_callbacks: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        finish(table.new_game(), {table.pk(0): 40, table.pk(1): -20, table.pk(2): -20})
    assert len(callbacks) == 1  # the enqueue was attempted, failed and was swallowed
    assert "periodic repair will catch up" in caplog.text

    balances = member.get(f"/api/clubs/{table.club.slug}/balances/").json()["balances"]
    assert {row["player_id"]: row["balance"] for row in balances} == {
        table.players[0].pk: 40,
        table.players[1].pk: -20,
        table.players[2].pk: -20,
    }

    url = f"/api/clubs/{table.club.slug}/seasons/{table.season.pk}/standings/"
    before = member.get(url).json()
    assert before["up_to_date"] is False and before["rows"] == []
    assert list(seasons_behind()) == [ProjectionState.objects.get(season=table.season)]

    assert repair_projections() == [table.season.pk]

    after = member.get(url).json()
    assert after["up_to_date"] is True
    assert [(row["player_id"], row["net"]) for row in after["rows"]] == [
        (table.players[0].pk, 40),
        (table.players[1].pk, -20),
        (table.players[2].pk, -20),
    ]
    assert repair_projections() == []  # nothing left behind: a second repair does nothing
