"""A club admin makes a member without e-mail a link to set a new password.

The link is Django's password-reset link, shown once to the admin to pass on. Whoever
holds it holds the account in every club it belongs to, so only someone who ranks
above the account in each of its clubs may make one.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from clubs.models import ApiToken, Club, Membership, Role
from clubs.services import api_token_create
from tests.conftest import PersonaClient
from tests.factories import PASSWORD, ClubFactory, MembershipFactory, UserFactory

NEW = "Schafkopf-Herzsolo-42"


def _member_without_mail(club: Club, role: str = Role.MEMBER, name: str = "sepp") -> Membership:
    return MembershipFactory.create(
        club=club, role=role, user=UserFactory.create(username=name, email="")
    )


def _link_from_page(admin: PersonaClient, club: Club, target: Membership) -> str:
    response = admin.post(
        f"/clubs/{club.slug}/members/{target.pk}/password-link/",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 200, response.content.decode()
    assert response["Cache-Control"] == "no-store"
    link = response.context["link"]
    assert link.startswith("http://testserver/accounts/password/reset/")
    assert link in response.content.decode()
    assert "Neues Passwort für sepp" in response.content.decode()
    return str(link)


def _set_password(link: str, password: str = NEW) -> Any:
    client = Client()
    form = client.get(link, follow=True)
    return client.post(
        form.redirect_chain[-1][0] if form.redirect_chain else link,
        {"new_password1": password, "new_password2": password},
        HTTP_ACCEPT_LANGUAGE="de",
        follow=True,
    )


def test_an_admin_gives_a_member_without_mail_a_link_and_he_sets_a_new_password(
    club: Club, admin: PersonaClient
) -> None:
    target = _member_without_mail(club)
    old_token = api_token_create(user=target.user, name="test")
    page = admin.get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert f"/clubs/{club.slug}/members/{target.pk}/password-link/" in page

    link = _link_from_page(admin, club, target)
    done = _set_password(link)

    assert "Dein neues Passwort ist gesetzt." in done.content.decode()
    target.user.refresh_from_db()
    assert target.user.check_password(NEW)
    assert not ApiToken.objects.filter(
        digest=ApiToken.digest_of(old_token)
    ).exists()  # other devices are logged out
    assert mail.outbox == []  # nothing was mailed: the admin passes the link on
    # It works once.
    again = Client().get(link, follow=True, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Dieser Link ist verbraucht oder zu alt." in again


def test_the_api_answers_the_link_and_when_it_expires(club: Club, owner: PersonaClient) -> None:
    target = _member_without_mail(club, Role.ADMIN)
    response = owner.post(f"/api/clubs/{club.slug}/memberships/{target.pk}/password-link/")
    assert response.status_code == 201, response.content
    assert response["Cache-Control"] == "no-store"
    body = response.json()
    assert set(body) == {"url", "expires_at"}
    assert "Dein neues Passwort ist gesetzt." in _set_password(body["url"]).content.decode()


def test_a_link_made_before_the_member_logs_in_no_longer_works_after(
    club: Club, admin: PersonaClient
) -> None:
    target = _member_without_mail(club)
    link = _link_from_page(admin, club, target)
    # He remembered his password after all: logging in ends the link.
    Client().post("/accounts/login/", {"username": "sepp", "password": PASSWORD})
    again = Client().get(link, follow=True, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Dieser Link ist verbraucht oder zu alt." in again


@pytest.mark.parametrize(
    ("actor", "role"),
    [("admin", Role.ADMIN), ("admin", Role.OWNER), ("owner", Role.OWNER)],
)
def test_nobody_makes_a_link_for_someone_of_his_own_rank_or_above(
    club: Club, persona_client: Any, actor: str, role: str
) -> None:
    client = persona_client(actor)
    target = _member_without_mail(club, role)
    response = client.post(
        f"/api/clubs/{club.slug}/memberships/{target.pk}/password-link/",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 400
    assert "sepp" in str(response.json())
    # The page sends him back to the club page with the reason.
    page = client.post(
        f"/clubs/{club.slug}/members/{target.pk}/password-link/",
        HTTP_ACCEPT_LANGUAGE="de",
        follow=True,
    )
    assert "kann ihm einen Passwort-Link machen" in page.content.decode()
    assert "password/reset/" not in page.content.decode().split('id="members"')[0]


def test_the_club_page_offers_the_link_only_for_those_the_viewer_outranks(
    club: Club, admin: PersonaClient
) -> None:
    lower = _member_without_mail(club, Role.SCORER, "sepp")
    peer = _member_without_mail(club, Role.ADMIN, "resi")
    page = admin.get(f"/clubs/{club.slug}/").content.decode()
    assert f"/members/{lower.pk}/password-link/" in page
    assert f"/members/{peer.pk}/password-link/" not in page


def test_nobody_makes_a_link_for_himself(club: Club, owner: PersonaClient) -> None:
    mine = Membership.objects.get(club=club, user=owner.user)
    response = owner.post(f"/api/clubs/{club.slug}/memberships/{mine.pk}/password-link/")
    assert response.status_code == 400


def test_an_admin_cannot_take_over_an_account_that_ranks_higher_in_another_club(
    club: Club, admin: PersonaClient
) -> None:
    # Sepp is a plain member here, but owns another club: a link for him from this
    # club's admin would hand that admin the other club.
    target = _member_without_mail(club)
    MembershipFactory.create(club=ClubFactory.create(), user=target.user, role=Role.OWNER)
    response = admin.post(f"/api/clubs/{club.slug}/memberships/{target.pk}/password-link/")
    assert response.status_code == 400
    # Where the admin outranks him in both clubs, the link is made.
    second = ClubFactory.create()
    Membership.objects.filter(user=target.user).exclude(club=club).delete()
    MembershipFactory.create(club=second, user=target.user, role=Role.SCORER)
    MembershipFactory.create(club=second, user=admin.user, role=Role.ADMIN)
    response = admin.post(f"/api/clubs/{club.slug}/memberships/{target.pk}/password-link/")
    assert response.status_code == 201


def test_no_link_is_made_for_a_staff_account(club: Club, owner: PersonaClient) -> None:
    target = _member_without_mail(club)
    target.user.is_staff = True
    target.user.save()
    response = owner.post(f"/api/clubs/{club.slug}/memberships/{target.pk}/password-link/")
    assert response.status_code == 400


def _page_says(link: str) -> str:
    return str(Client().get(link, follow=True, HTTP_ACCEPT_LANGUAGE="de").content.decode())


def test_a_link_no_longer_works_once_its_target_founded_a_club_of_his_own(
    club: Club, admin: PersonaClient
) -> None:
    target = _member_without_mail(club)
    # Sepp is still logged in on his phone from before: no new login ends the link.
    phone = Client()
    phone.force_login(target.user)
    link = _link_from_page(admin, club, target)
    created = phone.post(
        "/api/clubs/create/", {"name": "Seppls Runde"}, content_type="application/json"
    )
    assert created.status_code == 201, created.content

    page = _page_says(link)

    assert "wer ihn erstellt hat, steht nicht mehr in jedem deiner Vereine über dir" in page
    assert 'name="new_password1"' not in page
    target.user.refresh_from_db()
    assert target.user.check_password(PASSWORD)


def test_the_rank_is_checked_again_when_the_new_password_is_sent(
    club: Club, admin: PersonaClient
) -> None:
    target = _member_without_mail(club)
    link = _link_from_page(admin, club, target)
    client = Client()
    form = client.get(link, follow=True)
    assert 'name="new_password1"' in form.content.decode()
    # Meanwhile the admin is made a plain member: he no longer outranks Sepp.
    Membership.objects.filter(club=club, user=admin.user).update(role=Role.MEMBER)

    sent = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW, "new_password2": NEW},
        HTTP_ACCEPT_LANGUAGE="de",
        follow=True,
    )

    assert "steht nicht mehr in jedem deiner Vereine über dir" in sent.content.decode()
    target.user.refresh_from_db()
    assert target.user.check_password(PASSWORD)


def test_a_token_login_through_the_api_ends_the_link(club: Club, admin: PersonaClient) -> None:
    target = _member_without_mail(club)
    link = _link_from_page(admin, club, target)
    token = Client().post(
        "/api/auth/token/",
        {"username": "sepp", "password": PASSWORD},
        content_type="application/json",
    )
    assert token.status_code == 200, token.content
    assert "Dieser Link ist verbraucht oder zu alt." in _page_says(link)
    target.user.refresh_from_db()
    assert target.user.last_login is not None


def test_a_password_link_is_no_mailed_reset_link_and_a_mailed_one_no_password_link(
    club: Club, admin: PersonaClient
) -> None:
    from django.contrib.auth.tokens import default_token_generator

    target = _member_without_mail(club)
    link = _link_from_page(admin, club, target)
    uidb64, _actor, token = link.rstrip("/").split("/")[-3:]
    as_mailed = f"http://testserver/accounts/password/reset/{uidb64}/{token}/"
    assert "Dieser Link ist verbraucht oder zu alt." in _page_says(as_mailed)
    mailed_token = default_token_generator.make_token(target.user)
    as_link = f"http://testserver/accounts/password/reset/{uidb64}/{_actor}/{mailed_token}/"
    assert "Dieser Link ist verbraucht oder zu alt." in _page_says(as_link)


def test_a_link_with_another_makers_id_is_simply_used_up(
    club: Club, admin: PersonaClient, owner: PersonaClient
) -> None:
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    target = _member_without_mail(club)
    link = _link_from_page(admin, club, target)
    uidb64, _actor, token = link.rstrip("/").split("/")[-3:]
    forged = urlsafe_base64_encode(force_bytes(owner.user.pk))
    for actor in (forged, "not-base64!", "Mg"):
        page = _page_says(f"http://testserver/accounts/password/reset/{uidb64}/{actor}/{token}/")
        assert "Dieser Link ist verbraucht oder zu alt." in page
