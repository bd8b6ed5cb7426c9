"""A real Celery worker on Redis projects a finished game into the standings.

Not eager: the ``worker`` fixture (``tests/ledger/conftest.py``) starts a real
worker on Redis, pointed at this test run's PostgreSQL database.
"""

from __future__ import annotations

import subprocess
import time

import pytest

from ledger.models import ProjectionState
from ledger.selectors import standing_list
from tests.ledger.factories import Table, finish, make_table

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


def test_a_game_finished_appears_in_the_standings_through_a_real_worker(
    worker: subprocess.Popen[bytes],
) -> None:
    table: Table = make_table(players=3)
    finish(table.new_game(), {table.pk(0): 40, table.pk(1): -20, table.pk(2): -20})

    deadline = time.monotonic() + 60
    state = None
    while time.monotonic() < deadline:
        assert worker.poll() is None, "the Celery worker died"
        state = ProjectionState.objects.filter(season=table.season).first()
        if state is not None and state.computed_from == state.version:
            break
        time.sleep(0.25)
    assert state is not None and not state.is_behind, "the worker did not project the game"
    rows = [(row.player_id, row.rank, row.net) for row in standing_list(season=table.season)]
    assert rows == [
        (table.players[0].pk, 1, 40),
        (table.players[1].pk, 2, -20),
        (table.players[2].pk, 2, -20),
    ]
