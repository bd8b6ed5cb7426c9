"""The API's token authentication: DRF's answers, looked up in one statement."""

from __future__ import annotations

import datetime
from typing import Any

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import close_old_connections, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient, APIRequestFactory

from stichbuch.authentication import TokenAuthentication
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

User = get_user_model()


def _request(key: str) -> Any:
    return APIRequestFactory().get("/api/clubs/", HTTP_AUTHORIZATION=f"Token {key}")


def _authenticated(authentication: TokenAuthentication, key: str) -> tuple[Any, Token]:
    found = authentication.authenticate(_request(key))
    assert found is not None
    user, token = found
    return user, token


def test_a_valid_key_gives_its_user_and_token_as_the_orm_reads_them() -> None:
    user = UserFactory.create(last_login=timezone.now() - datetime.timedelta(days=3))
    token = Token.objects.create(user=user)

    found_user, found_token = _authenticated(TokenAuthentication(), token.key)

    stored = User.objects.get(pk=user.pk)
    for field in User._meta.concrete_fields:
        value = getattr(found_user, field.attname)
        assert value == getattr(stored, field.attname), field.name
        assert type(value) is type(getattr(stored, field.attname)), field.name
    assert isinstance(found_token, Token)
    assert (found_token.key, found_token.user_id) == (token.key, user.pk)
    assert found_token.created == Token.objects.get(pk=token.key).created
    assert isinstance(found_token.created, datetime.datetime)
    assert not found_user._state.adding and found_user._state.db == "default"


def test_the_lookup_is_one_statement_and_the_tokens_user_needs_no_second() -> None:
    token = Token.objects.create(user=UserFactory.create())
    authentication = TokenAuthentication()
    authentication.authenticate(_request(token.key))  # the statement is built once

    with CaptureQueriesContext(connection) as queries:
        found_user, found_token = _authenticated(authentication, token.key)
        assert found_token.user is found_user

    assert len(queries) == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_lookup_after_the_server_dropped_the_connection_connects_afresh() -> None:
    # A restarted or failed-over server: the request's first statement is the token
    # lookup, so it must run Django's health check, as Django's own cursor does.
    token = Token.objects.create(user=UserFactory.create())
    authentication = TokenAuthentication()
    _authenticated(authentication, token.key)
    backend = connection.connection.info.backend_pid
    settings_dict = connection.settings_dict
    with psycopg.connect(
        dbname=settings_dict["NAME"],
        user=settings_dict["USER"],
        host=settings_dict["HOST"],
        port=settings_dict["PORT"] or None,
        autocommit=True,
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [backend])
    close_old_connections()  # what Django does when the next request starts

    found_user, _found_token = _authenticated(authentication, token.key)

    assert found_user.pk == token.user_id
    assert connection.connection.info.backend_pid != backend


def _refusal(authentication: Any, key: str) -> str:
    with pytest.raises(exceptions.AuthenticationFailed) as refused:
        authentication.authenticate(_request(key))
    return str(refused.value.detail)


@pytest.mark.parametrize("language", ["de", "en"])
def test_an_unknown_key_is_refused_with_drfs_own_message(language: str) -> None:
    Token.objects.create(user=UserFactory.create())
    with translation.override(language):
        ours = _refusal(TokenAuthentication(), "0" * 40)
        assert ours == _refusal(authentication.TokenAuthentication(), "0" * 40)
    assert ours == {"de": "Ungültiges Token", "en": "Invalid token."}[language]


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_key_of_an_inactive_user_is_refused_as_drf_refuses_it(language: str) -> None:
    token = Token.objects.create(user=UserFactory.create(is_active=False))
    with translation.override(language):
        ours = _refusal(TokenAuthentication(), token.key)
        assert ours == _refusal(authentication.TokenAuthentication(), token.key)
    assert (
        ours
        == {"de": "Benutzer inaktiv oder gelöscht.", "en": "User inactive or deleted."}[language]
    )


def test_a_request_without_a_token_header_is_left_to_the_next_authentication() -> None:
    assert TokenAuthentication().authenticate(APIRequestFactory().get("/api/clubs/")) is None


def test_the_api_answers_401_to_a_wrong_token_and_serves_a_right_one() -> None:
    user = UserFactory.create()
    token = Token.objects.create(user=user)
    client = APIClient()

    client.credentials(HTTP_AUTHORIZATION="Token " + "f" * 40)
    refused = client.get("/api/clubs/")
    assert refused.status_code == 401
    assert refused.headers["WWW-Authenticate"] == "Token"

    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get("/api/clubs/").status_code == 200


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
    # A key is matched exactly, as a parameter: quotes, percent signs or SQL in it
    # find nothing.
    Token.objects.get_or_create(user=UserFactory.create(username="keyholder"))
    response = APIClient().get("/api/clubs/", HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 401
