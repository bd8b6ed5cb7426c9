from __future__ import annotations

import pytest

from clubs.models import Club, Membership, Role
from tests.conftest import PersonaClient
from tests.factories import (
    InvitationFactory,
    MembershipFactory,
    PlayerFactory,
    RuleProfileFactory,
    SeasonFactory,
)

pytestmark = pytest.mark.django_db


def test_every_factory_builds_a_valid_saved_object() -> None:
    for factory_class in (
        MembershipFactory,
        PlayerFactory,
        InvitationFactory,
        SeasonFactory,
        RuleProfileFactory,
    ):
        obj = factory_class.create()
        obj.full_clean()
        assert obj.pk is not None


def test_the_persona_fixtures_are_members_of_the_club_with_their_role(
    club: Club,
    owner: PersonaClient,
    admin: PersonaClient,
    scorer: PersonaClient,
    member: PersonaClient,
    outsider: PersonaClient,
    anonymous: PersonaClient,
) -> None:
    roles = dict(Membership.objects.filter(club=club).values_list("user__username", "role"))
    assert roles == {
        "owner": Role.OWNER,
        "admin": Role.ADMIN,
        "scorer": Role.SCORER,
        "member": Role.MEMBER,
    }
    assert anonymous.user is None
    assert not Membership.objects.filter(club=club, user=outsider.user).exists()
