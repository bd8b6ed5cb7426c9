"""Rate limits on logging in, keyed on the one client address (``stichbuch.client_ip``).

* ``AuthRateThrottle``: DRF's scoped throttle ("auth" rate) for the auth endpoints.
* ``AddressLoginLimitBackend``: failed logins per address *across usernames*
  (password spraying). django-axes locks "username + address"; one address that
  fails ``LOGIN_FAILURES_PER_ADDRESS`` times within ``AXES_COOLOFF_TIME`` is locked
  out for every name until the window ends, on the pages and the API alike.

The counts live in Django's default cache: in production a shared Redis
(``CACHE_URL``), so every gunicorn process sees the same numbers.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from stichbuch.client_ip import client_ip


class ClientAddressMixin:
    """DRF throttles identify the client by ``client_ip``, not by ``NUM_PROXIES``."""

    def get_ident(self, request: Any) -> str:
        return client_ip(request) or ""


class AuthRateThrottle(ClientAddressMixin, ScopedRateThrottle):
    """The "auth" scope per client address (logging in, signing up, passwords)."""


class ClientAddressRateThrottle(ClientAddressMixin, SimpleRateThrottle):
    """A base for throttles with their own scope and key, per client address."""


def _failure_key(address: str) -> str:
    return f"login-failures:{address}"


def _window_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def address_failures(request: Any) -> int:
    """Failed logins from ``request``'s address within the current window."""
    address = client_ip(request)
    if not address:
        return 0
    return int(cache.get(_failure_key(address), 0))


def _count_failure(
    sender: Any, credentials: Any = None, request: Any = None, **kwargs: Any
) -> None:
    if request is None or not settings.AXES_ENABLED:
        return
    address = client_ip(request)
    if not address:
        return
    key = _failure_key(address)
    # add() starts the window once; incr() is atomic on Redis, so two processes
    # counting at once lose nothing. The window is not extended by later failures.
    cache.add(key, 0, timeout=_window_seconds())
    try:
        cache.incr(key)
    except ValueError:  # expired between add() and incr()
        cache.add(key, 1, timeout=_window_seconds())


user_login_failed.connect(_count_failure, dispatch_uid="stichbuch-login-failures-per-address")


class AddressLoginLimitBackend:
    """First in ``AUTHENTICATION_BACKENDS``: refuses any login from an address over
    its failure limit, before a password is checked.

    It marks the request the way django-axes does (``axes_locked_out``), so axes'
    middleware answers with its lockout page and status (429) on pages and API."""

    def authenticate(self, request: Any, **credentials: Any) -> None:
        if request is None or not settings.AXES_ENABLED:
            return None
        if address_failures(request) >= settings.LOGIN_FAILURES_PER_ADDRESS:
            request.axes_locked_out = True
            raise PermissionDenied("too many failed logins from this address")
        # No get_user(): it only refuses, and Django's login() picks the first
        # backend that has one for the session.
        return None
