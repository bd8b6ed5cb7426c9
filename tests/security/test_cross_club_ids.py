"""An owner of one club, sending his own club's slug with another club's ids, reaches nothing.

The classic hole: the URL's club is checked, the ids in the path or the body
are not. Here ``outsider`` owns ``nachbarort`` and is not a member of the
persona club; every id below belongs to the persona club. Each request must be
refused (400 naming the field, or 404) and change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from clubs.models import Club, Invitation, Membership, Player, RuleProfile, Season
from games.models import Evening, EveningSeat, Game, GameEvent
from ledger.models import LedgerEntry, Payment, SettlementPlan, SettlementTransfer
from tests.conftest import PersonaClient
from tests.security.test_endpoint_matrix import World
from tests.security.test_endpoint_matrix import world as world

OTHER = "nachbarort"

# (method, url, body) — {w} is the persona club's world.
CASES: dict[str, tuple[str, str, Any]] = {
    "player update": ("post", "/api/clubs/{o}/players/{w.players[anna].pk}/update/", {}),
    "membership role": (
        "post",
        "/api/clubs/{o}/memberships/{w.target.pk}/role/",
        {"role": "owner"},
    ),
    "membership remove": ("post", "/api/clubs/{o}/memberships/{w.target.pk}/remove/", {}),
    "password link for their member": (
        "post",
        "/api/clubs/{o}/memberships/{w.target.pk}/password-link/",
        {},
    ),
    "invitation revoke": ("post", "/api/clubs/{o}/invitations/{w.invitation.pk}/revoke/", {}),
    "rule profile update": (
        "post",
        "/api/clubs/{o}/rule-profiles/{w.rule_profile.pk}/update/",
        {"name": "taken"},
    ),
    "season close": ("post", "/api/clubs/{o}/seasons/{w.season.pk}/close/", {}),
    "season reopen": ("post", "/api/clubs/{o}/seasons/{w.season.pk}/reopen/", {}),
    "season standings": ("get", "/api/clubs/{o}/seasons/{w.season.pk}/standings/", None),
    "season ratings": ("get", "/api/clubs/{o}/seasons/{w.season.pk}/ratings/", None),
    "season records": ("get", "/api/clubs/{o}/seasons/{w.season.pk}/records/", None),
    "season series": ("get", "/api/clubs/{o}/seasons/{w.season.pk}/series/", None),
    "rating history": (
        "get",
        "/api/clubs/{o}/seasons/{w.season.pk}/ratings/{w.players[anna].pk}/",
        None,
    ),
    "balances of an evening": ("get", "/api/clubs/{o}/balances/?evening={w.evening.pk}", None),
    "balances of a season": ("get", "/api/clubs/{o}/balances/?season={w.season.pk}", None),
    "payments of an evening": ("get", "/api/clubs/{o}/payments/?evening={w.evening.pk}", None),
    "payment between their players": (
        "post",
        "/api/clubs/{o}/payments/create/",
        {"payer": "{w.players[anna].pk}", "payee": "{w.players[bert].pk}", "amount": 100},
    ),
    "settle their evening": (
        "post",
        "/api/clubs/{o}/settlement-plans/create/",
        {"evening": "{w.evening.pk}"},
    ),
    "their plan": ("get", "/api/clubs/{o}/settlement-plans/{w.plan_id}/", None),
    "reverse their payment": ("post", "/api/clubs/{o}/payments/{w.payment_id}/reverse/", {}),
    "page: reverse their payment": ("post", "/clubs/{o}/payments/{w.payment_id}/reverse/", {}),
    "mark their transfer paid": (
        "post",
        "/api/clubs/{o}/settlement-plans/{w.plan_id}/transfers/{w.transfer_id}/mark-paid/",
        {},
    ),
    "evening in their season": (
        "post",
        "/api/clubs/{o}/evenings/",
        {"season": "{w.season.pk}", "players": ["{w.players[anna].pk}"] * 4},
    ),
    "evenings of their season": ("get", "/api/clubs/{o}/evenings/?season={w.season.pk}", None),
    "page: their player": ("get", "/clubs/{o}/players/{w.players[anna].pk}/", None),
    "page: their season table": ("get", "/clubs/{o}/seasons/{w.season.pk}/table/", None),
    "page: their season's evenings": ("get", "/clubs/{o}/evenings/?season={w.season.pk}", None),
    "page: set their player aside": (
        "post",
        "/clubs/{o}/players/{w.players[anna].pk}/active/",
        {"active": "0"},
    ),
    "page: rename their player": (
        "post",
        "/clubs/{o}/players/{w.players[anna].pk}/rename/",
        {"display_name": "Mallory"},
    ),
    "page: close their season": ("post", "/clubs/{o}/seasons/{w.season.pk}/close/", {}),
    "page: reopen their season": ("post", "/clubs/{o}/seasons/{w.season.pk}/reopen/", {}),
    "page: their house rules": ("get", "/clubs/{o}/rules/{w.rule_profile.pk}/", None),
    "page: change their house rules": (
        "post",
        "/clubs/{o}/rules/{w.rule_profile.pk}/",
        {"name": "taken"},
    ),
    "page: their member's role": (
        "post",
        "/clubs/{o}/members/{w.target.pk}/role/",
        {"role": "owner"},
    ),
    "page: remove their member": ("post", "/clubs/{o}/members/{w.target.pk}/remove/", {}),
    "page: password link for their member": (
        "post",
        "/clubs/{o}/members/{w.target.pk}/password-link/",
        {},
    ),
    "page: withdraw their invitation": (
        "post",
        "/clubs/{o}/invitations/{w.invitation.pk}/revoke/",
        {},
    ),
    "page: settle their season": ("post", "/clubs/{o}/seasons/{w.season.pk}/settle/", {}),
    "page: a payment in their season": (
        "post",
        "/clubs/{o}/seasons/{w.season.pk}/payments/new/",
        {"payer": "{w.players[anna].pk}", "payee": "{w.players[bert].pk}", "amount": "100"},
    ),
    "page: mark their transfer paid": (
        "post",
        "/clubs/{o}/seasons/{w.season.pk}/transfers/{w.season_transfer_id}/paid/",
        {},
    ),
}


def fill(value: Any, world: World) -> Any:
    if isinstance(value, str):
        text = value.format(w=world, o=OTHER)
        return int(text) if text.isdigit() else text
    if isinstance(value, dict):
        return {k: fill(v, world) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, world) for v in value]
    return value


def everything(club: Club) -> dict[str, Any]:
    """What a request must not change: the rows and the fields a refused request could touch."""
    return {
        "memberships": sorted(Membership.objects.filter(club=club).values_list("id", "role")),
        "players": sorted(Player.objects.filter(club=club).values_list("id", "is_active")),
        "invitations": sorted(Invitation.objects.values_list("id", "expires_at", "accepted_at")),
        "profiles": sorted(RuleProfile.objects.values_list("id", "name")),
        "seasons": sorted(Season.objects.values_list("id", "status")),
        "evenings": Evening.objects.count(),
        "seats": EveningSeat.objects.count(),
        "games": Game.objects.count(),
        "events": GameEvent.objects.count(),
        "entries": LedgerEntry.objects.count(),
        "payments": Payment.objects.count(),
        "plans": SettlementPlan.objects.count(),
        "paid": sorted(SettlementTransfer.objects.values_list("id", "paid_at")),
    }


@pytest.mark.parametrize("case", CASES)
def test_another_clubs_ids_under_my_own_club_reach_nothing(
    case: str,
    world: World,
    persona_client: Callable[[str], PersonaClient],
) -> None:
    client = persona_client("outsider")
    method, url, body = CASES[case]
    before = everything(world.club)
    kwargs: dict[str, Any] = {}
    if body is not None:
        kwargs = {"data": fill(body, world), "format": "json"}
    response = getattr(client, method)(fill(url, world), **kwargs)
    assert response.status_code in (400, 404), (case, response.status_code, response.content)
    assert everything(world.club) == before
