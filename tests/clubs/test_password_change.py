"""Changing one's password, on the page and over the API: the current password first,
Django's validators, and every other device (sessions and API tokens) logged out."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from clubs.models import ApiToken
from clubs.services import api_token_create
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_throttle_history() -> None:
    # The API's "auth" throttle counts in the cache, which outlives a test.
    cache.clear()


NEW = "Schafkopf-Herzsolo-42"


def _log_in(client: Client, username: str = "resi", password: str = PASSWORD) -> None:
    """Through the login page, as a member does (axes wants the request)."""
    response = client.post("/accounts/login/", {"username": username, "password": password})
    assert response.status_code == 302, response.content.decode()


def _logged_in(username: str = "resi") -> tuple[Any, Client]:
    user = UserFactory.create(username=username)
    client = Client()
    _log_in(client, username)
    return user, client


def _token_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_a_member_changes_the_password_on_the_page_and_stays_logged_in() -> None:
    user, client = _logged_in()
    other_device = Client()  # the same member on another phone
    _log_in(other_device)
    old_token = api_token_create(user=user, name="test")

    page = client.get("/accounts/password/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Aktuelles Passwort" in page and "Neues Passwort" in page

    response = client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW},
        HTTP_ACCEPT_LANGUAGE="de",
        follow=True,
    )
    assert response.status_code == 200
    assert "Dein Passwort ist geändert." in response.content.decode()

    user.refresh_from_db()
    assert user.check_password(NEW) and not user.check_password(PASSWORD)
    assert client.get("/api/auth/me/").status_code == 200  # this session goes on
    assert other_device.get("/api/auth/me/").status_code in (401, 403)  # the other ends
    assert _token_client(old_token).get("/api/auth/me/").status_code == 401
    assert not ApiToken.objects.filter(user=user).exists()  # the page issues none


@pytest.mark.parametrize(
    ("old", "new1", "new2", "field", "german"),
    [
        ("falsch", NEW, NEW, "old_password", "Das aktuelle Passwort ist falsch."),
        (PASSWORD, NEW, NEW + "x", "new_password2", "Die zwei neuen Passwörter sind verschieden."),
        (PASSWORD, "1234", "1234", "new_password1", "Dieses Passwort ist zu kurz."),
    ],
)
def test_a_wrong_current_password_a_mismatch_or_a_weak_one_changes_nothing(
    old: str, new1: str, new2: str, field: str, german: str
) -> None:
    user, client = _logged_in()
    response = client.post(
        "/accounts/password/",
        {"old_password": old, "new_password1": new1, "new_password2": new2},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 200
    assert german in response.content.decode()
    assert field in response.context["form"].errors
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    assert client.get("/api/auth/me/").status_code == 200


def test_the_password_page_asks_an_anonymous_visitor_to_log_in() -> None:
    response = Client().get("/accounts/password/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_the_api_changes_the_password_and_replaces_every_token() -> None:
    user = UserFactory.create(username="resi")
    old_token = api_token_create(user=user, name="test")
    client = _token_client(old_token)
    response = client.post(
        "/api/auth/password/", {"old_password": PASSWORD, "new_password": NEW}, format="json"
    )
    assert response.status_code == 200, response.json()
    new_token = response.json()["token"]
    assert new_token != old_token
    assert list(ApiToken.objects.filter(user=user).values_list("digest", flat=True)) == [
        ApiToken.digest_of(new_token)
    ]
    assert _token_client(old_token).get("/api/auth/me/").status_code == 401
    assert _token_client(new_token).get("/api/auth/me/").json()["username"] == "resi"
    login = APIClient().post(
        "/api/auth/token/", {"username": "resi", "password": NEW}, format="json"
    )
    assert _token_client(login.json()["token"]).get("/api/auth/me/").status_code == 200


def test_the_api_refuses_a_wrong_current_password_and_a_weak_new_one_in_german() -> None:
    user = UserFactory.create(username="resi")
    token = api_token_create(user=user, name="test")
    client = _token_client(token)
    wrong = client.post(
        "/api/auth/password/",
        {"old_password": "falsch", "new_password": NEW},
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert wrong.status_code == 400
    assert wrong.json() == {"old_password": ["Das aktuelle Passwort ist falsch."]}
    weak = client.post(
        "/api/auth/password/", {"old_password": PASSWORD, "new_password": "resi"}, format="json"
    )
    assert weak.status_code == 400 and weak.json()["new_password"]
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    assert ApiToken.objects.get(user=user).digest == ApiToken.digest_of(
        token
    )  # nothing changed, the token stays


def test_the_api_wants_a_logged_in_caller() -> None:
    response = APIClient().post(
        "/api/auth/password/", {"old_password": PASSWORD, "new_password": NEW}, format="json"
    )
    assert response.status_code == 401
    assert get_user_model().objects.count() == 0


def test_guessing_the_current_password_over_the_api_is_throttled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"auth": "3/minute"})
    user = UserFactory.create(username="resi")
    client = _token_client(api_token_create(user=user, name="test"))
    statuses = [
        client.post(
            "/api/auth/password/", {"old_password": f"rate{i}", "new_password": NEW}, format="json"
        ).status_code
        for i in range(5)
    ]
    assert statuses == [400, 400, 400, 429, 429]


# --- A forgotten password ---------------------------------------------------------------------


def _reset_link(body: str) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/password/reset/[^/\s]+/[^/\s]+/)", body)
    assert match, body
    return match.group(1)


def test_a_forgotten_password_is_set_anew_from_the_mailed_link() -> None:
    user = UserFactory.create(username="resi", email="resi@example.org")
    old_token = api_token_create(user=user, name="test")
    client = Client()
    login_page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'href="/accounts/password/reset/"' in login_page

    sent = client.post(
        "/accounts/password/reset/",
        {"email": "RESI@example.org"},
        HTTP_ACCEPT_LANGUAGE="de",
        follow=True,
    )
    assert "Link verschickt" in sent.content.decode()
    [message] = mail.outbox
    assert message.to == ["resi@example.org"]
    link = _reset_link(str(message.body))

    form = client.get(link, follow=True)
    assert "new_password1" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0] if form.redirect_chain else link,
        {"new_password1": NEW, "new_password2": NEW},
        HTTP_ACCEPT_LANGUAGE="de",
        follow=True,
    )
    assert "Dein neues Passwort ist gesetzt." in done.content.decode()
    user.refresh_from_db()
    assert user.check_password(NEW)
    assert _token_client(old_token).get("/api/auth/me/").status_code == 401
    _log_in(Client(), password=NEW)

    again = client.get(link, follow=True, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Dieser Link ist verbraucht oder zu alt." in again


def test_an_unknown_address_gets_the_same_answer_and_no_mail() -> None:
    UserFactory.create(username="resi", email="resi@example.org")
    response = Client().post(
        "/accounts/password/reset/", {"email": "fremd@example.org"}, follow=True
    )
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == "/accounts/password/reset/sent/"
    assert mail.outbox == []


def test_asking_for_links_again_and_again_is_throttled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        {"auth": "2/minute", "password-reset-account": "100/hour"},
    )
    UserFactory.create(username="resi", email="resi@example.org")
    client = Client()
    statuses = [
        client.post(
            "/accounts/password/reset/", {"email": "resi@example.org"}, HTTP_ACCEPT_LANGUAGE="de"
        )
        for _ in range(4)
    ]
    assert [r.status_code for r in statuses] == [302, 302, 429, 429]
    assert "Zu viele Anfragen" in statuses[-1].content.decode()
    assert len(mail.outbox) == 2
