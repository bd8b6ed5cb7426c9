"""Every clubs endpoint × every persona gets exactly the status it should."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from clubs.models import Club, Invitation, Membership, Player, Role, RuleProfile, Season
from tests.conftest import PersonaClient
from tests.factories import (
    InvitationFactory,
    MembershipFactory,
    PlayerFactory,
    RuleProfileFactory,
    SeasonFactory,
)
from tests.permission_matrix import (
    Endpoint,
    admins_write,
    any_user,
    cases,
    check,
    members_read,
    scorers_write,
)


@dataclass
class World:
    club: Club
    target: Membership  # a plain member the managers act on
    player: Player
    season: Season
    rule_profile: RuleProfile
    invitation: Invitation


@pytest.fixture
def world(club: Club, owner: PersonaClient) -> World:
    return World(
        club=club,
        target=MembershipFactory.create(club=club, role=Role.MEMBER),
        player=PlayerFactory.create(club=club, display_name="Hansi"),
        season=SeasonFactory.create(club=club),
        rule_profile=RuleProfileFactory.create(club=club),
        invitation=InvitationFactory.create(club=club, created_by=owner.user),
    )


def club_url(suffix: str = "") -> Any:
    return lambda w: f"/api/clubs/{w.club.slug}/{suffix}"


ENDPOINTS = [
    Endpoint("my clubs", "get", lambda w: "/api/clubs/", any_user()),
    Endpoint(
        "club create",
        "post",
        lambda w: "/api/clubs/create/",
        any_user(201),
        data=lambda w: {"name": "Neue Runde"},
    ),
    Endpoint("club detail", "get", club_url(), members_read()),
    Endpoint(
        "club update", "post", club_url("update/"), admins_write(), data=lambda w: {"name": "X"}
    ),
    Endpoint("membership list", "get", club_url("memberships/"), members_read()),
    Endpoint(
        "membership role change",
        "post",
        lambda w: f"/api/clubs/{w.club.slug}/memberships/{w.target.pk}/role/",
        admins_write(),
        data=lambda w: {"role": "scorer"},
    ),
    Endpoint(
        "membership remove",
        "post",
        lambda w: f"/api/clubs/{w.club.slug}/memberships/{w.target.pk}/remove/",
        admins_write(204),
    ),
    Endpoint("invitation list", "get", club_url("invitations/"), admins_write()),
    Endpoint(
        "invitation create",
        "post",
        club_url("invitations/create/"),
        admins_write(201),
        data=lambda w: {"role": "member"},
    ),
    Endpoint(
        "invitation revoke",
        "post",
        lambda w: f"/api/clubs/{w.club.slug}/invitations/{w.invitation.pk}/revoke/",
        admins_write(204),
    ),
    Endpoint(
        "invitation preview",
        "get",
        lambda w: f"/api/invitations/{w.invitation.token}/",
        any_user(),
    ),
    Endpoint(
        "invitation accept",
        "post",
        lambda w: f"/api/invitations/{w.invitation.token}/accept/",
        # Members already have the invitation's role: nothing to accept (400).
        {**any_user(400), "outsider": 200},
    ),
    Endpoint("player list", "get", club_url("players/"), members_read()),
    Endpoint(
        "player create",
        "post",
        club_url("players/create/"),
        scorers_write(201),
        data=lambda w: {"display_name": "Vroni"},
    ),
    Endpoint(
        "player update",
        "post",
        lambda w: f"/api/clubs/{w.club.slug}/players/{w.player.pk}/update/",
        admins_write(),
        data=lambda w: {"is_active": False},
    ),
    Endpoint("season list", "get", club_url("seasons/"), members_read()),
    Endpoint(
        "season create",
        "post",
        club_url("seasons/create/"),
        admins_write(201),
        data=lambda w: {
            "name": "Königrufen 2026",
            "game_kind": "koenigrufen",
            "start": "2026-01-01",
        },
    ),
    Endpoint(
        "season close",
        "post",
        lambda w: f"/api/clubs/{w.club.slug}/seasons/{w.season.pk}/close/",
        admins_write(),
        data=lambda w: {},
    ),
    Endpoint("rule profile list", "get", club_url("rule-profiles/"), members_read()),
    Endpoint(
        "rule profile create",
        "post",
        club_url("rule-profiles/create/"),
        admins_write(201),
        data=lambda w: {
            "name": "Wirtshaus",
            "game_kind": "fuchsen",
            "overrides": {"game_cost": 10},
        },
    ),
    Endpoint(
        "rule profile update",
        "post",
        lambda w: f"/api/clubs/{w.club.slug}/rule-profiles/{w.rule_profile.pk}/update/",
        admins_write(),
        data=lambda w: {"overrides": {"call_own_card": True}},
    ),
    Endpoint("house rules", "get", lambda w: "/api/house-rules/fuchsen/", any_user()),
    Endpoint("who am I", "get", lambda w: "/api/auth/me/", any_user()),
]


@pytest.mark.parametrize(("endpoint", "persona"), cases(ENDPOINTS))
def test_each_persona_gets_the_status_its_role_allows(
    endpoint: Endpoint, persona: str, persona_client: Any, world: World
) -> None:
    check(endpoint, persona_client(persona), world, persona)


def test_a_member_may_leave_the_club_himself(
    club: Club, owner: PersonaClient, member: PersonaClient
) -> None:
    mine = Membership.objects.get(club=club, user=member.user)
    response = member.post(f"/api/clubs/{club.slug}/memberships/{mine.pk}/remove/")
    assert response.status_code == 204
    assert not Membership.objects.filter(pk=mine.pk).exists()


def test_an_object_of_another_club_is_not_found_even_for_an_owner(
    club: Club, owner: PersonaClient, other_club: Club
) -> None:
    foreign = PlayerFactory.create(club=other_club)
    response = owner.post(
        f"/api/clubs/{club.slug}/players/{foreign.pk}/update/", {"is_active": False}, format="json"
    )
    assert response.status_code == 404
