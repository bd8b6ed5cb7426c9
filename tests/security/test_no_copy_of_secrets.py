"""Pages that show a secret answer no-store; logging out clears the browser's copies
(issue 38, point 5; the service worker's side: ``tests/e2e/test_logout_clears_the_phone``)."""

from __future__ import annotations

import pytest

from clubs import services as club_services
from clubs.models import Club, Role
from games.models import Evening
from live import services as live_services
from tests.conftest import PersonaClient
from tests.factories import InvitationFactory

pytestmark = pytest.mark.django_db


def _kept(response: object) -> bool:
    return "no-store" not in response.get("Cache-Control", "")  # type: ignore[attr-defined]


def test_the_club_page_with_an_open_invitation_link_is_never_stored(
    club: Club, owner: PersonaClient
) -> None:
    assert _kept(owner.get(f"/clubs/{club.slug}/"))  # nothing secret on it yet
    club_services.invitation_create(club=club, created_by=owner.user, role=Role.ADMIN)
    assert not _kept(owner.get(f"/clubs/{club.slug}/"))


def test_the_account_page_with_the_devices_is_never_stored(member: PersonaClient) -> None:
    assert not _kept(member.get("/accounts/password/"))


def test_an_invitation_page_is_never_stored(club: Club, outsider: PersonaClient) -> None:
    invitation = InvitationFactory.create(club=club)
    answer = outsider.get(f"/join/{invitation.token}/")
    assert answer.status_code == 200 and not _kept(answer)


def test_the_evening_page_with_a_live_link_is_never_stored(
    scorer: PersonaClient, member: PersonaClient, evening: Evening
) -> None:
    live_services.live_link_create(evening=evening, user=None)
    assert not _kept(scorer.get(f"/evenings/{evening.pk}/"))
    assert _kept(member.get(f"/evenings/{evening.pk}/"))  # a member is not shown the link


def test_logging_out_clears_the_browsers_caches_and_storage(member: PersonaClient) -> None:
    response = member.post("/accounts/logout/")
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache", "storage"'
