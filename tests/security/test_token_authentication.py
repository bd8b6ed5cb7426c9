"""API tokens: one per device, stored as digests, with an expiry, revocable one by one;
a password change ends them all. The answers to a bad token are DRF's."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework import exceptions
from rest_framework.test import APIClient, APIRequestFactory

from clubs import services
from clubs.authentication import TokenAuthentication
from clubs.models import ApiToken
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


def _client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _me(key: str) -> int:
    return _client(key).get("/api/auth/me/").status_code


def _refusal(key: str) -> str:
    request = APIRequestFactory().get("/api/clubs/", HTTP_AUTHORIZATION=f"Token {key}")
    with pytest.raises(exceptions.AuthenticationFailed) as refused:
        TokenAuthentication().authenticate(request)
    return str(refused.value.detail)


def test_logging_in_from_two_devices_gives_each_its_own_token() -> None:
    UserFactory.create(username="resi", password=PASSWORD)
    phone = APIClient().post(
        "/api/auth/token/",
        {"username": "resi", "password": PASSWORD, "device": "Resis Handy"},
        format="json",
    )
    tablet = APIClient().post(
        "/api/auth/token/",
        {"username": "resi", "password": PASSWORD, "device": "Tablet"},
        format="json",
    )
    assert phone.status_code == tablet.status_code == 200
    assert _me(phone.json()["token"]) == _me(tablet.json()["token"]) == 200
    assert sorted(ApiToken.objects.values_list("name", flat=True)) == ["Resis Handy", "Tablet"]


def test_logging_in_again_on_the_same_device_ends_its_older_token() -> None:
    user = UserFactory.create(username="resi", password=PASSWORD)
    old = services.api_token_create(user=user, name="Handy")
    new = services.api_token_create(user=user, name="Handy")
    assert (_me(old), _me(new)) == (401, 200)
    assert ApiToken.objects.filter(user=user).count() == 1


def test_the_database_holds_no_usable_token_in_clear() -> None:
    user = UserFactory.create()
    key = services.api_token_create(user=user, name="Handy")
    stored = ApiToken.objects.get(user=user)
    values = [str(getattr(stored, f.attname)) for f in ApiToken._meta.concrete_fields]
    assert not any(key in value for value in values)
    assert stored.digest == ApiToken.digest_of(key) != key
    # What the database holds logs no one in.
    assert _me(stored.digest) == 401
    assert _me(key) == 200


def test_a_revoked_token_gets_a_401_and_the_others_keep_working() -> None:
    user = UserFactory.create()
    lost = services.api_token_create(user=user, name="Verlorenes Handy")
    kept = services.api_token_create(user=user, name="Tablet")
    token_id = ApiToken.objects.get(user=user, name="Verlorenes Handy").pk
    assert services.api_token_revoke(user=user, token_id=token_id)
    assert (_me(lost), _me(kept)) == (401, 200)


def test_nobody_revokes_another_users_token() -> None:
    owner, other = UserFactory.create(), UserFactory.create()
    key = services.api_token_create(user=owner, name="Handy")
    token_id = ApiToken.objects.get(user=owner).pk
    assert not services.api_token_revoke(user=other, token_id=token_id)
    assert _me(key) == 200


def test_an_expired_token_gets_a_401() -> None:
    user = UserFactory.create()
    key = services.api_token_create(user=user, name="Handy")
    ApiToken.objects.filter(user=user).update(expires_at=timezone.now())
    assert _me(key) == 401


def test_a_new_token_expires_after_the_configured_days(settings: Any) -> None:
    settings.API_TOKEN_DAYS = 30
    user = UserFactory.create()
    services.api_token_create(user=user, name="Handy")
    expires = ApiToken.objects.get(user=user).expires_at
    assert abs(expires - timezone.now() - datetime.timedelta(days=30)) < datetime.timedelta(
        minutes=1
    )


def test_a_password_change_ends_every_token_of_the_account() -> None:
    user = UserFactory.create(password=PASSWORD)
    keys = [services.api_token_create(user=user, name=name) for name in ("Handy", "Tablet")]
    new = services.account_password_change(
        user=user, old_password=PASSWORD, new_password="ein ganz neues Passwort 7", issue_token=True
    )
    assert [_me(key) for key in keys] == [401, 401]
    assert new is not None and _me(new) == 200


def test_the_account_page_lists_the_devices_and_revokes_one() -> None:
    user = UserFactory.create(password=PASSWORD)
    lost = services.api_token_create(user=user, name="Verlorenes Handy")
    kept = services.api_token_create(user=user, name="Tablet")
    other = services.api_token_create(user=UserFactory.create(), name="Fremdes Handy")
    browser = Client()
    browser.force_login(user)
    page = browser.get("/accounts/password/").content.decode()
    assert "Verlorenes Handy" in page and "Tablet" in page and "Fremdes Handy" not in page
    token_id = ApiToken.objects.get(user=user, name="Verlorenes Handy").pk
    response = browser.post(f"/accounts/tokens/{token_id}/revoke/")
    assert response.status_code == 302
    assert (_me(lost), _me(kept), _me(other)) == (401, 200, 200)
    assert "Verlorenes Handy" not in browser.get("/accounts/password/").content.decode()


def test_the_lookup_is_one_statement_and_the_tokens_user_needs_no_second() -> None:
    key = services.api_token_create(user=UserFactory.create(), name="Handy")
    request = APIRequestFactory().get("/api/clubs/", HTTP_AUTHORIZATION=f"Token {key}")
    with CaptureQueriesContext(connection) as queries:
        found = TokenAuthentication().authenticate(request)
        assert found is not None
        user, token = found
        assert token.user is user
    assert len(queries) == 1


@pytest.mark.parametrize("language", ["de", "en"])
def test_an_unknown_key_is_refused_with_drfs_own_message(language: str) -> None:
    with translation.override(language):
        refusal = _refusal("0" * 43)
    assert refusal == {"de": "Ungültiges Token", "en": "Invalid token."}[language]


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_key_of_an_inactive_user_is_refused_as_drf_refuses_it(language: str) -> None:
    key = services.api_token_create(user=UserFactory.create(is_active=False), name="Handy")
    with translation.override(language):
        refusal = _refusal(key)
    assert (
        refusal
        == {"de": "Benutzer inaktiv oder gelöscht.", "en": "User inactive or deleted."}[language]
    )


def test_a_request_without_a_token_header_is_left_to_the_next_authentication() -> None:
    assert TokenAuthentication().authenticate(APIRequestFactory().get("/api/clubs/")) is None


def test_the_api_answers_401_with_the_token_keyword_to_a_wrong_token() -> None:
    refused = _client("f" * 43).get("/api/clubs/")
    assert refused.status_code == 401
    assert refused.headers["WWW-Authenticate"] == "Token"


@settings(max_examples=60, deadline=None)
@given(
    key=st.text(
        # What a header value can carry (the server hands it over as Latin-1 text).
        alphabet=st.characters(min_codepoint=33, max_codepoint=255, exclude_characters="\x7f"),
        min_size=1,
        max_size=80,
    )
)
def test_any_other_key_is_refused_with_a_401_never_an_error(key: str) -> None:
    response = APIClient().get("/api/clubs/", HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 401
