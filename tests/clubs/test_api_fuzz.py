"""Schemathesis sends generated input, valid and invalid, to every clubs endpoint.

Whatever arrives, the answer is never a server error. The club's slug is pinned
to a real club (random slugs would only ever meet a 404); ids stay random.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from clubs.models import Club
from clubs.services import api_token_create
from stichbuch.wsgi import application
from tests.conftest import PersonaClient
from tests.factories import PlayerFactory, RuleProfileFactory, SeasonFactory

# Loaded at collection (schemathesis' lazy fixture loader does not run on pytest 9).
schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
CLUBS_API = r"^/api/(clubs|auth|invitations|house-rules)/"


@pytest.fixture
def owner_token(club: Club, owner: PersonaClient) -> str:
    PlayerFactory.create(club=club)
    SeasonFactory.create(club=club)
    RuleProfileFactory.create(club=club)
    assert owner.user is not None
    return api_token_create(user=owner.user, name="test")


@pytest.mark.django_db
@schema.include(path_regex=CLUBS_API).parametrize()
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_generated_request_gets_a_server_error(case: Any, club: Club, owner_token: str) -> None:
    if case.path_parameters and "slug" in case.path_parameters:
        case.path_parameters["slug"] = club.slug
    # tests/conftest.py keeps the test's database connection open across the call.
    response = case.call(headers={"Authorization": f"Token {owner_token}"})
    case.validate_response(response, checks=[not_a_server_error])
