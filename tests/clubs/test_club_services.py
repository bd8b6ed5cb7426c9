"""Clubs and memberships: creating a club, changing roles, protecting the last owner."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubs import services
from clubs.models import Club, Membership, Player, Role
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_creator_of_a_club_becomes_its_owner_and_one_of_its_players() -> None:
    user = UserFactory.create(username="sepp", first_name="Sepp", last_name="Huber")
    club = services.club_create(creator=user, name="Gasthaus Post")
    assert club.slug == "gasthaus-post"
    assert Membership.objects.get(club=club, user=user).role == Role.OWNER
    assert Player.objects.get(club=club, user=user).display_name == "Sepp Huber"


def test_a_second_club_of_the_same_name_gets_its_own_slug() -> None:
    user = UserFactory.create()
    first = services.club_create(creator=user, name="Stammtisch")
    second = services.club_create(creator=user, name="Stammtisch")
    assert (first.slug, second.slug) == ("stammtisch", "stammtisch-2")


def test_a_taken_or_reserved_slug_is_refused_naming_the_slug() -> None:
    user = UserFactory.create()
    services.club_create(creator=user, name="A", slug="runde")
    for slug in ("runde", "create"):
        with pytest.raises(ValidationError) as excinfo:
            services.club_create(creator=user, name="B", slug=slug)
        assert "slug" in excinfo.value.message_dict


def test_an_unknown_time_zone_is_refused() -> None:
    with pytest.raises(ValidationError) as excinfo:
        services.club_create(creator=UserFactory.create(), name="A", time_zone="Europe/Graden")
    assert "time_zone" in excinfo.value.message_dict


def test_an_owner_can_make_an_admin_an_owner() -> None:
    owner = MembershipFactory.create(role=Role.OWNER)
    admin = MembershipFactory.create(club=owner.club, role=Role.ADMIN)
    services.membership_change_role(membership=admin, role=Role.OWNER, actor=owner.user)
    admin.refresh_from_db()
    assert admin.role == Role.OWNER


def test_an_admin_cannot_grant_the_owner_role() -> None:
    admin = MembershipFactory.create(role=Role.ADMIN)
    member = MembershipFactory.create(club=admin.club, role=Role.MEMBER)
    with pytest.raises(ValidationError) as excinfo:
        services.membership_change_role(membership=member, role=Role.OWNER, actor=admin.user)
    assert "role" in excinfo.value.message_dict


def test_an_admin_cannot_demote_an_owner() -> None:
    owner = MembershipFactory.create(role=Role.OWNER)
    MembershipFactory.create(club=owner.club, role=Role.OWNER)
    admin = MembershipFactory.create(club=owner.club, role=Role.ADMIN)
    with pytest.raises(ValidationError):
        services.membership_change_role(membership=owner, role=Role.MEMBER, actor=admin.user)


def test_the_last_owner_cannot_demote_himself() -> None:
    owner = MembershipFactory.create(role=Role.OWNER)
    with pytest.raises(ValidationError) as excinfo:
        services.membership_change_role(membership=owner, role=Role.ADMIN, actor=owner.user)
    assert "role" in excinfo.value.message_dict
    owner.refresh_from_db()
    assert owner.role == Role.OWNER


def test_one_of_two_owners_may_step_down() -> None:
    owner = MembershipFactory.create(role=Role.OWNER)
    MembershipFactory.create(club=owner.club, role=Role.OWNER)
    services.membership_change_role(membership=owner, role=Role.MEMBER, actor=owner.user)
    owner.refresh_from_db()
    assert owner.role == Role.MEMBER


def test_the_last_owner_cannot_leave_or_be_removed() -> None:
    owner = MembershipFactory.create(role=Role.OWNER)
    with pytest.raises(ValidationError):
        services.membership_remove(membership=owner, actor=owner.user)
    assert Membership.objects.filter(pk=owner.pk).exists()


def test_a_removed_member_keeps_his_player_and_its_history() -> None:
    owner = MembershipFactory.create(role=Role.OWNER)
    gone = MembershipFactory.create(club=owner.club)
    services.player_create(club=owner.club, display_name="Franz", user=gone.user)
    services.membership_remove(membership=gone, actor=owner.user)
    assert Player.objects.filter(club=owner.club, display_name="Franz").exists()


def test_club_update_changes_settings_but_never_the_slug() -> None:
    club = ClubFactory.create(slug="alt")
    services.club_update(club=club, name="Neu", currency_unit=Club.CurrencyUnit.POINTS)
    club.refresh_from_db()
    assert (club.name, club.slug, club.currency_unit) == ("Neu", "alt", "points")


def test_over_the_api_the_last_owner_is_protected_with_a_400(club: Club, owner: object) -> None:
    from tests.conftest import PersonaClient

    assert isinstance(owner, PersonaClient)
    mine = Membership.objects.get(club=club, user=owner.user)
    response = owner.post(
        f"/api/clubs/{club.slug}/memberships/{mine.pk}/role/", {"role": "member"}, format="json"
    )
    assert response.status_code == 400
    assert "role" in response.json()
