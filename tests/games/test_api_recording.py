"""Recording over the API: 201 with the new state, 409 on a stale seq, 422 on an illegal event."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Player
from games.models import Game, GameEvent, IdempotencyRecord
from tests.conftest import PersonaClient
from tests.games import records

pytestmark = pytest.mark.django_db


def _url(game: Game) -> str:
    return f"/api/games/{game.pk}/events/"


def test_a_scorer_appends_events_and_gets_the_new_state(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any, players: dict[str, Player]
) -> None:
    response = scorer.post(
        _url(dealt_game), {"expected_seq": 1, "events": as_ids(records.NO_KONTRA[:2])}
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["last_seq"] == 3
    assert body["status"] == "in_progress"
    assert body["state"]["to_act"] == str(players["carl"].pk)
    assert [e["seq"] for e in body["events"]] == [1, 2, 3]
    assert body["events"][2]["recorded_by"] == "scorer"
    assert body["players"][str(players["anna"].pk)] == "Anna"


def test_a_stale_expected_seq_is_a_409_with_the_current_seq(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    scorer.post(_url(dealt_game), {"expected_seq": 1, "events": as_ids(records.NO_KONTRA[:1])})
    response = scorer.post(
        _url(dealt_game), {"expected_seq": 1, "events": as_ids(records.NO_KONTRA[1:2])}
    )
    assert response.status_code == 409
    assert response.json()["current_seq"] == 2
    assert GameEvent.objects.filter(game=dealt_game).count() == 2


def test_an_illegal_event_is_a_422_with_the_engines_error_and_the_stream_is_unchanged(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    response = scorer.post(
        _url(dealt_game), {"expected_seq": 1, "events": as_ids(records.ILLEGAL_PLAY)}
    )
    assert response.status_code == 422
    body = response.json()
    assert body["error"]["index"] == 3
    assert body["error"]["code"] == "card_not_in_hand"
    assert body["error"]["message"] and body["detail"]  # detail: in German (test_engine_text)
    assert body["event_offset"] == 1  # so the client's own event is number 3 - 1 = 2
    assert list(GameEvent.objects.filter(game=dealt_game).values_list("seq", flat=True)) == [1]


def test_a_malformed_event_is_the_engines_malformed_event(
    scorer: PersonaClient, dealt_game: Game
) -> None:
    response = scorer.post(_url(dealt_game), {"expected_seq": 1, "events": [{"type": "jump"}]})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "malformed_event"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"events": [{"type": "undo"}]}, "expected_seq"),
        ({"expected_seq": -1, "events": [{"type": "undo"}]}, "expected_seq"),
        ({"expected_seq": 1}, "events"),
        ({"expected_seq": 1, "events": []}, "events"),
        ({"expected_seq": 1, "events": ["undo"]}, "events"),
        ({"expected_seq": 1, "events": {"type": "undo"}}, "events"),
        ({"expected_seq": 1, "events": [{"type": "undo"}] * 201}, "events"),
        ({"expected_seq": 1, "events": [{"type": "show", "cards": ["x" * 5000]}]}, "events"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(
    scorer: PersonaClient, dealt_game: Game, body: dict[str, Any], field: str
) -> None:
    response = scorer.post(_url(dealt_game), body)
    assert response.status_code == 400
    assert field in response.json()
    assert GameEvent.objects.filter(game=dealt_game).count() == 1


def test_a_retry_with_the_same_idempotency_key_appends_once_and_gets_the_first_answer(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    body = {"expected_seq": 1, "events": as_ids(records.NO_KONTRA[:1])}
    first = scorer.post(_url(dealt_game), body, HTTP_IDEMPOTENCY_KEY="k-1")
    again = scorer.post(_url(dealt_game), body, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert GameEvent.objects.filter(game=dealt_game).count() == 2
    assert GameEvent.objects.get(game=dealt_game, seq=2).idempotency_key == "k-1"


def test_the_same_idempotency_key_on_another_request_is_a_422(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    scorer.post(
        _url(dealt_game),
        {"expected_seq": 1, "events": as_ids(records.NO_KONTRA[:1])},
        HTTP_IDEMPOTENCY_KEY="k-2",
    )
    response = scorer.post(
        _url(dealt_game),
        {"expected_seq": 2, "events": as_ids(records.NO_KONTRA[1:2])},
        HTTP_IDEMPOTENCY_KEY="k-2",
    )
    assert response.status_code == 422
    assert "Idempotency-Key" in response.json()["detail"]
    assert GameEvent.objects.filter(game=dealt_game).count() == 2


def test_a_rejected_request_stores_no_answer_for_its_key(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    response = scorer.post(
        _url(dealt_game),
        {"expected_seq": 1, "events": as_ids(records.ILLEGAL_PLAY)},
        HTTP_IDEMPOTENCY_KEY="k-3",
    )
    assert response.status_code == 422
    assert not IdempotencyRecord.objects.filter(key="k-3").exists()


def test_keys_belong_to_their_user(
    scorer: PersonaClient, admin: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    body = {"expected_seq": 1, "events": as_ids(records.NO_KONTRA[:1])}
    assert scorer.post(_url(dealt_game), body, HTTP_IDEMPOTENCY_KEY="same").status_code == 201
    # Another user with the same key is another request: here a stale one.
    assert admin.post(_url(dealt_game), body, HTTP_IDEMPOTENCY_KEY="same").status_code == 409


def test_undo_and_annul_go_through_the_api_as_events(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    response = scorer.post(
        _url(dealt_game), {"expected_seq": 1, "events": as_ids(records.NO_KONTRA)}
    )
    assert response.json()["status"] == "finished"
    response = scorer.post(_url(dealt_game), {"expected_seq": 8, "events": [{"type": "undo"}]})
    assert response.json()["status"] == "in_progress"
    response = scorer.post(_url(dealt_game), {"expected_seq": 9, "events": [{"type": "annul"}]})
    assert response.status_code == 201
    assert response.json()["result"] == {"status": "annulled", "game": "fuchsen"}
    assert [e["type"] for e in response.json()["events"]][-2:] == ["undo", "annul"]


def test_the_game_page_shows_whose_turn_it_is_and_what_is_legal(
    member: PersonaClient, dealt_game: Game, players: dict[str, Player]
) -> None:
    response = member.get(f"/api/games/{dealt_game.pk}/")
    assert response.status_code == 200
    body = response.json()
    assert body["number"] == 1
    assert body["house_rules"] == {}
    assert body["state"]["awaiting"] == "call"
    assert body["state"]["to_act"] == str(players["bert"].pk)
    assert "E10" in body["state"]["legal"]["calls"]["cards"]
    assert set(body["players"].values()) == {"Anna", "Bert", "Carl", "Dora", "Emil"}


def test_a_nul_character_in_an_event_is_a_400(scorer: PersonaClient, dealt_game: Game) -> None:
    response = scorer.post(
        _url(dealt_game), {"expected_seq": 1, "events": [{"type": "annul", "reason": "a\x00b"}]}
    )
    assert response.status_code == 400
    assert GameEvent.objects.filter(game=dealt_game).count() == 1


def test_a_new_deal_after_an_undo_may_seat_only_players_of_the_club(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any
) -> None:
    strangers = {"type": "deal", "dealer": "x", "players": ["x", "y", "z", "w"]}
    response = scorer.post(
        _url(dealt_game), {"expected_seq": 1, "events": [{"type": "undo"}, strangers]}
    )
    assert response.status_code == 400
    redeal = as_ids(
        [{"type": "deal", "dealer": "bert", "players": ["anna", "bert", "carl", "dora"]}]
    )
    response = scorer.post(
        _url(dealt_game), {"expected_seq": 1, "events": [{"type": "undo"}, *redeal]}
    )
    assert response.status_code == 201, response.json()
    assert response.json()["state"]["dealer"] == redeal[0]["dealer"]
