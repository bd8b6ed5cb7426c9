"""Password spraying: one address trying many usernames is locked out, on the login
page and on ``POST /api/auth/token/``, long before it has tried them all.

django-axes locks "username + address"; the per-address limit
(``LOGIN_FAILURES_PER_ADDRESS`` failures within ``AXES_COOLOFF_TIME``) counts
failures across usernames.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

ATTEMPTS = 120


def test_120_page_logins_with_120_usernames_from_one_address_are_locked_out_early() -> None:
    cache.clear()
    client = Client()
    statuses = [
        client.post("/accounts/login/", {"username": f"name{i}", "password": "x"}).status_code
        for i in range(ATTEMPTS)
    ]
    limit = django_settings.LOGIN_FAILURES_PER_ADDRESS
    assert limit < ATTEMPTS // 2
    assert statuses[:limit] == [200] * limit  # the form again, with its error
    assert set(statuses[limit:]) == {429}


def test_120_token_logins_with_120_usernames_from_one_address_are_locked_out_early(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Even with the API's own rate throttle out of the way."""
    cache.clear()
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"auth": "10000/minute"})
    client = APIClient()
    statuses = [
        client.post(
            "/api/auth/token/", {"username": f"name{i}", "password": "x"}, format="json"
        ).status_code
        for i in range(ATTEMPTS)
    ]
    limit = django_settings.LOGIN_FAILURES_PER_ADDRESS
    assert statuses[:limit] == [400] * limit
    assert set(statuses[limit:]) == {429}


def test_a_locked_address_cannot_log_in_even_with_a_right_password(settings: Any) -> None:
    cache.clear()
    UserFactory.create(username="resi")
    client = Client()
    for i in range(settings.LOGIN_FAILURES_PER_ADDRESS):
        client.post("/accounts/login/", {"username": f"name{i}", "password": "x"})
    right = client.post("/accounts/login/", {"username": "resi", "password": PASSWORD})
    assert right.status_code == 429
    elsewhere = Client(REMOTE_ADDR="198.51.100.60")
    assert (
        elsewhere.post("/accounts/login/", {"username": "resi", "password": PASSWORD}).status_code
        == 302
    )


def test_the_limit_ends_with_the_cool_off_window(settings: Any) -> None:
    from datetime import timedelta

    cache.clear()
    settings.AXES_COOLOFF_TIME = timedelta(seconds=1)
    settings.LOGIN_FAILURES_PER_ADDRESS = 2
    client = Client()
    for i in range(2):
        client.post("/accounts/login/", {"username": f"name{i}", "password": "x"})
    assert client.post("/accounts/login/", {"username": "z", "password": "x"}).status_code == 429
    time.sleep(1.2)  # the window ends
    assert client.post("/accounts/login/", {"username": "z", "password": "x"}).status_code == 200
