"""Hostile records and events into append and import: refused (400/413/422), nothing written.

Extends ``tests/games/test_junk_input.py`` (random junk) with what an attacker
or a broken client sends on purpose: deep nesting, huge arrays and strings,
lone surrogates and other odd Unicode, negative and enormous numbers, cards of
the other game, unknown fields, absurd house rules — and the limits, each with
its message.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Player
from engine.generate import random_game
from games.apis import MAX_EVENTS_PER_REQUEST
from games.models import Evening, Game, GameEvent, IdempotencyRecord
from games.services import MAX_IMPORT_RECORDS
from ledger.models import LedgerEntry
from stichbuch.parsers import MAX_JSON_DEPTH
from tests.conftest import PersonaClient

pytestmark = pytest.mark.django_db

HYPOTHESIS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

REFUSED = {400, 413, 422}


def rows() -> tuple[int, int, int, int]:
    return (
        Game.objects.count(),
        GameEvent.objects.count(),
        IdempotencyRecord.objects.count(),
        LedgerEntry.objects.count(),
    )


def post_raw(client: PersonaClient, url: str, body: str | bytes) -> Any:
    return client.generic("POST", url, body, content_type="application/json")  # type: ignore[arg-type]


def post_json(client: PersonaClient, url: str, body: Any) -> Any:
    """Post ``body`` as ASCII JSON: lone surrogates travel as ``\\udxxx`` escapes."""
    return post_raw(client, url, json.dumps(body))


def nested(depth: int, leaf: Any = 1) -> Any:
    value = leaf
    for i in range(depth):
        value = [value] if i % 2 else {"x": value}
    return value


odd_text = st.one_of(
    st.text(min_size=1, max_size=30),
    st.sampled_from(
        ["\u202eEO", "E\u200bO", "ＥＯ", "eo", "🂡", "\x00", "a" * 5000, "\ud83c", "EO\n", " EO"]
    ),
)
numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
)
# Cards of the other game: Königrufen has tarock cards and hearts, Fuchsen neither.
other_game_cards = st.sampled_from(["T1", "T21", "HK", "H10", "KK", "XX", "G6", "S6"])
scalar = st.none() | st.booleans() | numbers | odd_text


def hostile_event(player_ids: list[str]) -> st.SearchStrategy[Any]:
    players = st.sampled_from(player_ids) | odd_text | numbers
    return st.one_of(
        st.fixed_dictionaries(
            {"type": st.sampled_from(["play", "call", "raise", "bid", "join", "forfeit"])},
            optional={
                "player": players,
                "card": other_game_cards | odd_text | numbers,
                "level": scalar,
                "contract": scalar,
                "fuchs": scalar,
                "turned": scalar,
                "called": other_game_cards,
                "unknown_field": scalar,
            },
        ),
        st.builds(
            lambda n: {"type": "play", "player": player_ids[0], "card": "EO", "x": [0] * n},
            st.integers(min_value=500, max_value=1000),
        ),
        st.builds(
            lambda d: {"type": "play", "player": player_ids[0], "card": nested(d)},
            st.integers(min_value=1, max_value=60),
        ),
        st.just({"type": "bid", "player": player_ids[1], "contract": "bettler"}),
        st.just({"type": "play", "player": player_ids[1], "card": "T21"}),
        st.just({"type": "deal", "dealer": "-1", "players": ["-1", "-2", "-3", "-4"]}),
    )


@HYPOTHESIS
@given(data=st.data())
def test_hostile_events_appended_to_a_game_are_refused_and_write_nothing(
    scorer: PersonaClient, dealt_game: Game, players: dict[str, Player], data: st.DataObject
) -> None:
    ids = [str(p.pk) for p in players.values()]
    events = data.draw(st.lists(hostile_event(ids), min_size=1, max_size=4))
    expected_seq = data.draw(st.just(1) | st.integers(min_value=-5, max_value=2**40) | scalar)
    before = rows()
    response = post_json(
        scorer,
        f"/api/games/{dealt_game.pk}/events/",
        {"expected_seq": expected_seq, "events": events},
    )
    assert response.status_code in REFUSED | {409}, (events, response.content)
    assert rows() == before


def hostile_record(player_ids: list[str]) -> st.SearchStrategy[Any]:
    deal = {"type": "deal", "dealer": "anna", "players": ["anna", "bert", "carl", "dora", "emil"]}
    return st.fixed_dictionaries(
        {
            "game": st.sampled_from(["fuchsen", "koenigrufen"]) | scalar,
            "events": st.lists(hostile_event(player_ids), min_size=1, max_size=4).map(
                lambda e: [deal, *e]
            ),
        },
        optional={
            "rules": st.dictionaries(
                st.sampled_from(["min_value", "game_cost", "level_values", "bogus"]),
                numbers | scalar | st.just({"kontra": 10**30}),
                max_size=3,
            ),
            "extra": scalar,
        },
    )


@HYPOTHESIS
@given(data=st.data())
def test_hostile_records_imported_are_refused_and_write_nothing(
    scorer: PersonaClient, evening: Evening, players: dict[str, Player], data: st.DataObject
) -> None:
    records = data.draw(st.lists(hostile_record(["anna", "bert"]), min_size=1, max_size=3))
    before = rows()
    response = post_json(scorer, f"/api/evenings/{evening.pk}/import/", records)
    assert response.status_code in REFUSED, (records, response.content)
    assert rows() == before


@pytest.mark.parametrize(
    "rules",
    [
        {"min_value": 10**30},
        {"min_value": 2**62},
        {"level_values": {"kontra": -(10**19)}},
        {"game_cost": True},
    ],
)
def test_a_complete_game_with_absurd_house_rules_is_refused_by_the_engine(
    scorer: PersonaClient, evening: Evening, players: dict[str, Player], rules: dict[str, Any]
) -> None:
    record = {**random_game(5, "fuchsen", 5), "rules": rules}
    before = rows()
    response = scorer.post(f"/api/evenings/{evening.pk}/import/", record, format="json")
    assert response.status_code == 422, response.content
    assert response.json()["results"][0]["error"]["code"] == "invalid_rules"
    assert rows() == before


# --- Malformed bodies, for every writing endpoint -------------------------------------------

BAD_BODIES = {
    "deeply nested": "[" * 100_000 + "]" * 100_000,
    "nested past the limit": json.dumps(nested(MAX_JSON_DEPTH + 1)),
    "a lone surrogate": '{"expected_seq": 1, "events": [{"type": "play", "player": "\\ud800"}]}',
    "a surrogate as a key": '{"\\udfff": 1}',
    "NaN": '{"expected_seq": NaN, "events": []}',
    "a number of 5000 digits": '{"expected_seq": 1' + "0" * 5000 + "}",
    "not UTF-8": b'{"expected_seq": 1, "events": [{"type": "\xff\xfe"}]}',
    "truncated": '{"expected_seq": 1, "events": [{"type": "pl',
    "empty object": "{}",
    "a bare string": '"events"',
}


@pytest.mark.parametrize(
    ("target", "body"),
    [
        pytest.param(target, body, id=f"{target}-{name}")
        for target in ("append", "import", "start", "seat", "evening")
        for name, body in BAD_BODIES.items()
        # An empty body starts a game with the proposed deal: that is no bad input.
        if not (target == "start" and body == "{}")
    ],
)
def test_a_malformed_body_is_a_400_everywhere_and_writes_nothing(
    scorer: PersonaClient, dealt_game: Game, evening: Evening, body: str | bytes, target: str
) -> None:
    url = {
        "append": f"/api/games/{dealt_game.pk}/events/",
        "import": f"/api/evenings/{evening.pk}/import/",
        "start": f"/api/evenings/{evening.pk}/games/",
        "seat": f"/api/evenings/{evening.pk}/seats/",
        "evening": f"/api/clubs/{evening.club.slug}/evenings/",
    }[target]
    before = rows()
    response = post_raw(scorer, url, body)
    assert response.status_code in (400, 422), response.content
    assert "detail" in response.json() or response.json()
    assert rows() == before


# --- The limits, each with a clear message ----------------------------------------------------


def test_a_body_over_the_upload_limit_is_a_413_naming_the_limit(
    scorer: PersonaClient, dealt_game: Game, settings: Any
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    body = json.dumps({"expected_seq": 1, "events": [{"type": "undo", "x": "a" * 20_000}]})
    before = rows()
    response = post_raw(scorer, f"/api/games/{dealt_game.pk}/events/", body)
    assert response.status_code == 413
    assert "10000" in response.json()["detail"]
    assert rows() == before


def test_more_events_than_allowed_in_one_request_are_a_400_naming_the_limit(
    scorer: PersonaClient, dealt_game: Game
) -> None:
    events = [{"type": "undo"}] * (MAX_EVENTS_PER_REQUEST + 1)
    response = scorer.post(
        f"/api/games/{dealt_game.pk}/events/", {"expected_seq": 1, "events": events}, format="json"
    )
    assert response.status_code == 400
    assert str(MAX_EVENTS_PER_REQUEST) in json.dumps(response.json()["events"])
    assert GameEvent.objects.count() == 1


def test_one_huge_event_is_a_400_naming_the_event(scorer: PersonaClient, dealt_game: Game) -> None:
    events = [{"type": "annul", "reason": "x" * 100_000}]
    response = scorer.post(
        f"/api/games/{dealt_game.pk}/events/", {"expected_seq": 1, "events": events}, format="json"
    )
    assert response.status_code == 400
    # German first; English for a client that asks for it.
    assert "Eintrag 0" in json.dumps(response.json(), ensure_ascii=False)
    response = scorer.post(
        f"/api/games/{dealt_game.pk}/events/",
        {"expected_seq": 1, "events": events},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "Event 0" in json.dumps(response.json(), ensure_ascii=False)
    assert GameEvent.objects.count() == 1


def test_more_records_than_allowed_in_one_import_are_a_400_naming_the_limit(
    scorer: PersonaClient, evening: Evening
) -> None:
    records = [{"game": "fuchsen", "events": []}] * (MAX_IMPORT_RECORDS + 1)
    response = scorer.post(f"/api/evenings/{evening.pk}/import/", records, format="json")
    assert response.status_code == 400
    assert str(MAX_IMPORT_RECORDS) in json.dumps(response.json()["records"])
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("path", "field", "limit"),
    [
        ("players/create/", "display_name", 60),
        ("seasons/create/", "name", 100),
        ("rule-profiles/create/", "name", 100),
    ],
)
def test_a_name_longer_than_its_limit_is_a_400_naming_the_field(
    owner: PersonaClient, evening: Evening, path: str, field: str, limit: int
) -> None:
    body: dict[str, Any] = {field: "N" * (limit + 1), "game_kind": "fuchsen", "start": "2026-01-01"}
    response = owner.post(f"/api/clubs/{evening.club.slug}/{path}", body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert str(limit) in json.dumps(response.json()[field])


def test_a_club_name_longer_than_its_limit_is_a_400(owner: PersonaClient) -> None:
    response = owner.post("/api/clubs/create/", {"name": "K" * 101}, format="json")
    assert response.status_code == 400
    assert "100" in json.dumps(response.json()["name"])


def test_an_idempotency_key_longer_than_255_characters_is_a_400(
    scorer: PersonaClient, dealt_game: Game
) -> None:
    response = scorer.post(
        f"/api/games/{dealt_game.pk}/events/",
        {"expected_seq": 1, "events": [{"type": "undo"}]},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k" * 256,
    )
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()
    assert rows()[1] == 1
