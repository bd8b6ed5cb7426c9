"""An invitation link is handed on where it is made: the message beside the new link
with a share or copy button, and the login page the link leads to names the club."""

from __future__ import annotations

import re

from clubs.models import Club, Invitation
from tests.conftest import PersonaClient


def test_the_new_link_is_announced_beside_it_with_a_share_button(
    club: Club, admin: PersonaClient
) -> None:
    answer = admin.post(f"/clubs/{club.slug}/invitations/new/", {"role": "member"})
    assert answer.status_code == 302 and answer["Location"].endswith("#invitations")
    page = admin.get(answer["Location"], HTTP_ACCEPT_LANGUAGE="de").content.decode()
    section = page[page.index('<section id="invitations">') :]
    invitation = Invitation.objects.get(club=club)
    message = section.index("Einladungslink erstellt")
    link = section.index(f'id="invitation-{invitation.pk}"')
    assert message < link  # said right above the link, not at the top of the page
    assert f'data-share-from="invitation-{invitation.pk}"' in section


def test_the_login_page_of_an_invitation_names_the_inviting_club(
    club: Club, admin: PersonaClient, anonymous: PersonaClient
) -> None:
    admin.post(f"/clubs/{club.slug}/invitations/new/", {"role": "member"})
    invitation = Invitation.objects.get(club=club)
    answer = anonymous.get(f"/join/{invitation.token}/")
    assert answer.status_code == 302
    login = anonymous.get(answer["Location"], HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert re.search(rf'id="invited-by">{re.escape(club.name)} lädt dich ein', login)


def test_a_plain_login_names_no_club(anonymous: PersonaClient) -> None:
    assert 'id="invited-by"' not in anonymous.get("/accounts/login/?next=/").content.decode()
    odd = anonymous.get("/accounts/login/?next=/join/nonsense/").content.decode()
    assert 'id="invited-by"' not in odd
