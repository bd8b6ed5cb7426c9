"""An invitation grants no more than its maker may grant when it is accepted.

An admin who made links and is then demoted or removed must not get his role back
(or hand it to anyone) through them: demotion and removal withdraw his open links,
and accepting checks the maker's current role in the club again.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubs import services
from clubs.models import Club, Invitation, Membership, Role
from tests.conftest import PersonaClient
from tests.factories import InvitationFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def _own_membership(client: PersonaClient, club: Club) -> Membership:
    return Membership.objects.get(club=club, user=client.user)


def _api_link(client: PersonaClient, club: Club, role: str) -> str:
    response = client.post(
        f"/api/clubs/{club.slug}/invitations/create/", {"role": role}, format="json"
    )
    assert response.status_code == 201, response.content
    return str(response.json()["token"])


def test_a_demoted_admin_does_not_get_his_role_back_with_a_link_he_made(
    club: Club, owner: PersonaClient, admin: PersonaClient
) -> None:
    token = _api_link(admin, club, Role.ADMIN)
    mine = _own_membership(admin, club)
    demoted = owner.post(
        f"/api/clubs/{club.slug}/memberships/{mine.pk}/role/", {"role": "member"}, format="json"
    )
    assert demoted.status_code == 200

    accepted = admin.post(f"/api/invitations/{token}/accept/")

    assert accepted.status_code == 404  # the link was withdrawn with his role
    assert Membership.objects.get(pk=mine.pk).role == Role.MEMBER


def test_a_removed_admin_does_not_come_back_as_admin_with_a_link_he_made(
    club: Club, owner: PersonaClient, admin: PersonaClient
) -> None:
    token = _api_link(admin, club, Role.ADMIN)
    mine = _own_membership(admin, club)
    assert owner.post(f"/api/clubs/{club.slug}/memberships/{mine.pk}/remove/").status_code == 204

    accepted = admin.post(f"/api/invitations/{token}/accept/")

    assert accepted.status_code == 404
    assert not Membership.objects.filter(club=club, user=admin.user).exists()


def test_on_the_pages_a_demoted_admin_does_not_get_his_role_back(
    club: Club, owner: PersonaClient, admin: PersonaClient
) -> None:
    admin.post(f"/clubs/{club.slug}/invitations/new/", {"role": "admin"}, format="multipart")
    token = Invitation.objects.get(club=club, created_by=admin.user, role=Role.ADMIN).token
    mine = _own_membership(admin, club)
    owner.post(
        f"/clubs/{club.slug}/members/{mine.pk}/role/", {"role": "scorer"}, format="multipart"
    )
    assert Membership.objects.get(pk=mine.pk).role == Role.SCORER

    response = admin.post(f"/join/{token}/")

    assert response.status_code == 404
    assert Membership.objects.get(pk=mine.pk).role == Role.SCORER


def test_on_the_pages_a_removed_admin_does_not_come_back_as_admin(
    club: Club, owner: PersonaClient, admin: PersonaClient
) -> None:
    admin.post(f"/clubs/{club.slug}/invitations/new/", {"role": "admin"}, format="multipart")
    token = Invitation.objects.get(club=club, created_by=admin.user, role=Role.ADMIN).token
    mine = _own_membership(admin, club)
    owner.post(f"/clubs/{club.slug}/members/{mine.pk}/remove/")

    response = admin.post(f"/join/{token}/")

    assert response.status_code == 404
    assert not Membership.objects.filter(club=club, user=admin.user).exists()


def test_a_link_whose_maker_lost_his_role_otherwise_is_refused_with_the_reason(
    club: Club, admin: PersonaClient, outsider: PersonaClient
) -> None:
    # A role changed without the service (the admin site, a script) withdraws no
    # links: the check at acceptance still holds.
    token = _api_link(admin, club, Role.ADMIN)
    Membership.objects.filter(club=club, user=admin.user).update(role=Role.MEMBER)

    for client in (admin, outsider):
        response = client.post(f"/api/invitations/{token}/accept/", HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 400
        assert "can no longer grant the role Admin" in str(response.json()["token"])
    assert Membership.objects.get(club=club, user=admin.user).role == Role.MEMBER
    assert not Membership.objects.filter(club=club, user=outsider.user).exists()
    page = outsider.post(f"/join/{token}/", HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 400
    assert "kann die Rolle Verwalter nicht mehr vergeben" in page.content.decode()
    assert Invitation.objects.get(token=token).accepted_at is None


def test_an_owner_made_admin_no_longer_grants_ownership_with_an_old_link() -> None:
    maker = MembershipFactory.create(role=Role.OWNER)
    MembershipFactory.create(club=maker.club, role=Role.OWNER)  # the club keeps an owner
    link = services.invitation_create(club=maker.club, created_by=maker.user, role=Role.OWNER)
    Membership.objects.filter(pk=maker.pk).update(role=Role.ADMIN)
    with pytest.raises(ValidationError) as excinfo:
        services.invitation_accept(token=link.token, user=UserFactory.create())
    assert "token" in excinfo.value.message_dict


def test_a_link_of_an_account_that_is_gone_grants_nothing() -> None:
    invitation = InvitationFactory.create(role=Role.MEMBER)
    assert invitation.created_by is not None
    invitation.created_by.delete()
    newcomer = UserFactory.create()
    with pytest.raises(ValidationError):
        services.invitation_accept(token=invitation.token, user=newcomer)
    assert not Membership.objects.filter(user=newcomer).exists()


def test_demoting_a_member_withdraws_only_his_open_links(
    club: Club, owner: PersonaClient, admin: PersonaClient
) -> None:
    used = services.invitation_create(club=club, created_by=admin.user)
    services.invitation_accept(token=used.token, user=UserFactory.create())
    open_one = services.invitation_create(club=club, created_by=admin.user)
    owners = services.invitation_create(club=club, created_by=owner.user)
    services.membership_change_role(
        membership=_own_membership(admin, club), role=Role.SCORER, actor=owner.user
    )
    assert not Invitation.objects.filter(pk=open_one.pk).exists()
    assert Invitation.objects.filter(pk=used.pk).exists()  # a used one stays as a record
    assert Invitation.objects.filter(pk=owners.pk).exists()


def test_promoting_a_member_keeps_his_links(club: Club, owner: PersonaClient) -> None:
    maker = MembershipFactory.create(club=club, role=Role.ADMIN)
    link = services.invitation_create(club=club, created_by=maker.user)
    services.membership_change_role(membership=maker, role=Role.OWNER, actor=owner.user)
    assert Invitation.objects.filter(pk=link.pk).exists()


def test_a_member_who_leaves_withdraws_his_links(club: Club, admin: PersonaClient) -> None:
    link = services.invitation_create(club=club, created_by=admin.user)
    mine = _own_membership(admin, club)
    assert admin.post(f"/api/clubs/{club.slug}/memberships/{mine.pk}/remove/").status_code == 204
    assert not Invitation.objects.filter(pk=link.pk).exists()


def test_the_invitation_list_names_who_made_each_link(
    club: Club, owner: PersonaClient, admin: PersonaClient
) -> None:
    _api_link(admin, club, Role.SCORER)
    _api_link(owner, club, Role.MEMBER)
    listed = owner.get(f"/api/clubs/{club.slug}/invitations/").json()["results"]
    assert sorted((i["role"], i["created_by"]) for i in listed) == [
        ("member", "owner"),
        ("scorer", "admin"),
    ]
    page = owner.get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    invitations = page.split('id="invitations"')[1]
    assert "erstellt von admin" in invitations
    assert "erstellt von owner" in invitations
