"""The append's few statements answer exactly as a later read does, and stay few.

These run on SQLite and on PostgreSQL alike (``DATABASE_URL``).
"""

from __future__ import annotations

import datetime
import zoneinfo
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st
from rest_framework import serializers

from clubs.models import Player, Role
from games import selectors, services
from games.apis.events import appended_data
from games.apis.idempotency import answered_once
from games.errors import IdempotencyKeyReused
from games.models import Evening, Game, GameEvent, IdempotencyRecord
from games.presenters import iso_datetime
from tests.conftest import PersonaClient
from tests.factories import MembershipFactory
from tests.games import records
from tests.games.factories import seated_evening

pytestmark = pytest.mark.django_db


def _url(game: Game) -> str:
    return f"/api/games/{game.pk}/events/"


def test_the_answer_to_an_append_lists_the_events_exactly_as_a_later_read_does(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    first = scorer.post(
        _url(dealt_game), {"expected_seq": 1, "events": as_ids(records.NO_KONTRA[:2])}
    )
    second = scorer.post(
        _url(dealt_game), {"expected_seq": 3, "events": as_ids(records.NO_KONTRA[2:4])}
    )
    assert first.status_code == second.status_code == 201
    detail = scorer.get(f"/api/games/{dealt_game.pk}/").json()
    assert second.json()["events"] == detail["events"]
    assert second.json()["events"][:3] == first.json()["events"]
    for key in ("state", "result", "players", "last_seq", "status", "created_at"):
        assert second.json()[key] == detail[key], key


@pytest.mark.parametrize("given", [False, True], ids=["proposed deal", "given deal"])
def test_the_answer_to_a_game_start_is_exactly_what_a_later_read_shows(
    scorer: PersonaClient, evening: Evening, given: bool
) -> None:
    seated = [str(seat.player_id) for seat in evening.seats.order_by("position")]
    body = {"deal": {"dealer": seated[1], "players": seated}} if given else {}
    started = scorer.post(f"/api/evenings/{evening.pk}/games/", body)
    assert started.status_code == 201, started.json()
    detail = scorer.get(f"/api/games/{started.json()['id']}/").json()
    assert started.json() == detail
    assert detail["state"]["status"] == "in_progress"
    assert set(detail["players"]) == set(seated)


@pytest.mark.parametrize("given", [False, True], ids=["proposed deal", "given deal"])
def test_a_started_game_keeps_its_seated_dealer_without_looking_him_up_again(
    evening: Evening, given: bool
) -> None:
    seated = [str(seat.player_id) for seat in evening.seats.order_by("position")]
    deal = {"dealer": seated[2], "players": seated} if given else None
    with CaptureQueriesContext(connection) as queries:
        started = services.game_started(evening=evening, user=None, deal=deal)
    dealer = started.record["events"][0]["dealer"]
    assert started.game.dealer_id == int(dealer)
    assert Game.objects.get(pk=started.game.pk).dealer_id == int(dealer)
    # The seats read for the deal vouch for him: no second look at the club's players.
    assert not [q for q in queries if 'FROM "clubs_player"' in q["sql"]]


def test_an_append_names_a_club_player_who_does_not_sit_at_the_evening(
    scorer: PersonaClient, dealt_game: Game, players: dict[str, Player]
) -> None:
    seated = [str(players[name].pk) for name in ("anna", "bert", "carl", "dora")]
    franz = str(players["franz"].pk)  # a player of the club, not seated this evening
    deal = {"type": "deal", "dealer": seated[0], "players": [*seated, franz]}
    response = scorer.post(
        _url(dealt_game), {"expected_seq": 1, "events": [{"type": "undo"}, deal]}
    )
    assert response.status_code == 201, response.json()
    assert response.json()["players"][franz] == "Franz"
    assert (
        response.json()["players"] == scorer.get(f"/api/games/{dealt_game.pk}/").json()["players"]
    )


def _statements(queries: CaptureQueriesContext) -> list[str]:
    """The statements Django ran, but the test's own savepoints (a request has none)."""
    return [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]


def _append_answered(
    *, game: Game, user: Any, events: list[dict[str, Any]], key: str | None, fingerprint: str
) -> Any:
    """An append as the API makes it: the service, its key's answer stored in its
    transaction by the API's edge (``games.apis.idempotency.answered_once``)."""

    def write(on_written: Any) -> services.Appended:
        return services.game_events_append(
            game=game.pk,
            user=user,
            expected_seq=1,
            events=events,
            min_role=Role.SCORER,
            idempotency_key=key,
            on_written=on_written,
        )

    return answered_once(
        user=user,
        key=key,
        fingerprint=fingerprint,
        write=write,
        answer=lambda appended: appended_data(appended, answer="new"),
        status=201,
    )


@pytest.mark.parametrize("key", [None, "card-2"], ids=["no key", "with a key"])
def test_an_append_costs_at_most_five_statements(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any, key: str | None
) -> None:
    events = as_ids(records.NO_KONTRA)
    with CaptureQueriesContext(connection) as queries:
        answered = _append_answered(
            game=dealt_game, user=scorer.user, events=events[:2], key=key, fingerprint="request"
        )
    statements = _statements(queries)
    # The lock (with the role and the names), the events, their insert, the game's
    # update, and the key's answer.
    assert len(statements) == (5 if key else 4), statements
    assert answered.body["last_seq"] == 3
    assert IdempotencyRecord.objects.filter(key="card-2").exists() == (key is not None)


def test_a_retry_with_its_key_costs_two_statements_and_gets_the_first_answer(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    body = {"expected_seq": 1, "events": as_ids(records.NO_KONTRA[:1])}
    first = scorer.post(_url(dealt_game), body, HTTP_IDEMPOTENCY_KEY="K")
    with CaptureQueriesContext(connection) as queries:
        again = scorer.post(_url(dealt_game), body, HTTP_IDEMPOTENCY_KEY="K")
    assert (
        (again.status_code, again.json())
        == (first.status_code, first.json())
        == (
            201,
            first.json(),
        )
    )
    ours = [q for q in _statements(queries) if "games_" in q]
    assert len(ours) == 2, ours  # the lock that sees the key, and the key's answer
    assert GameEvent.objects.filter(game=dealt_game).count() == 2


def test_a_key_that_answered_a_different_request_refuses_this_one_and_stores_nothing(
    dealt_game: Game, as_ids: Any
) -> None:
    user = User.objects.create_user("late-key")
    MembershipFactory.create(club=dealt_game.evening.club, user=user, role=Role.SCORER)
    IdempotencyRecord.objects.create(
        user=user, key="K", fingerprint="another request", response_status=201, response_body={}
    )
    # The locking statement does not look at the key: the key's unique (user, key)
    # refuses it when the append stores it, and everything is rolled back.
    with pytest.raises(IdempotencyKeyReused):
        _append_answered(
            game=dealt_game,
            user=user,
            events=as_ids(records.NO_KONTRA[:1]),
            key="K",
            fingerprint="this request",
        )
    assert GameEvent.objects.filter(game=dealt_game).count() == 1
    dealt_game.refresh_from_db()
    assert dealt_game.last_seq == 1
    assert IdempotencyRecord.objects.get(user=user, key="K").fingerprint == "another request"


def test_a_retry_after_the_evening_was_closed_still_gets_its_first_answer(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    body = {"expected_seq": 1, "events": as_ids(records.NO_KONTRA[:1])}
    first = scorer.post(_url(dealt_game), body, HTTP_IDEMPOTENCY_KEY="K")
    assert first.status_code == 201, first.json()
    Evening.objects.filter(pk=dealt_game.evening_id).update(status=Evening.Status.CLOSED)
    again = scorer.post(_url(dealt_game), body, HTTP_IDEMPOTENCY_KEY="K")
    assert (again.status_code, again.json()) == (201, first.json())
    other = scorer.post(_url(dealt_game), {**body, "expected_seq": 2}, HTTP_IDEMPOTENCY_KEY="L")
    assert other.status_code == 409


def test_the_locking_statement_reads_the_role_and_the_names(
    dealt_game: Game, players: dict[str, Player], scorer: PersonaClient
) -> None:
    assert scorer.user is not None
    with transaction.atomic():
        found = selectors.game_for_append(
            game_id=dealt_game.pk, user=scorer.user, members_only=True
        )
        assert found is not None
        assert found.member_role == "scorer"  # type: ignore[attr-defined]
        assert found.last_seq == 1 and found.evening.is_open
        assert found.seat_names == {  # type: ignore[attr-defined]
            str(players[name].pk): name.title() for name in ("anna", "bert", "carl", "dora", "emil")
        }
    # A stranger to the club finds nothing, as for an unknown game (and locks nothing).
    outsider = User.objects.create_user("outsider-of-this-club")
    with transaction.atomic():
        assert (
            selectors.game_for_append(game_id=dealt_game.pk, user=outsider, members_only=True)
            is None
        )
        assert (
            selectors.game_for_append(
                game_id=dealt_game.pk + 1000, user=scorer.user, members_only=True
            )
            is None
        )
        # Without members_only a stranger finds the game, with no role.
        found = selectors.game_for_append(game_id=dealt_game.pk, user=outsider, members_only=False)
        assert found is not None and found.member_role is None  # type: ignore[attr-defined]


def _fields(instance: Any) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_the_locked_game_its_evening_and_club_read_as_the_orm_reads_them(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    body = {"expected_seq": 1, "events": as_ids(records.NO_KONTRA)}
    assert scorer.post(_url(dealt_game), body).status_code == 201  # a result, a finish time
    expected = Game.objects.select_related("evening", "evening__club").get(pk=dealt_game.pk)
    with transaction.atomic():
        found = selectors.game_for_append(
            game_id=dealt_game.pk, user=scorer.user, members_only=True
        )
    assert found is not None
    assert found.finished_at is not None and found.result
    assert _fields(found) == _fields(expected)
    assert _fields(found.evening) == _fields(expected.evening)
    assert _fields(found.evening.club) == _fields(expected.evening.club)
    assert not found._state.adding and found._state.db == expected._state.db


def test_a_record_without_events_is_not_imported_as_an_empty_game(
    scorer: PersonaClient, dealt_game: Game
) -> None:
    games_before = Game.objects.count()
    response = scorer.post(
        f"/api/evenings/{dealt_game.evening_id}/import/",
        {"game": "fuchsen", "events": []},
        format="json",
    )
    assert response.status_code == 422
    assert response.json()["results"][0]["reason"] == "no_events"
    assert Game.objects.count() == games_before


ZONES = [zoneinfo.ZoneInfo(name) for name in ("UTC", "Europe/Vienna", "America/St_Johns")]


@given(
    value=st.datetimes(
        min_value=datetime.datetime(1970, 1, 2),
        max_value=datetime.datetime(2200, 1, 1),
        timezones=st.sampled_from(ZONES),
    ),
    current=st.sampled_from(ZONES),
)
def test_the_answers_timestamps_read_exactly_as_drf_writes_them(
    value: datetime.datetime, current: zoneinfo.ZoneInfo
) -> None:
    with timezone.override(current):
        expected = serializers.DateTimeField().to_representation(value)
        assert iso_datetime(value, timezone.get_current_timezone()) == expected


def test_a_stale_append_is_told_so_in_german_unless_english_is_asked_for(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    body = {"expected_seq": 0, "events": as_ids(records.NO_KONTRA[:1])}
    german = scorer.post(_url(dealt_game), body, format="json")
    assert german.status_code == 409
    assert german.json()["detail"].startswith("Das Spiel ist inzwischen weiter")
    english = scorer.post(_url(dealt_game), body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["detail"].startswith("The game has moved on")
    assert english.json()["current_seq"] == 1


def test_an_evening_short_of_players_says_so_in_german(
    member: PersonaClient, club: Any, players: dict[str, Player]
) -> None:
    evening = seated_evening(club, ("Anna", "Bert", "Carl", "Dora"))
    services.evening_seat_remove(evening=evening, player=players["dora"])  # leaves the table
    body = member.get(f"/api/evenings/{evening.pk}/").json()
    assert body["next_deal"]["problem"] == (
        "Fuchsen braucht 4 bis 6 Spieler am Tisch; gerade sind es 3."
    )
