"""Who may call which ledger endpoint: every endpoint × every persona.

Members read everything of their club; scorers and up record payments, make
settlement plans and mark transfers paid; admins and owners change the
standings configuration. A non-member (the owner of another club) gets 404,
an anonymous visitor 401.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from clubs.models import Club
from ledger.models import SettlementPlan
from ledger.services import settlement_plan_create
from tests.conftest import PERSONAS, PersonaClient
from tests.ledger.factories import Table, finish, make_table

pytestmark = pytest.mark.django_db

MEMBER = {"owner", "admin", "scorer", "member"}
SCORER = {"owner", "admin", "scorer"}
ADMIN = {"owner", "admin"}


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str  # formatted with slug, season, evening, plan, transfer, player
    allowed: frozenset[str]
    ok: int = 200
    body: Callable[[Table], dict[str, Any]] | None = None


ENDPOINTS = [
    Endpoint("balances", "get", "/api/clubs/{slug}/balances/?season={season}", frozenset(MEMBER)),
    Endpoint("balances csv", "get", "/api/clubs/{slug}/balances/csv/", frozenset(MEMBER)),
    Endpoint("payment list", "get", "/api/clubs/{slug}/payments/", frozenset(MEMBER)),
    Endpoint(
        "payment create",
        "post",
        "/api/clubs/{slug}/payments/create/",
        frozenset(SCORER),
        201,
        lambda t: {"payer": t.players[1].pk, "payee": t.players[0].pk, "amount": 5},
    ),
    Endpoint("plan list", "get", "/api/clubs/{slug}/settlement-plans/", frozenset(MEMBER)),
    Endpoint(
        "plan create",
        "post",
        "/api/clubs/{slug}/settlement-plans/create/",
        frozenset(SCORER),
        201,
        lambda t: {"evening": t.evening.pk},
    ),
    Endpoint("plan detail", "get", "/api/clubs/{slug}/settlement-plans/{plan}/", frozenset(MEMBER)),
    Endpoint(
        "plan csv", "get", "/api/clubs/{slug}/settlement-plans/{plan}/csv/", frozenset(MEMBER)
    ),
    Endpoint(
        "transfer mark paid",
        "post",
        "/api/clubs/{slug}/settlement-plans/{plan}/transfers/{transfer}/mark-paid/",
        frozenset(SCORER),
    ),
    Endpoint(
        "standings", "get", "/api/clubs/{slug}/seasons/{season}/standings/", frozenset(MEMBER)
    ),
    Endpoint("ratings", "get", "/api/clubs/{slug}/seasons/{season}/ratings/", frozenset(MEMBER)),
    Endpoint(
        "rating history",
        "get",
        "/api/clubs/{slug}/seasons/{season}/ratings/{player}/",
        frozenset(MEMBER),
    ),
    Endpoint("series", "get", "/api/clubs/{slug}/seasons/{season}/series/", frozenset(MEMBER)),
    Endpoint("standings config", "get", "/api/clubs/{slug}/standings-config/", frozenset(MEMBER)),
    Endpoint(
        "standings config update",
        "post",
        "/api/clubs/{slug}/standings-config/update/",
        frozenset(ADMIN),
        200,
        lambda t: {"min_games": 1},
    ),
]


@pytest.fixture
def played(club: Club, django_capture_on_commit_callbacks: Callable[..., Any]) -> Table:
    table = make_table(club=club, players=3)
    with django_capture_on_commit_callbacks(execute=True):
        finish(
            table.new_game(),
            {table.pk(0): 20, table.pk(1): -10, table.pk(2): -10},
            declarers=[table.pk(0)],
        )
    return table


def url_for(endpoint: Endpoint, table: Table, plan: SettlementPlan) -> str:
    transfer = plan.transfers.first()
    assert transfer is not None
    return endpoint.path.format(
        slug=table.club.slug,
        season=table.season.pk,
        evening=table.evening.pk,
        plan=plan.pk,
        transfer=transfer.pk,
        player=table.players[0].pk,
    )


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.name)
def test_each_persona_gets_the_answer_its_role_allows(
    played: Table,
    persona_client: Callable[[str], PersonaClient],
    endpoint: Endpoint,
    persona: str,
) -> None:
    plan = settlement_plan_create(club=played.club, created_by=None, evening=played.evening)
    client = persona_client(persona)
    url = url_for(endpoint, played, plan)
    if endpoint.method == "get":
        response = client.get(url)
    else:
        response = client.post(url, endpoint.body(played) if endpoint.body else {}, format="json")
    if persona == "anonymous":
        expected = 401
    elif persona == "outsider":
        expected = 404
    elif persona in endpoint.allowed:
        expected = endpoint.ok
    else:
        expected = 403
    assert response.status_code == expected, response.content
