"""Accounts: sign up, log in (pages and API tokens), who am I, login throttling."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from rest_framework.test import APIClient

from clubs.models import Club
from tests.conftest import PersonaClient
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_a_token_is_given_for_the_right_password_and_works_on_the_api() -> None:
    UserFactory.create(username="resi")
    response = APIClient().post(
        "/api/auth/token/", {"username": "resi", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.get("/api/auth/me/").json()["username"] == "resi"


def test_a_wrong_password_gets_a_400_and_no_token() -> None:
    UserFactory.create(username="resi")
    response = APIClient().post(
        "/api/auth/token/", {"username": "resi", "password": "falsch"}, format="json"
    )
    assert response.status_code == 400
    assert "token" not in response.json()


@override_settings(AXES_FAILURE_LIMIT=3)
def test_repeated_wrong_passwords_lock_the_account_out_with_a_429() -> None:
    UserFactory.create(username="resi")
    client = APIClient()
    statuses = [
        client.post(
            "/api/auth/token/", {"username": "resi", "password": "falsch"}, format="json"
        ).status_code
        for _ in range(4)
    ]
    assert statuses[:2] == [400, 400]
    assert statuses[-1] == 429
    # Even the right password is refused while locked out.
    right = client.post(
        "/api/auth/token/", {"username": "resi", "password": PASSWORD}, format="json"
    )
    assert right.status_code == 429


def test_a_lockout_of_one_name_leaves_other_members_alone() -> None:
    UserFactory.create(username="resi")
    UserFactory.create(username="franz")
    client = APIClient()
    with override_settings(AXES_FAILURE_LIMIT=2):
        for _ in range(3):
            client.post("/api/auth/token/", {"username": "resi", "password": "x"}, format="json")
        ok = client.post(
            "/api/auth/token/", {"username": "franz", "password": PASSWORD}, format="json"
        )
    assert ok.status_code == 200


def test_signing_up_over_the_api_creates_the_account_and_a_token() -> None:
    response = APIClient().post(
        "/api/auth/signup/",
        {"username": "gretl", "password": "Schellen-Unter-7", "email": "g@example.org"},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["token"]
    assert get_user_model().objects.filter(username="gretl").exists()


def test_a_weak_password_or_a_taken_name_is_a_400_naming_the_field() -> None:
    UserFactory.create(username="gretl")
    weak = APIClient().post(
        "/api/auth/signup/", {"username": "toni", "password": "123"}, format="json"
    )
    assert weak.status_code == 400
    assert "password" in weak.json()
    taken = APIClient().post(
        "/api/auth/signup/", {"username": "Gretl", "password": "Schellen-Unter-7"}, format="json"
    )
    assert taken.status_code == 400
    assert "username" in taken.json()


def test_me_lists_my_clubs_with_my_role(club: Club, scorer: PersonaClient) -> None:
    me = scorer.get("/api/auth/me/").json()
    assert me["clubs"] == [{"slug": club.slug, "name": club.name, "role": "scorer"}]


def test_the_login_page_speaks_german_by_default() -> None:
    page = Client().get("/accounts/login/")
    assert page.status_code == 200
    assert 'lang="de"' in page.content.decode()
    assert "Anmelden" in page.content.decode()


def test_the_login_page_speaks_english_when_asked() -> None:
    page = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Log in" in page.content.decode()


def test_logging_in_on_the_page_with_the_right_password_lands_on_the_home_page() -> None:
    UserFactory.create(username="franz")
    client = Client()
    response = client.post("/accounts/login/", {"username": "franz", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert "franz" in client.get("/").content.decode()


def test_signing_up_on_the_page_logs_the_new_member_in() -> None:
    client = Client()
    response = client.post(
        "/accounts/signup/",
        {"username": "vroni", "password1": "Eichel-Ober-99", "password2": "Eichel-Ober-99"},
    )
    assert response.status_code == 302
    assert client.get("/").context["user"].username == "vroni"


def test_logging_out_ends_the_session(member: PersonaClient) -> None:
    assert member.post("/accounts/logout/").status_code == 302
    assert member.get("/api/auth/me/").status_code == 401


@override_settings(AXES_FAILURE_LIMIT=2)
def test_the_login_page_locks_out_after_repeated_wrong_passwords() -> None:
    UserFactory.create(username="resi")
    client = Client()
    for _ in range(2):
        client.post("/accounts/login/", {"username": "resi", "password": "falsch"})
    locked = client.post("/accounts/login/", {"username": "resi", "password": PASSWORD})
    assert locked.status_code == 429
    assert "Zu viele Versuche" in locked.content.decode()
