"""Invitation links cannot be guessed and stop working when they expire."""

from __future__ import annotations

import datetime
import math
from collections import Counter

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from clubs import services
from clubs.models import Club, Invitation, Membership
from tests.conftest import PersonaClient
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

URLSAFE = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def test_invitation_tokens_are_long_random_and_all_different(
    club: Club, owner: PersonaClient
) -> None:
    tokens = [
        services.invitation_create(club=club, created_by=owner.user).token for _ in range(200)
    ]
    assert len(set(tokens)) == len(tokens)
    for token in tokens:
        assert set(token) <= URLSAFE
        assert len(token) * 6 >= 256  # at least 256 bits of base64url
    # The characters are spread as random ones are: no fixed prefix, no counter.
    counts = Counter("".join(tokens))
    total = sum(counts.values())
    entropy = -sum(n / total * math.log2(n / total) for n in counts.values())
    assert entropy > 5.9  # of at most log2(64) = 6 bits per character
    assert len({token[:4] for token in tokens}) > 190


def test_an_invitation_token_is_not_readable_by_members_who_may_not_invite(
    club: Club, owner: PersonaClient, member: PersonaClient
) -> None:
    services.invitation_create(club=club, created_by=owner.user)
    assert member.get(f"/api/clubs/{club.slug}/invitations/").status_code == 403
    club_page = member.get(f"/clubs/{club.slug}/").content.decode()
    for invitation in Invitation.objects.filter(club=club):
        assert invitation.token not in club_page


def test_an_expired_invitation_is_refused_and_admits_nobody(
    club: Club, owner: PersonaClient
) -> None:
    invitation = services.invitation_create(club=club, created_by=owner.user)
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - datetime.timedelta(seconds=1)
    )
    newcomer = UserFactory.create(username="newcomer")
    client = APIClient()
    client.force_authenticate(newcomer)
    response = client.post(f"/api/invitations/{invitation.token}/accept/", format="json")
    assert response.status_code == 400
    assert "token" in response.json()
    assert not Membership.objects.filter(club=club, user=newcomer).exists()
    page = client.post(f"/join/{invitation.token}/")
    assert not Membership.objects.filter(club=club, user=newcomer).exists()
    assert page.status_code in (200, 302, 400, 404, 410)


def test_invitations_expire_within_a_few_weeks_by_default(club: Club, owner: PersonaClient) -> None:
    invitation = services.invitation_create(club=club, created_by=owner.user)
    lifetime = invitation.expires_at - timezone.now()
    assert datetime.timedelta(hours=1) < lifetime <= datetime.timedelta(days=31)


def test_a_guessed_token_is_not_found() -> None:
    client = APIClient()
    client.force_authenticate(UserFactory.create(username="guesser"))
    for guess in ("1", "a" * 43, "../invitations", "%00"):
        response = client.get(f"/api/invitations/{guess}/")
        assert response.status_code == 404, guess
