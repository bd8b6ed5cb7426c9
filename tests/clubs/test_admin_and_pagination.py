"""The admin shows every clubs model; API lists page in a stable order."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Club
from tests.conftest import PersonaClient
from tests.factories import (
    InvitationFactory,
    MembershipFactory,
    PlayerFactory,
    RuleProfileFactory,
    SeasonFactory,
    UserFactory,
)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "model", ["club", "membership", "player", "invitation", "season", "ruleprofile"]
)
def test_the_admin_lists_and_opens_every_clubs_model(model: str) -> None:
    membership = MembershipFactory.create()
    PlayerFactory.create(club=membership.club)
    InvitationFactory.create(club=membership.club)
    SeasonFactory.create(club=membership.club)
    RuleProfileFactory.create(club=membership.club)
    client = Client()
    client.force_login(UserFactory.create(is_staff=True, is_superuser=True))
    changelist = client.get(f"/admin/clubs/{model}/")
    assert changelist.status_code == 200
    assert client.get(f"/admin/clubs/{model}/add/").status_code == 200


def test_pages_of_a_list_neither_overlap_nor_skip(club: Club, member: PersonaClient) -> None:
    for name in ("Anna", "anton", "Berta", "Cilli", "Dori"):
        PlayerFactory.create(club=club, display_name=name)
    seen: list[str] = []
    url: str | None = f"/api/clubs/{club.slug}/players/?page_size=2"
    while url:
        body = member.get(url).json()
        seen += [player["display_name"] for player in body["results"]]
        url = body["next"]
    # The member's own player is not in the list: the fixture made none.
    assert len(seen) == len(set(seen)) == body["count"] == 5
