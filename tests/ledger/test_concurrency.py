"""Races on PostgreSQL: two requests at once still book money exactly once.

Each thread has its own database connection, so the row locks and the
conditional update really meet. Skipped on SQLite, whose single writer makes
these races impossible to begin with.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction

from games.models import Game
from ledger.models import LedgerEntry, Payment, SettlementTransfer
from ledger.services import (
    ledger_sync_game,
    settlement_plan_create,
    settlement_transfer_mark_paid,
)
from tests.ledger.factories import finish, fuchsen_result, make_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_together(work: Callable[[], Any], threads: int = 4) -> list[BaseException]:
    barrier = threading.Barrier(threads)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            barrier.wait()
            work()
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    workers = [threading.Thread(target=run) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=30)
    return errors


def test_marking_one_transfer_paid_from_four_requests_at_once_pays_it_once() -> None:
    table = make_table(players=3)
    finish(table.new_game(), {table.pk(0): 40, table.pk(1): -20, table.pk(2): -20})
    plan = settlement_plan_create(club=table.club, created_by=None, evening=table.evening)
    transfer_id = plan.transfers.values_list("pk", flat=True).first()
    assert transfer_id is not None

    def mark() -> None:
        settlement_transfer_mark_paid(
            transfer=SettlementTransfer.objects.get(pk=transfer_id), paid_by=None
        )

    assert run_together(mark) == []
    assert Payment.objects.count() == 1
    assert LedgerEntry.objects.filter(kind="payment").count() == 2


def test_four_syncs_of_one_finished_game_at_once_book_it_once() -> None:
    table = make_table(players=3)
    game = table.new_game()
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        result=fuchsen_result({table.pk(0): 40, table.pk(1): -20, table.pk(2): -20}),
    )

    def sync() -> None:
        with transaction.atomic():
            ledger_sync_game(game=Game.objects.get(pk=game.pk))

    assert run_together(sync) == []
    assert LedgerEntry.objects.filter(game=game).count() == 3
