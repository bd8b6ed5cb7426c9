"""32 scorers recording into one game at once: every event is stored exactly once.

Real threads, each with its own PostgreSQL connection (Django's connections
are per thread), through the real API view. The game row lock and the
``expected_seq`` check must turn every race into a 409 for the losers; the
Idempotency-Key must make a retried request return the first answer, even
when the retries race each other.
"""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from clubs.models import Role
from games.models import Game, GameEvent, IdempotencyRecord
from ledger.models import LedgerEntry
from tests.factories import MembershipFactory, UserFactory
from tests.reliability.helpers import Table, make_table, stored_events

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 32


def run_threads(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in ``count`` threads released together; return results or exceptions."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def target(i: int) -> None:
        try:
            barrier.wait(timeout=60)
            results[i] = work(i)
        except Exception as error:  # reported by the test, not swallowed
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "a thread hung"
    errors = [r for r in results if isinstance(r, Exception)]
    assert not errors, errors
    return results


def scorer_client(table: Table, username: str) -> APIClient:
    user = UserFactory.create(username=username)
    MembershipFactory.create(club=table.club, user=user, role=Role.SCORER)
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def table() -> Table:
    return make_table()


def test_of_32_appends_on_the_same_seq_exactly_one_wins_and_31_get_a_409(table: Table) -> None:
    record = table.record(seed=11)
    game = table.start(record)
    clients = [scorer_client(table, f"scorer{i}") for i in range(THREADS)]
    url = f"/api/games/{game.pk}/events/"
    body = {"expected_seq": 1, "events": [record["events"][1]]}

    statuses = run_threads(THREADS, lambda i: clients[i].post(url, body, format="json").status_code)

    assert Counter(statuses) == {201: 1, 409: THREADS - 1}
    assert stored_events(game) == record["events"][:2]
    game.refresh_from_db()
    assert game.last_seq == 2


def test_32_scorers_who_retry_on_409_record_every_event_exactly_once(table: Table) -> None:
    record = table.record(seed=12)
    game = table.start(record)
    events = record["events"]
    clients = [scorer_client(table, f"scorer{i}") for i in range(THREADS)]
    url = f"/api/games/{game.pk}/events/"

    def scorer(i: int) -> Counter[int]:
        """Read the latest seq, send the event that comes next, retry on 409 until the end."""
        seen: Counter[int] = Counter()
        while True:
            last_seq = clients[i].get(f"/api/games/{game.pk}/").json()["last_seq"]
            if last_seq >= len(events):
                return seen
            body = {"expected_seq": last_seq, "events": [events[last_seq]]}
            response = clients[i].post(url, body, format="json")
            seen[response.status_code] += 1

    answers: Counter[Any] = sum(run_threads(THREADS, scorer), Counter())

    assert set(answers) <= {201, 409}, answers
    assert answers[201] == len(events) - 1  # the deal came with the start
    seqs = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(events) + 1))  # none lost, none twice
    assert stored_events(game) == events
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.last_seq == len(events)
    # The money of the finished game is booked once: one entry per paid player.
    booked = dict(
        LedgerEntry.objects.filter(game=game).values_list("player_id", "amount").order_by()
    )
    assert booked == {int(p): a for p, a in game.result["payouts"].items() if a}


def test_32_concurrent_retries_with_one_idempotency_key_append_once_and_answer_alike(
    table: Table,
) -> None:
    record = table.record(seed=13)
    game = table.start(record)
    client = scorer_client(table, "retrier")
    url = f"/api/games/{game.pk}/events/"
    key = str(uuid.uuid4())
    body = {"expected_seq": 1, "events": record["events"][1:4]}

    def retry(i: int) -> tuple[int, Any]:
        response = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
        return response.status_code, response.json()

    answers = run_threads(THREADS, retry)

    assert {status for status, _body in answers} == {201}
    assert all(body == answers[0][1] for _status, body in answers)
    assert stored_events(game) == record["events"][:4]
    assert IdempotencyRecord.objects.filter(key=key).count() == 1
    # And a retry long after still gets the first answer, without a fifth event.
    late = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert (late.status_code, late.json()) == answers[0]
    assert GameEvent.objects.filter(game=game).count() == 4


def test_retries_with_their_keys_racing_scorers_without_keys_never_append_twice(
    table: Table,
) -> None:
    record = table.record(seed=14)
    game = table.start(record)
    events = record["events"]
    clients = [scorer_client(table, f"scorer{i}") for i in range(THREADS)]
    url = f"/api/games/{game.pk}/events/"

    def scorer(i: int) -> Counter[str]:
        """Every request is sent twice with the same key, as a phone retrying on a bad line."""
        seen: Counter[str] = Counter()
        while True:
            last_seq = clients[i].get(f"/api/games/{game.pk}/").json()["last_seq"]
            if last_seq >= len(events):
                return seen
            body = {"expected_seq": last_seq, "events": [events[last_seq]]}
            key = f"{i}-{last_seq}-{uuid.uuid4()}"
            first = clients[i].post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
            again = clients[i].post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
            if first.status_code == 201:
                # The retry is the same answer, not a 409 and not a second append.
                assert (again.status_code, again.json()) == (201, first.json())
                seen["won"] += 1
            else:
                assert first.status_code == 409, first.content
                assert again.status_code == 409, again.content
                seen["lost"] += 1

    answers: Counter[Any] = sum(run_threads(THREADS, scorer), Counter())

    assert answers["won"] == len(events) - 1
    assert stored_events(game) == events
    assert IdempotencyRecord.objects.count() == len(events) - 1


def test_32_concurrent_starts_with_one_idempotency_key_start_one_game(table: Table) -> None:
    client = scorer_client(table, "starter")
    url = f"/api/evenings/{table.evening.pk}/games/"
    key = str(uuid.uuid4())

    answers = run_threads(
        THREADS,
        lambda i: client.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY=key).status_code,
    )

    assert set(answers) == {201}
    assert Game.objects.filter(evening=table.evening).count() == 1
