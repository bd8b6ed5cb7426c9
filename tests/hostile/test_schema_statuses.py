"""The OpenAPI schema documents every refusal an operation can give, from one place
(``stichbuch.schema.AutoSchema``), and the API refuses what the schema forbids:
``page_size=null``, an empty ``?game=``; an account without address has ``email: null``."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import Club
from tests.conftest import PersonaClient
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def operations() -> dict[tuple[str, str], dict[str, Any]]:
    from drf_spectacular.generators import SchemaGenerator

    document = SchemaGenerator().get_schema(request=None, public=True)
    return {
        (method.upper(), path): operation
        for path, item in document["paths"].items()
        for method, operation in item.items()
    }


def _statuses(
    operations: dict[tuple[str, str], dict[str, Any]], method: str, path: str
) -> set[str]:
    return set(operations[(method, path)]["responses"])


def test_a_write_documents_bad_input_login_role_absence_conflict_size_type_and_rules(
    operations: dict[tuple[str, str], dict[str, Any]],
) -> None:
    statuses = _statuses(operations, "POST", "/api/games/{game_id}/events/")
    assert {"400", "401", "403", "404", "409", "413", "415", "422"} <= statuses


def test_a_list_documents_bad_filters_and_missing_pages(
    operations: dict[tuple[str, str], dict[str, Any]],
) -> None:
    statuses = _statuses(operations, "GET", "/api/clubs/{slug}/seasons/")
    assert {"200", "400", "401", "403", "404"} <= statuses
    assert "422" not in statuses  # a read breaks no rule of the game


def test_logging_in_documents_the_throttle_but_no_login_refusal(
    operations: dict[tuple[str, str], dict[str, Any]],
) -> None:
    statuses = _statuses(operations, "POST", "/api/auth/token/")
    assert {"400", "429"} <= statuses
    assert "401" not in statuses


def test_every_operation_documents_a_refusal_with_the_error_shape(
    operations: dict[tuple[str, str], dict[str, Any]],
) -> None:
    for key, operation in operations.items():
        refusals = [code for code in operation["responses"] if code.startswith("4")]
        assert refusals, key


def test_page_size_null_or_out_of_range_is_a_400_naming_it(
    owner: PersonaClient, club: Club
) -> None:
    slug = club.slug
    for bad in ("null", "0", "abc", "201", "1.5", "²"):
        response = owner.get(f"/api/clubs/{slug}/players/?page_size={bad}")
        assert response.status_code == 400, (bad, response.content)
        assert "page_size" in response.json()
    assert owner.get(f"/api/clubs/{slug}/players/?page_size=200").status_code == 200


def test_an_empty_query_parameter_is_a_400_naming_it(owner: PersonaClient, club: Club) -> None:
    slug = club.slug
    response = owner.get(f"/api/clubs/{slug}/all-time/?game=")
    assert response.status_code == 400
    assert list(response.json()) == ["game"]
    assert owner.get(f"/api/clubs/{slug}/all-time/").status_code == 200
    assert owner.get(f"/api/clubs/{slug}/all-time/?game=fuchsen").status_code == 200


def test_an_account_without_address_answers_email_null() -> None:
    user = UserFactory.create(username="ohne", email="")
    client = APIClient()
    client.force_authenticate(user)
    me = client.get("/api/auth/me/")
    assert me.status_code == 200, me.content
    assert me.json()["email"] is None


def test_the_refusals_are_in_german_first(owner: PersonaClient, club: Club) -> None:
    page_size = owner.get(f"/api/clubs/{club.slug}/players/?page_size=null")
    assert "ganze Zahl" in page_size.json()["page_size"][0]
    empty = owner.get(f"/api/clubs/{club.slug}/all-time/?game=")
    assert "weglassen" in empty.json()["game"][0]


@pytest.mark.parametrize(
    "body",
    [
        {"display_name": 5},
        {"display_name": "Resi", "is_active": "yes"},
        {"display_name": "Resi", "is_active": 1},
    ],
)
def test_a_body_with_a_json_type_other_than_the_schemas_is_a_400(
    owner: PersonaClient, club: Club, body: dict[str, Any]
) -> None:
    player = PlayerFactory.create(club=club, display_name="Alt")
    response = owner.post(
        f"/api/clubs/{club.slug}/players/{player.pk}/update/", body, format="json"
    )
    assert response.status_code == 400, response.content
    player.refresh_from_db()
    assert player.display_name == "Alt"


def test_a_bare_null_body_is_a_400_not_an_empty_form(owner: PersonaClient, club: Club) -> None:
    response = owner.post(
        f"/api/clubs/{club.slug}/invitations/create/", "null", content_type="application/json"
    )
    assert response.status_code == 400
    assert "non_field_errors" in response.json()
