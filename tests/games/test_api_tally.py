"""Recording what the table counted (a ``tally``) over the API: appended like any event,
refused with the field at fault, judged without writing in a dry run, and in one
request with the start of the game."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Player
from games import services
from games.models import Evening, Game, GameEvent, IdempotencyRecord
from ledger.models import LedgerEntry
from tests.conftest import PersonaClient
from tests.games import records

pytestmark = pytest.mark.django_db

CALL = {"type": "call", "player": "bert", "card": "E10"}
# The first trick with kontra and re, then the end of the raising (shared example 65).
RAISED = [
    {"type": "play", "player": "bert", "card": "EO"},
    {"type": "play", "player": "carl", "card": "RA"},
    {"type": "play", "player": "dora", "card": "R10"},
    {"type": "raise", "player": "dora", "level": "kontra"},
    {"type": "raise", "player": "carl", "level": "re"},
    {"type": "play", "player": "emil", "card": "R9"},
    {"type": "play", "player": "anna", "card": "R7"},
    {"type": "end_raising"},
]


def _url(game: Game) -> str:
    return f"/api/games/{game.pk}/events/"


def _tally(**fields: Any) -> dict[str, Any]:
    return {"type": "tally", **fields}


def test_a_tally_is_appended_and_finishes_the_game_with_its_payouts(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any, players: dict[str, Player]
) -> None:
    events = as_ids([CALL, _tally(level="re", augen=70, partner="carl")])
    response = scorer.post(_url(dealt_game), {"expected_seq": 1, "events": events})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "finished" and body["tally"] is None
    assert body["result"]["reason"] == "tally"
    assert body["result"]["payouts"][str(players["bert"].pk)] == 40
    assert LedgerEntry.objects.filter(game=dealt_game).exists()


def test_the_game_reports_what_a_tally_may_say_now(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any, players: dict[str, Player]
) -> None:
    scorer.post(_url(dealt_game), {"expected_seq": 1, "events": as_ids([CALL])})
    body = scorer.get(f"/api/games/{dealt_game.pk}/").json()
    assert body["tally"]["kind"] == "pure"
    assert body["tally"] == body["state"]["tally"]
    # The deal lists every hand: only carl can hold the called E10.
    assert body["tally"]["fields"]["partner"]["choices"] == [str(players["carl"].pk)]
    scorer.post(_url(dealt_game), {"expected_seq": 2, "events": as_ids(RAISED)})
    late = scorer.get(f"/api/games/{dealt_game.pk}/").json()["tally"]
    assert late["kind"] == "late" and late["fields"]["augen"]["min"] == 25


@pytest.mark.parametrize(
    ("before", "tally", "index", "field"),
    [
        ([CALL], {"level": "kontra", "augen": 40}, 2, "augen"),
        ([CALL], {"level": None, "won": False}, 2, "won"),
        ([CALL], {"level": "ober", "won": True}, 2, "level"),
        ([CALL], {"level": "re"}, 2, "won"),
        ([CALL], {"level": "re", "augen": 122}, 2, "augen"),
        ([CALL], {"level": "re", "won": True, "augen": 50}, 2, "augen"),
        ([CALL], {"level": "re", "won": False, "silent": True}, 2, "silent"),
        ([CALL], {"level": "re", "won": True, "fuchs": True}, 2, "fuchs"),
        ([CALL], {"level": "re", "won": True, "partner": "dora"}, 2, "partner"),
        ([CALL, *RAISED], {"level": "re", "won": True}, 10, "level"),
        ([CALL, *RAISED], {"fuchs": False, "won": True}, 10, "fuchs"),
        ([CALL, *RAISED], {"augen": 20}, 10, "augen"),
    ],
)
def test_each_invalid_tally_is_a_422_naming_the_field_and_the_stream_is_unchanged(
    scorer: PersonaClient,
    dealt_game: Game,
    as_ids: Any,
    before: list[dict[str, Any]],
    tally: dict[str, Any],
    index: int,
    field: str,
) -> None:
    events = as_ids([*before, _tally(**tally)])
    response = scorer.post(_url(dealt_game), {"expected_seq": 1, "events": events})
    assert response.status_code == 422, response.json()
    error = response.json()["error"]
    assert (error["index"], error["code"], error["field"]) == (index, "invalid_tally", field)
    assert error["message"] and response.json()["detail"]
    assert GameEvent.objects.filter(game=dealt_game).count() == 1
    dealt_game.refresh_from_db()
    assert dealt_game.last_seq == 1 and dealt_game.status == "in_progress"


def test_a_retried_tally_with_its_idempotency_key_is_appended_once(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    body = {"expected_seq": 1, "events": as_ids([CALL, _tally(level="re", won=True)])}
    first = scorer.post(_url(dealt_game), body, HTTP_IDEMPOTENCY_KEY="tally-1")
    again = scorer.post(_url(dealt_game), body, HTTP_IDEMPOTENCY_KEY="tally-1")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert GameEvent.objects.filter(game=dealt_game, type="tally").count() == 1


def test_a_dry_run_answers_the_game_as_it_would_be_and_writes_nothing(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any, players: dict[str, Player]
) -> None:
    body = {
        "expected_seq": 1,
        "events": as_ids([CALL, _tally(level="supp", won=True)]),
        "dry_run": True,
    }
    response = scorer.post(_url(dealt_game), body, HTTP_IDEMPOTENCY_KEY="dry-1")
    assert response.status_code == 200, response.json()
    answer = response.json()
    assert answer["status"] == "finished" and answer["last_seq"] == 3
    assert answer["result"]["payouts"][str(players["carl"].pk)] == 25
    assert GameEvent.objects.filter(game=dealt_game).count() == 1
    assert not IdempotencyRecord.objects.exists()
    assert not LedgerEntry.objects.filter(game=dealt_game).exists()
    dealt_game.refresh_from_db()
    assert dealt_game.last_seq == 1 and dealt_game.status == "in_progress"
    # The same request for real writes it.
    del body["dry_run"]
    assert scorer.post(_url(dealt_game), body).status_code == 201


def test_a_dry_run_of_an_invalid_tally_is_the_same_422(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    body = {"expected_seq": 1, "events": as_ids([CALL, _tally(level="re")]), "dry_run": True}
    response = scorer.post(_url(dealt_game), body)
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "won"


def _start_url(evening: Evening) -> str:
    return f"/api/evenings/{evening.pk}/games/"


def test_a_whole_deal_is_recorded_in_one_request_with_the_start(
    scorer: PersonaClient, evening: Evening, as_ids: Any, players: dict[str, Player]
) -> None:
    events = as_ids([records.DEAL, CALL, _tally(level="re", augen=70, partner="carl")])
    response = scorer.post(_start_url(evening), {"events": events})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "finished" and body["last_seq"] == 3
    game = Game.objects.get(pk=body["id"])
    assert GameEvent.objects.filter(game=game).count() == 3
    assert body["result"]["payouts"][str(players["carl"].pk)] == 20


def test_a_start_with_an_invalid_tally_writes_no_game(
    scorer: PersonaClient, evening: Evening, as_ids: Any
) -> None:
    events = as_ids([records.DEAL, CALL, _tally(level="kontra", silent=True)])
    response = scorer.post(_start_url(evening), {"events": events})
    assert response.status_code == 422
    error = response.json()["error"]
    assert (error["index"], error["code"], error["field"]) == (2, "invalid_tally", "silent")
    assert not Game.objects.filter(evening=evening).exists()


def test_a_dry_run_start_answers_the_game_and_writes_nothing(
    scorer: PersonaClient, evening: Evening, as_ids: Any
) -> None:
    deal = as_ids([records.DEAL])[0]
    del deal["type"]
    events = as_ids([CALL, _tally(level="re", won=False, partner="carl")])
    response = scorer.post(_start_url(evening), {"deal": deal, "events": events, "dry_run": True})
    assert response.status_code == 200, response.json()
    assert response.json()["result"]["won"] is False
    assert not Game.objects.filter(evening=evening).exists()
    assert not LedgerEntry.objects.exists()


def test_the_services_take_the_events_and_judge_them_without_writing(
    evening: Evening, as_ids: Any
) -> None:
    started = services.game_started(
        evening=evening,
        user=None,
        events=as_ids([records.DEAL, CALL]),
        dry_run=True,
    )
    assert started.game.pk is None and started.state["tally"]["kind"] == "pure"
    game = services.game_start(evening=evening, user=None, deal=None)
    tallied = services.game_events_judge(
        game=game, user=None, expected_seq=1, events=[{"type": "annul"}]
    ).game
    assert tallied.status == "annulled"
    game.refresh_from_db()
    assert game.status == "in_progress" and game.last_seq == 1
