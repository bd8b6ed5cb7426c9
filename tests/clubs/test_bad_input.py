"""Bad input is a 400 with field messages, never a 500."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Club
from tests.conftest import PersonaClient
from tests.factories import PlayerFactory, RuleProfileFactory, SeasonFactory


def test_a_body_that_is_not_json_is_a_400(club: Club, owner: PersonaClient) -> None:
    response = owner.generic(
        "POST",
        f"/api/clubs/{club.slug}/players/create/",
        "{display_name: Hansi",
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "detail" in response.json()


def test_a_json_list_instead_of_an_object_is_a_400(club: Club, owner: PersonaClient) -> None:
    response = owner.post(f"/api/clubs/{club.slug}/players/create/", ["Hansi"], format="json")
    assert response.status_code == 400
    assert "non_field_errors" in response.json()


def test_wrong_types_are_a_400_naming_each_field(club: Club, owner: PersonaClient) -> None:
    response = owner.post(
        f"/api/clubs/{club.slug}/seasons/create/",
        {"name": ["x"], "game_kind": "schnapsen", "start": "gestern"},
        format="json",
    )
    assert response.status_code == 400
    assert {"name", "game_kind", "start"} <= set(response.json())


def test_an_unknown_time_zone_is_a_400_naming_it(owner: PersonaClient) -> None:
    response = owner.post(
        "/api/clubs/create/", {"name": "X", "time_zone": "Mars/Olympus"}, format="json"
    )
    assert response.status_code == 400
    assert "time_zone" in response.json()


def test_a_missing_field_is_a_400_naming_it(club: Club, owner: PersonaClient) -> None:
    response = owner.post(f"/api/clubs/{club.slug}/players/create/", {}, format="json")
    assert response.status_code == 400
    assert "display_name" in response.json()


@pytest.mark.parametrize("edge", ["\u001c", " ", "\t"])
def test_a_name_longer_than_its_documented_maximum_is_a_400_even_if_trimming_would_shorten_it(
    club: Club, owner: PersonaClient, edge: str
) -> None:
    # 61 characters as sent: the schema's maxLength (60) is about the JSON string.
    name = edge + "A" * 60
    response = owner.post(
        f"/api/clubs/{club.slug}/players/create/", {"display_name": name}, format="json"
    )
    assert response.status_code == 400
    assert "display_name" in response.json()
    assert not club.players.filter(display_name="A" * 60).exists()


def test_a_season_name_over_its_documented_maximum_is_a_400_even_if_trimming_would_shorten_it(
    club: Club, owner: PersonaClient
) -> None:
    response = owner.post(
        f"/api/clubs/{club.slug}/seasons/create/",
        {"name": "S" * 100 + "\u001f", "game_kind": "fuchsen", "start": "2026-01-01"},
        format="json",
    )
    assert response.status_code == 400
    assert "name" in response.json()
    assert not club.seasons.exists()


def test_a_name_of_exactly_the_maximum_is_taken(club: Club, owner: PersonaClient) -> None:
    response = owner.post(
        f"/api/clubs/{club.slug}/players/create/", {"display_name": "A" * 60}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["display_name"] == "A" * 60


def test_a_bad_query_parameter_is_a_400(club: Club, member: PersonaClient) -> None:
    response = member.get(f"/api/clubs/{club.slug}/players/?active=vielleicht")
    assert response.status_code == 400
    assert "active" in response.json()


GARBAGE: list[Any] = [
    None,
    [],
    "x",
    12,
    {"role": 7, "name": {}, "start": [], "overrides": "x", "display_name": None},
    {"player": "eins", "days_valid": 0, "rule_profile": -1, "end": "31.12."},
    {"name": "x" * 500, "game_kind": None, "time_zone": 5, "is_active": "kaputt"},
]


@pytest.mark.parametrize("body", GARBAGE, ids=lambda body: repr(body)[:30])
def test_no_write_endpoint_answers_garbage_with_a_500(
    club: Club, owner: PersonaClient, body: Any
) -> None:
    player = PlayerFactory.create(club=club)
    season = SeasonFactory.create(club=club)
    profile = RuleProfileFactory.create(club=club)
    base = f"/api/clubs/{club.slug}"
    urls = [
        "/api/clubs/create/",
        f"{base}/update/",
        f"{base}/invitations/create/",
        f"{base}/players/create/",
        f"{base}/players/{player.pk}/update/",
        f"{base}/seasons/create/",
        f"{base}/seasons/{season.pk}/close/",
        f"{base}/rule-profiles/create/",
        f"{base}/rule-profiles/{profile.pk}/update/",
        "/api/auth/token/",
        "/api/auth/signup/",
    ]
    for url in urls:
        response = owner.post(url, body, format="json")
        assert response.status_code < 500, (url, response.status_code)


def test_a_value_the_database_refuses_is_a_400_not_a_500() -> None:
    from django.db import DataError

    from stichbuch.api import exception_handler

    response = exception_handler(DataError("integer out of range"), {})
    assert response is not None
    assert response.status_code == 400
