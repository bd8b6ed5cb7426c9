"""Read-only links to the live ranking, for a screen in the room: opened and revoked."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from tournaments.models import Tournament, TournamentLink


@transaction.atomic
def ranking_link_create(*, tournament: Tournament) -> TournamentLink:
    """A read-only link to the live ranking (for a screen in the room)."""
    return TournamentLink.objects.create(tournament=tournament, key=secrets.token_urlsafe(16))


@transaction.atomic
def ranking_link_revoke(*, link: TournamentLink) -> TournamentLink:
    TournamentLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    link.refresh_from_db()
    return link
