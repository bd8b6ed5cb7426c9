"""Writes of the live app: evening changes on record and live table links.

``evening_changed`` runs inside the caller's transaction (``games.services``'s
close and reopen); the link functions are each one transaction.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Evening
from live.models import EveningChange, LiveLink

TOKEN_BYTES = 32


def token_hash(token: str) -> str:
    """What is stored of a link's token (sha256, hex)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def evening_changed(*, evening: Evening, kind: str, user: Any | None) -> EveningChange:
    """Put an evening's close or reopen on record (in the caller's transaction)."""
    return EveningChange.objects.create(
        evening=evening,
        kind=kind,
        user=user if getattr(user, "is_authenticated", False) else None,
    )


@transaction.atomic
def live_link_create(*, evening: Evening, user: Any | None) -> tuple[LiveLink, str]:
    """Open a read-only link to the evening's table; returns the link and its token.

    The token (43 URL-safe characters, 256 random bits) is shown once; only its
    hash is stored. Earlier links stay valid until revoked.
    """
    token = secrets.token_urlsafe(TOKEN_BYTES)
    link = LiveLink.objects.create(
        evening=evening,
        token_hash=token_hash(token),
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    return link, token


@transaction.atomic
def live_link_revoke(*, link: LiveLink) -> LiveLink:
    """Revoke the link: from now on it answers 404. Revoking twice changes nothing."""
    LiveLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    link.refresh_from_db()
    return link
