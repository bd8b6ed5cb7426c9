"""An append that waited for the game's lock judges the game as the other append left it,
and a stranger to the club neither takes nor waits for that lock.

The lock is the game row's (``select_for_update``); the events are read by the
next statement, after the lock is held, so they include everything the other
append committed.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction
from django.http import Http404

from clubs.models import Role
from games import selectors, services
from games.models import GameEvent
from tests.factories import MembershipFactory, UserFactory
from tests.reliability.helpers import Table, make_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table() -> Table:
    return make_table()


def _member(table: Table) -> Any:
    user = UserFactory.create()
    MembershipFactory.create(club=table.club, user=user, role=Role.SCORER)
    return user


def _hold_lock(game_id: int, user: Any, holding: threading.Event, release: Any) -> None:
    with transaction.atomic():
        found = selectors.game_for_append(game_id=game_id, user=user, members_only=True)
        assert found is not None
        holding.set()
        release()


def test_an_append_that_waited_for_the_lock_judges_the_other_appends_events(
    table: Table,
) -> None:
    record = table.record(seed=5)
    game = table.start(record)
    scorer = _member(table)
    holding = threading.Event()
    seen: dict[str, Any] = {}

    def first_append() -> None:
        try:
            with transaction.atomic():
                services.game_events_append(
                    game=game.pk, user=scorer, expected_seq=1, events=record["events"][1:3]
                )
                holding.set()
                time.sleep(1.0)  # the second append is waiting for the lock meanwhile
        finally:
            connection.close()

    def second_append() -> None:
        try:
            holding.wait(timeout=30)
            appended = services.game_events_append(
                game=game.pk,
                user=scorer,
                expected_seq=3,
                events=record["events"][3:4],
                min_role=Role.SCORER,
            )
            seen["last_seq"] = appended.game.last_seq
        except Exception as error:  # reported below
            seen["error"] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=first_append), threading.Thread(target=second_append)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert "error" not in seen, seen.get("error")
    assert seen["last_seq"] == 4
    seqs = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == [1, 2, 3, 4]


def test_a_stranger_to_the_club_neither_takes_nor_waits_for_the_games_lock(table: Table) -> None:
    record = table.record(seed=6)
    game = table.start(record)
    scorer = _member(table)
    stranger = UserFactory.create()
    holding, done = threading.Event(), threading.Event()
    seen: dict[str, Any] = {}

    def hold_the_lock() -> None:
        try:
            _hold_lock(game.pk, scorer, holding, lambda: done.wait(timeout=30))
        finally:
            connection.close()

    def stranger_appends() -> None:
        try:
            holding.wait(timeout=30)
            with transaction.atomic():
                # Were the stranger's statement to lock the row, it would fail here
                # at once instead of waiting for the scorer.
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '50ms'")
                services.game_events_append(
                    game=game.pk,
                    user=stranger,
                    expected_seq=1,
                    events=record["events"][1:2],
                    min_role=Role.SCORER,
                )
        except Exception as error:  # reported below
            seen["error"] = error
        finally:
            done.set()
            connection.close()

    threads = [threading.Thread(target=hold_the_lock), threading.Thread(target=stranger_appends)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert isinstance(seen.get("error"), Http404), seen.get("error")
