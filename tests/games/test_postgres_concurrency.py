"""Two scorers at once, on a real PostgreSQL: the row lock and the unique seq hold.

These run only on PostgreSQL (CI sets DATABASE_URL); SQLite serialises writers
itself and has no row locks to test.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from clubs.models import Club, Player, Role
from games import services
from games.models import Evening, Game, GameEvent
from ledger import services as ledger_services
from ledger.models import Payment
from tests.factories import MembershipFactory, UserFactory
from tests.games import records
from tests.games.factories import NAMES, club_players, ids, seated_evening

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _scorer(club: Club, username: str) -> APIClient:
    user = UserFactory.create(username=username)
    MembershipFactory.create(club=club, user=user, role=Role.SCORER)
    client = APIClient()
    client.force_login(user)
    return client


def _race(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; return their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[i] = call()
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.fixture
def table(club: Club) -> tuple[Evening, Game, dict[str, Player]]:
    players = club_players(club, NAMES)
    evening = seated_evening(club, NAMES[:5])
    deal = ids({"events": [records.DEAL]}, players)["events"][0]
    game = services.game_start(evening=evening, user=None, deal=deal)
    return evening, game, players


def test_two_appends_on_the_same_seq_one_wins_and_the_other_gets_a_409(
    club: Club, table: tuple[Evening, Game, dict[str, Player]]
) -> None:
    _evening, game, players = table
    events = ids({"events": records.NO_KONTRA[:1]}, players)["events"]
    clients = [_scorer(club, "anton"), _scorer(club, "berta")]
    url = f"/api/games/{game.pk}/events/"
    responses = _race(
        *[
            (lambda c=c: c.post(url, {"expected_seq": 1, "events": events}, format="json"))
            for c in clients
        ]
    )
    assert sorted(r.status_code for r in responses) == [201, 409]
    loser = next(r for r in responses if r.status_code == 409)
    assert loser.json()["current_seq"] == 2
    assert list(GameEvent.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2]
    game.refresh_from_db()
    assert game.last_seq == 2


def test_many_racing_appends_leave_no_gap_and_no_duplicate_seq(
    club: Club, table: tuple[Evening, Game, dict[str, Player]]
) -> None:
    _evening, game, players = table
    events = ids({"events": records.NO_KONTRA}, players)["events"]
    client = _scorer(club, "anton")
    url = f"/api/games/{game.pk}/events/"
    # Eight scorers each try to append the next event on what they believe is seq 1..8;
    # whoever loses retries with the seq the 409 tells him, until all are stored.
    for event_index, event in enumerate(events):
        expected = event_index + 1
        body = {"expected_seq": expected, "events": [event]}
        responses = _race(*[(lambda b=body: client.post(url, b, format="json")) for _ in range(4)])
        assert sorted(r.status_code for r in responses) == [201, 409, 409, 409]
    seqs = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(events) + 2))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_retry_racing_its_original_appends_once(
    club: Club, table: tuple[Evening, Game, dict[str, Player]]
) -> None:
    _evening, game, players = table
    events = ids({"events": records.NO_KONTRA[:1]}, players)["events"]
    client = _scorer(club, "anton")
    url = f"/api/games/{game.pk}/events/"
    body = {"expected_seq": 1, "events": events}
    responses = _race(
        *[
            (lambda: client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="tap-1"))
            for _ in range(3)
        ]
    )
    assert [r.status_code for r in responses] == [201, 201, 201]
    # Same answer (jsonb stores keys in its own order, so compare the parsed bodies).
    assert len({json.dumps(r.json(), sort_keys=True) for r in responses}) == 1
    assert GameEvent.objects.filter(game=game).count() == 2


def test_two_games_started_at_once_get_different_numbers(
    club: Club, table: tuple[Evening, Game, dict[str, Player]]
) -> None:
    evening, _game, _players = table
    clients = [_scorer(club, "anton"), _scorer(club, "berta")]
    url = f"/api/evenings/{evening.pk}/games/"
    responses = _race(*[(lambda c=c: c.post(url, {}, format="json")) for c in clients])
    assert [r.status_code for r in responses] == [201, 201]
    numbers = sorted(Game.objects.filter(evening=evening).values_list("number", flat=True))
    assert numbers == [1, 2, 3]


def test_two_admins_reopening_an_evening_at_once_open_it_once(
    club: Club, table: tuple[Evening, Game, dict[str, Player]]
) -> None:
    evening, _game, _players = table
    services.evening_close(evening=evening)
    clients = []
    for name in ("anton", "berta"):
        user = UserFactory.create(username=name)
        MembershipFactory.create(club=club, user=user, role=Role.ADMIN)
        client = APIClient()
        client.force_login(user)
        clients.append(client)
    url = f"/api/evenings/{evening.pk}/reopen/"
    responses = _race(*[(lambda c=c: c.post(url, {}, format="json")) for c in clients])
    assert sorted(r.status_code for r in responses) == [200, 409]
    evening.refresh_from_db()
    assert evening.is_open


def test_a_game_started_while_its_empty_evening_is_deleted_gets_a_clear_answer(
    club: Club,
) -> None:
    # Either the game starts first (and the delete is refused) or the delete does
    # (and the start is told the evening is gone): never a server error, never a
    # game without its evening.
    outcomes: set[tuple[int, int]] = set()
    for round_ in range(4):
        evening = seated_evening(club, NAMES[:5])
        starter = _scorer(club, f"anton{round_}")
        deleter = _scorer(club, f"berta{round_}")
        base = f"/api/evenings/{evening.pk}"
        start, delete = _race(
            partial(starter.post, f"{base}/games/", {}, format="json"),
            partial(deleter.post, f"{base}/delete/", {}, format="json"),
        )
        pair = (start.status_code, delete.status_code)
        assert pair in {(201, 409), (409, 204)}, pair
        outcomes.add(pair)
        games = Game.objects.filter(evening_id=evening.pk).count()
        assert games == (1 if pair == (201, 409) else 0)
        assert Evening.objects.filter(pk=evening.pk).exists() == (pair == (201, 409))


def test_two_scorers_reversing_one_payment_at_once_reverse_it_once(
    club: Club, table: tuple[Evening, Game, dict[str, Player]]
) -> None:
    evening, _game, players = table
    payment = ledger_services.payment_record(
        club=club,
        payer=players["anna"],
        payee=players["bert"],
        amount=40,
        recorded_by=None,
        evening=evening,
    )
    clients = [_scorer(club, "anton"), _scorer(club, "berta")]
    url = f"/api/clubs/{club.slug}/payments/{payment.pk}/reverse/"
    responses = _race(*[partial(c.post, url, {}, format="json") for c in clients])
    assert sorted(r.status_code for r in responses) == [201, 400]
    assert Payment.objects.filter(reverses=payment).count() == 1
