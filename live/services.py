"""Writes of the live app: evening changes on record and live table links.

``evening_changed`` runs inside the caller's transaction (``games.services``'s
close and reopen); the link functions are each one transaction.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.core import signing
from django.db import transaction
from django.utils import timezone

from games.models import Evening
from live.models import EveningChange, LiveLink
from live.push import evening_changed_push

KEY_BYTES = 16
_SIGNER = signing.Signer(salt="live.link", sep=".")


def link_token(link: LiveLink) -> str:
    """The token of the link's URL: its key, signed."""
    return _SIGNER.sign(link.key)


def link_key(token: str) -> str | None:
    """The key a token carries, or None for a token not signed by us (tampered, made up)."""
    try:
        return _SIGNER.unsign(token)
    except signing.BadSignature:
        return None


def evening_changed(*, evening: Evening, kind: str, user: Any | None) -> EveningChange:
    """Put an evening's close or reopen on record (in the caller's transaction), and
    push it to the evening's live views once that commits."""
    evening_changed_push(evening.pk)
    return EveningChange.objects.create(
        evening=evening,
        kind=kind,
        user=user if getattr(user, "is_authenticated", False) else None,
    )


@transaction.atomic
def live_link_create(*, evening: Evening, user: Any | None) -> LiveLink:
    """Open a read-only link to the evening's table (``link_token`` gives its token).

    Earlier links stay valid until revoked.
    """
    return LiveLink.objects.create(
        evening=evening,
        key=secrets.token_urlsafe(KEY_BYTES),
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )


@transaction.atomic
def live_link_revoke(*, link: LiveLink) -> LiveLink:
    """Revoke the link: from now on it answers 404. Revoking twice changes nothing."""
    LiveLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    link.refresh_from_db()
    return link
