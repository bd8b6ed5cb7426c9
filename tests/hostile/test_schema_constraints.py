"""The schema states the constraints the API enforces (issue 38, point 11): an
Idempotency-Key of 1 to 255 characters, not only blanks; a time zone's name; each
tie-break key once; house-rule overrides as an object. Each is also refused as the
schema says (400), so a client generating from the schema meets no surprise."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Club
from games.models import Game
from tests.conftest import PersonaClient

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return schema


def _body(document: dict[str, Any], path: str) -> dict[str, Any]:
    ref = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    name = ref["$ref"].rsplit("/", 1)[-1]
    properties: dict[str, Any] = document["components"]["schemas"][name]["properties"]
    return properties


def test_the_idempotency_key_is_1_to_255_characters_not_only_blanks(
    document: dict[str, Any], scorer: PersonaClient, dealt_game: Game
) -> None:
    (header,) = [
        p
        for p in document["paths"]["/api/games/{game_id}/events/"]["post"]["parameters"]
        if p["name"] == "Idempotency-Key"
    ]
    assert header["schema"] == {
        "type": "string",
        "minLength": 1,
        "maxLength": 255,
        "pattern": r"\S",
    }
    url = f"/api/games/{dealt_game.pk}/events/"
    for key in ("", "   ", "k" * 256):
        refused = scorer.post(url, {"expected_seq": 1, "events": []}, HTTP_IDEMPOTENCY_KEY=key)
        assert refused.status_code == 400, key
        assert "Idempotency-Key" in refused.json()


def test_a_time_zone_is_one_of_the_databases_names(
    document: dict[str, Any], owner: PersonaClient
) -> None:
    zone = _body(document, "/api/clubs/create/")["time_zone"]
    enum = document["components"]["schemas"][zone["allOf"][0]["$ref"].rsplit("/", 1)[-1]]["enum"]
    assert "Europe/Vienna" in enum and "Mars/Olympus" not in enum
    refused = owner.post("/api/clubs/create/", {"name": "X", "time_zone": "Mars/Olympus"})
    assert refused.status_code == 400 and "time_zone" in refused.json()


def test_the_tie_break_names_each_key_once(
    document: dict[str, Any], owner: PersonaClient, club: Club
) -> None:
    path = "/api/clubs/{slug}/standings-config/update/"
    tie_break = _body(document, path)["tie_break"]
    assert tie_break["uniqueItems"] is True
    refused = owner.post(
        f"/api/clubs/{club.slug}/standings-config/update/", {"tie_break": ["net", "net"]}
    )
    assert refused.status_code == 400 and "tie_break" in refused.json()


@pytest.mark.parametrize("overrides", ["x", 5, [1], None])
def test_house_rule_overrides_are_an_object(
    document: dict[str, Any], owner: PersonaClient, club: Club, overrides: object
) -> None:
    assert (
        _body(document, "/api/clubs/{slug}/rule-profiles/create/")["overrides"]["type"] == "object"
    )
    refused = owner.post(
        f"/api/clubs/{club.slug}/rule-profiles/create/",
        {"name": "Haus", "game_kind": "fuchsen", "overrides": overrides},
    )
    assert refused.status_code == 400 and "overrides" in refused.json()
