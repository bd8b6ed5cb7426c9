"""Schemathesis over every operation of ``/api/schema/`` with all its checks: never a
5xx, only documented statuses and content types, the documented shape, schema-valid
input accepted and schema-violating input refused.

The schema is loaded from the WSGI app itself; requests are sent through it
with the club owner's token, and the path parameters point at real objects of
a seeded club (a season, an evening with a dealt game, players, a membership,
an invitation, a rule profile, a settlement plan with a transfer), so the
generated bodies and query strings reach the views' real work instead of a 404.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config._checks import PositiveDataAcceptanceConfig
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.modes import GenerationMode

from clubs import services as club_services
from clubs.models import Club, Membership, Player
from clubs.services import api_token_create
from games.models import Evening, Game
from ledger import services as ledger_services
from stichbuch.wsgi import application
from tests.conftest import PersonaClient
from tests.factories import RuleProfileFactory
from tournaments import services as tournament_services

MAX_EXAMPLES = 12


@dataclass
class Seeded:
    token: str
    path: dict[str, Any]


@pytest.fixture
def seeded(
    club: Club,
    owner: PersonaClient,
    member: PersonaClient,
    players: dict[str, Player],
    evening: Evening,
    dealt_game: Game,
) -> Seeded:
    anna, bert = players["anna"], players["bert"]
    payment = ledger_services.payment_record(
        club=club, payer=anna, payee=bert, amount=50, recorded_by=owner.user, evening=evening
    )
    plan = ledger_services.settlement_plan_create(club=club, created_by=owner.user, evening=evening)
    invitation = club_services.invitation_create(club=club, created_by=owner.user)
    profile = RuleProfileFactory.create(club=club)
    membership = Membership.objects.get(club=club, user=member.user)
    token = api_token_create(user=owner.user, name="test")
    tournament = tournament_services.tournament_create(
        club=club,
        user=None,
        name="Preisfuchsen",
        game_kind="fuchsen",
        series_count=3,
        deals_per_series=2,
        players=[p.pk for p in players.values()],
    )
    tournament_services.series_confirm(
        series=tournament_services.series_draw(tournament=tournament), user=None
    )
    link = tournament_services.ranking_link_create(tournament=tournament)
    return Seeded(
        token=token,
        path={
            "slug": club.slug,
            "season_id": evening.season_id,
            "evening_id": evening.pk,
            "game_id": dealt_game.pk,
            "player_id": anna.pk,
            "membership_id": membership.pk,
            "invitation_id": invitation.pk,
            "token": invitation.token,
            "rule_profile_id": profile.pk,
            "plan_id": plan.pk,
            "transfer_id": plan.transfers.first().pk,  # type: ignore[union-attr]
            "game_kind": "fuchsen",
            "payment_id": payment.pk,
            "tournament_id": tournament.pk,
            "series": 1,
            "table": 1,
            "number": 1,
            "link_id": link.pk,
            "key": link.key,
        },
    )


# Served by the app itself (no database is needed to describe the API).
schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
# A schema-valid body can still break a rule the schema cannot state (a card not in
# the hand, a season already closed, a wrong old password): such answers are a
# 400/422 with the reason, documented for every write. Anything else (a 5xx above
# all) fails the check.
# Unknown query parameters are ignored, as HTTP APIs usually do (a client may send
# one a newer version reads): negative cases do not add them.
schema.config.generation.update(allow_extra_parameters=False)
schema.config.checks.positive_data_acceptance = PositiveDataAcceptanceConfig(
    expected_statuses=["2xx", "3xx", "400", "401", "403", "404", "409", "422", "429"]
)


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
@pytest.mark.django_db
def test_every_operation_passes_all_schemathesis_checks(case: Any, seeded: Seeded) -> None:
    path_info = case.meta.components.get(ParameterLocation.PATH) if case.meta else None
    if case.path_parameters and not (path_info and path_info.mode is GenerationMode.NEGATIVE):
        # Real objects, so the request reaches the view's work; a negative case's
        # mutated path is kept, or the mutation it is about would be undone.
        case.path_parameters = {
            name: seeded.path.get(name, value) for name, value in case.path_parameters.items()
        }
    # No ``checks=``: all of them (server errors, statuses, content types, headers,
    # response shapes, positive and negative data, methods, auth).
    case.call_and_validate(headers={"Authorization": f"Token {seeded.token}"})
