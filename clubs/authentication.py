"""Token authentication for the API: ``Authorization: Token <key>``, one token per
device (``clubs.models.ApiToken``), looked up by the digest of the key.

The answers are DRF's: the same errors for an unknown key and an inactive user,
the same ``WWW-Authenticate`` keyword (so an anonymous request gets a 401). An
expired token is refused as an unknown one.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy
from rest_framework import authentication, exceptions

from clubs.models import ApiToken

# DRF's own messages, translated by DRF's catalogue (an alias that ``makemessages``
# does not collect into ours).
drf_message = gettext_lazy


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's header parsing, with the key checked against the stored digests."""

    model = ApiToken

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = (
            ApiToken.objects.select_related("user")
            .filter(digest=ApiToken.digest_of(key), expires_at__gt=timezone.now())
            .first()
        )
        if token is None:
            raise exceptions.AuthenticationFailed(drf_message("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(drf_message("User inactive or deleted."))
        return token.user, token
