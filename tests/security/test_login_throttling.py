"""Guessing passwords is slow: axes locks a name out on the pages, DRF throttles the API."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from rest_framework.settings import api_settings
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


@override_settings(AXES_FAILURE_LIMIT=3)
def test_the_login_page_locks_a_name_out_after_repeated_wrong_passwords() -> None:
    UserFactory.create(username="resi")
    client = Client()
    statuses = [
        client.post("/accounts/login/", {"username": "resi", "password": "falsch"}).status_code
        for _ in range(4)
    ]
    assert statuses[0] == 200  # the form again, with its error
    assert statuses[-1] == 429
    right = client.post("/accounts/login/", {"username": "resi", "password": PASSWORD})
    assert right.status_code == 429  # even the right password, while locked out


def test_the_token_endpoint_has_a_throttle_scope_with_a_rate() -> None:
    from clubs.apis import AuthPasswordApi, AuthSignupApi, AuthTokenApi

    for view in (AuthTokenApi, AuthSignupApi, AuthPasswordApi):
        assert any(issubclass(t, ScopedRateThrottle) for t in view.throttle_classes)
        assert view.throttle_scope == "auth"
    assert api_settings.DEFAULT_THROTTLE_RATES["auth"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/auth/token/", lambda i: {"username": f"name{i}", "password": "x"}),
        ("/api/auth/signup/", lambda i: {"username": f"neu{i}", "password": "1"}),
    ],
)
def test_guessing_across_many_names_from_one_address_is_throttled(
    path: str, body: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache.clear()
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"auth": "5/minute"})
    client = APIClient()
    statuses = [client.post(path, body(i), format="json").status_code for i in range(7)]
    assert statuses[:5] == [400] * 5
    assert statuses[5:] == [429, 429]
    throttled = client.post(path, body(99), format="json")
    assert "Retry-After" in throttled


def test_a_client_cannot_dodge_the_throttle_with_its_own_forwarded_for_header(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache.clear()
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"auth": "3/minute"})
    client = APIClient()
    statuses = [
        client.post(
            "/api/auth/token/",
            {"username": "x", "password": "y"},
            format="json",
            # A different lie each time, then the address our proxy saw and appended.
            HTTP_X_FORWARDED_FOR=f"10.0.0.{i}, 203.0.113.7",
        ).status_code
        for i in range(5)
    ]
    assert statuses[-1] == 429, statuses
