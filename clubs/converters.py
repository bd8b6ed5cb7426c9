"""URL converters of the clubs app."""

from __future__ import annotations

from django.urls import register_converter


class InvitationTokenConverter:
    """An invitation token as ``secrets.token_urlsafe`` makes them: URL-safe base64.

    Anything else in its place is no token at all and matches no URL (a 404),
    before it can reach the database: PostgreSQL refuses text with a NUL byte.
    """

    regex = r"[A-Za-z0-9_-]{1,128}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


# Registered once, on first import (both URL modules import this one).
register_converter(InvitationTokenConverter, "invitation_token")
