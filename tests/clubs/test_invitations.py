"""Invitations: one use, before expiry, joining with a role and maybe claiming a guest."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from clubs import services
from clubs.models import Club, Membership, Player, Role
from tests.conftest import PersonaClient
from tests.factories import (
    InvitationFactory,
    MembershipFactory,
    PlayerFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def test_an_invitation_token_is_long_and_unguessable() -> None:
    owner = MembershipFactory.create(role=Role.OWNER)
    tokens = {
        services.invitation_create(club=owner.club, created_by=owner.user).token for _ in range(5)
    }
    assert len(tokens) == 5
    assert all(len(token) >= 43 for token in tokens)  # 32 random bytes, base64


def test_accepting_makes_the_user_a_member_with_the_invitations_role() -> None:
    invitation = InvitationFactory.create(role=Role.SCORER)
    user = UserFactory.create()
    membership = services.invitation_accept(token=invitation.token, user=user)
    assert (membership.club, membership.role) == (invitation.club, Role.SCORER)
    invitation.refresh_from_db()
    assert invitation.accepted_by == user
    assert invitation.accepted_at is not None
    assert Player.objects.filter(club=invitation.club, user=user).exists()


def test_an_expired_invitation_is_refused() -> None:
    invitation = InvitationFactory.create(expires_at=timezone.now() - datetime.timedelta(minutes=1))
    user = UserFactory.create()
    with pytest.raises(ValidationError) as excinfo:
        services.invitation_accept(token=invitation.token, user=user)
    assert "token" in excinfo.value.message_dict
    assert not Membership.objects.filter(club=invitation.club, user=user).exists()


def test_an_invitation_cannot_be_used_twice() -> None:
    invitation = InvitationFactory.create()
    services.invitation_accept(token=invitation.token, user=UserFactory.create())
    second = UserFactory.create()
    with pytest.raises(ValidationError):
        services.invitation_accept(token=invitation.token, user=second)
    assert not Membership.objects.filter(club=invitation.club, user=second).exists()


def test_accepting_can_claim_a_guest_player_with_his_history() -> None:
    guest = PlayerFactory.create(display_name="Hansi")
    invitation = InvitationFactory.create(club=guest.club, player=guest)
    user = UserFactory.create(username="hans")
    services.invitation_accept(token=invitation.token, user=user)
    guest.refresh_from_db()
    assert guest.user == user
    # No second player was made for him: the guest *is* him.
    assert Player.objects.filter(club=guest.club, user=user).count() == 1


def test_a_guest_claimed_meanwhile_cannot_be_claimed_again() -> None:
    guest = PlayerFactory.create()
    invitation = InvitationFactory.create(club=guest.club, player=guest)
    someone = MembershipFactory.create(club=guest.club)
    guest.user = someone.user
    guest.save()
    with pytest.raises(ValidationError) as excinfo:
        services.invitation_accept(token=invitation.token, user=UserFactory.create())
    assert "player" in excinfo.value.message_dict


def test_a_member_gains_a_higher_role_by_accepting() -> None:
    member = MembershipFactory.create(role=Role.MEMBER)
    high = InvitationFactory.create(club=member.club, role=Role.SCORER)
    assert services.invitation_accept(token=high.token, user=member.user).role == Role.SCORER


def test_a_member_with_nothing_to_gain_is_refused_and_the_link_stays_unused() -> None:
    admin = MembershipFactory.create(role=Role.ADMIN)
    low = InvitationFactory.create(club=admin.club, role=Role.MEMBER)
    with pytest.raises(ValidationError) as excinfo:
        services.invitation_accept(token=low.token, user=admin.user)
    assert "token" in excinfo.value.message_dict
    low.refresh_from_db()
    assert low.accepted_at is None
    assert Membership.objects.get(pk=admin.pk).role == Role.ADMIN


def test_a_member_may_still_claim_a_guest_with_an_invitation() -> None:
    member = MembershipFactory.create(role=Role.ADMIN)
    guest = PlayerFactory.create(club=member.club)
    invitation = InvitationFactory.create(club=member.club, role=Role.MEMBER, player=guest)
    assert services.invitation_accept(token=invitation.token, user=member.user).role == Role.ADMIN
    guest.refresh_from_db()
    assert guest.user == member.user


def test_nobody_invites_to_a_role_above_his_own() -> None:
    admin = MembershipFactory.create(role=Role.ADMIN)
    with pytest.raises(ValidationError) as excinfo:
        services.invitation_create(club=admin.club, created_by=admin.user, role=Role.OWNER)
    assert "role" in excinfo.value.message_dict


def test_an_invitation_cannot_offer_a_player_who_has_an_account() -> None:
    owner = MembershipFactory.create(role=Role.OWNER)
    taken = PlayerFactory.create(club=owner.club, user=owner.user)
    with pytest.raises(ValidationError) as excinfo:
        services.invitation_create(club=owner.club, created_by=owner.user, player=taken)
    assert "player" in excinfo.value.message_dict


def test_over_the_api_an_outsider_joins_with_a_link_and_then_sees_the_club(
    club: Club, owner: PersonaClient, outsider: PersonaClient
) -> None:
    guest = PlayerFactory.create(club=club, display_name="Vroni")
    created = owner.post(
        f"/api/clubs/{club.slug}/invitations/create/",
        {"role": "scorer", "player": guest.pk},
        format="json",
    )
    assert created.status_code == 201
    token = created.json()["token"]
    assert created.json()["accept_url"] == f"/join/{token}/"

    assert outsider.get(f"/api/clubs/{club.slug}/").status_code == 404
    preview = outsider.get(f"/api/invitations/{token}/")
    assert preview.json()["player_name"] == "Vroni"
    assert "token" not in preview.json()

    accepted = outsider.post(f"/api/invitations/{token}/accept/")
    assert accepted.status_code == 200
    assert accepted.json()["role"] == "scorer"
    assert outsider.get(f"/api/clubs/{club.slug}/").json()["my_role"] == "scorer"

    again = outsider.post(f"/api/invitations/{token}/accept/")
    assert again.status_code == 400
    assert "token" in again.json()


def test_an_unknown_token_is_not_found(outsider: PersonaClient) -> None:
    assert outsider.post("/api/invitations/nope/accept/").status_code == 404


def test_the_invitation_page_lets_a_logged_in_user_join(
    club: Club, owner: PersonaClient, outsider: PersonaClient
) -> None:
    invitation = InvitationFactory.create(club=club, created_by=owner.user)
    page = outsider.get(f"/join/{invitation.token}/")
    assert page.status_code == 200
    assert club.name in page.content.decode()
    response = outsider.post(f"/join/{invitation.token}/")
    assert response.status_code == 302
    assert response["Location"] == f"/clubs/{club.slug}/"


def test_the_invitation_page_sends_a_visitor_to_log_in_first(anonymous: PersonaClient) -> None:
    invitation = InvitationFactory.create()
    response = anonymous.get(f"/join/{invitation.token}/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/join/")


@pytest.mark.parametrize("guess", ["%00", "a%00b", "..", "x y", "ü"])
def test_a_token_that_is_not_token_shaped_is_simply_not_found(
    outsider: PersonaClient, guess: str
) -> None:
    assert outsider.get(f"/api/invitations/{guess}/").status_code == 404
    assert outsider.post(f"/api/invitations/{guess}/accept/").status_code == 404
    assert outsider.get(f"/join/{guess}/").status_code == 404
