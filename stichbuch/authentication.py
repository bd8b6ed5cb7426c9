"""Token authentication for the API: DRF's own, through the ORM.

``select_related("user").get(key=...)`` finds the token and its user in one
statement; the answers are DRF's (the same errors for an unknown key and an
inactive user, the same ``WWW-Authenticate`` keyword).
"""

from __future__ import annotations

from rest_framework import authentication


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (``Authorization: Token <key>``)."""
