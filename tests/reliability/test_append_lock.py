"""An append that waited for the game's lock sees the game as the other append left it.

PostgreSQL's locking statement reads the game's events in the same statement
(``games.sql``). A statement that waits for a row lock gets the row as the
other transaction committed it, but its subqueries still see the database as
it was when the statement began: the events read with the lock then miss the
other append's. The statement must notice (``last_seq``) and leave the events
to be read afresh, so the waiting append judges the whole game.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction

from clubs.models import Role
from games import selectors, services
from tests.factories import MembershipFactory, UserFactory
from tests.reliability.helpers import Table, make_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table() -> Table:
    return make_table()


def test_a_lock_that_waited_for_another_append_reads_the_events_afresh(table: Table) -> None:
    record = table.record(seed=5)
    game = table.start(record)
    scorer = _member(table)
    holding = threading.Event()
    seen: dict[str, Any] = {}

    def first_append() -> None:
        try:
            with services.game_locked_with_role(game_id=game.pk, user=scorer) as found:
                assert found is not None
                services.game_events_record(
                    game=found.game,
                    user=None,
                    expected_seq=1,
                    events=record["events"][1:3],
                    locked=True,
                    stored=found.rows,
                )
                holding.set()
                time.sleep(1.0)  # the second statement is waiting for the lock meanwhile
        finally:
            connection.close()

    def second_lock() -> None:
        try:
            holding.wait(timeout=30)
            with services.game_locked_with_role(game_id=game.pk, user=scorer) as found:
                assert found is not None
                seen["last_seq"] = found.game.last_seq
                seen["rows"] = found.rows
                seen["fresh"] = selectors.game_event_rows(game_id=game.pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=first_append), threading.Thread(target=second_lock)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert seen["last_seq"] == 3
    # The events of the statement's own snapshot (only the deal) were not taken.
    assert seen["rows"] is None
    assert [row[0] for row in seen["fresh"]] == [1, 2, 3]


def _member(table: Table) -> Any:
    user = UserFactory.create()
    MembershipFactory.create(club=table.club, user=user, role=Role.SCORER)
    return user


def test_a_stranger_to_the_club_neither_takes_nor_waits_for_the_games_lock(table: Table) -> None:
    record = table.record(seed=6)
    game = table.start(record)
    scorer = _member(table)
    stranger = UserFactory.create()
    holding, done = threading.Event(), threading.Event()
    seen: dict[str, Any] = {}

    def hold_the_lock() -> None:
        try:
            with services.game_locked_with_role(game_id=game.pk, user=scorer) as found:
                assert found is not None
                holding.set()
                done.wait(timeout=30)
        finally:
            connection.close()

    def stranger_looks() -> None:
        try:
            holding.wait(timeout=30)
            with transaction.atomic():
                # Were the stranger's statement to lock the row, it would fail here
                # at once instead of waiting for the scorer.
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '50ms'")
                with services.game_locked_with_role(game_id=game.pk, user=stranger) as found:
                    seen["found"] = found
        except Exception as error:  # reported below
            seen["error"] = error
        finally:
            done.set()
            connection.close()

    threads = [threading.Thread(target=hold_the_lock), threading.Thread(target=stranger_looks)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert "error" not in seen, seen.get("error")
    assert seen["found"] is None
