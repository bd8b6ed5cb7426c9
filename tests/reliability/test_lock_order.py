"""Recording and a projection run, interleaved at their worst: both finish, neither deadlocks.

Recording a game (start, import) locks the evening row and then bumps the
season's projection version; a projection run locks that version row and then
inserts standing rows, whose foreign key to the evening takes a KEY SHARE lock
on the evening row. Had the evening lock been a plain ``FOR UPDATE`` (which
also locked the joined season and club rows), the two would wait for each
other, and PostgreSQL would kill one of them with "deadlock detected".
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction

from games import services
from ledger import projections
from ledger import services as ledger_services
from tests.reliability.helpers import make_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_recording_and_a_projection_run_never_deadlock(monkeypatch: pytest.MonkeyPatch) -> None:
    table = make_table()
    record = table.record(seed=51)
    game = table.start(record)
    services.game_events_append(game=game, user=None, expected_seq=1, events=record["events"][1:])
    season_id = table.evening.season_id
    evening_locked = threading.Event()
    state_locked = threading.Event()
    errors: list[BaseException] = []
    real_rows = projections.standing_values

    def rows_after_the_recording_waits(**kwargs: Any) -> Any:
        # The run holds the ProjectionState lock now; let the recording ask for it.
        state_locked.set()
        time.sleep(0.5)
        return real_rows(**kwargs)

    monkeypatch.setattr(projections, "standing_values", rows_after_the_recording_waits)

    def recording() -> None:
        try:
            with transaction.atomic():
                services.evening_lock(evening=table.evening)  # as game_start and import do
                evening_locked.set()
                state_locked.wait(timeout=30)
                ledger_services.projection_version_bump(season_id=season_id)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    def projection() -> None:
        try:
            evening_locked.wait(timeout=30)
            ledger_services.season_projections_recompute(season_id=season_id, force=True)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=recording), threading.Thread(target=projection)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    assert not errors, errors
