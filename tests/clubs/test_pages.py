"""The club pages: members see their club, others see nothing, visitors log in first."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Club, Invitation
from tests.conftest import PersonaClient
from tests.factories import PlayerFactory, SeasonFactory


def test_a_member_sees_the_clubs_players_and_seasons(club: Club, member: PersonaClient) -> None:
    PlayerFactory.create(club=club, display_name="Hansi")
    SeasonFactory.create(club=club, name="Fuchsen 2026")
    page = member.get(f"/clubs/{club.slug}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Hansi" in html
    assert "Fuchsen 2026" in html


def test_a_member_of_another_club_gets_a_404(club: Club, outsider: PersonaClient) -> None:
    assert outsider.get(f"/clubs/{club.slug}/").status_code == 404


def test_a_visitor_is_sent_to_log_in(club: Club, anonymous: PersonaClient) -> None:
    response = anonymous.get(f"/clubs/{club.slug}/")
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/clubs/{club.slug}/"


def test_only_managers_see_and_make_invitation_links(
    club: Club, admin: PersonaClient, scorer: PersonaClient
) -> None:
    assert "invitations/new" not in scorer.get(f"/clubs/{club.slug}/").content.decode()
    assert (
        scorer.post(
            f"/clubs/{club.slug}/invitations/new/", {"role": "member"}, format="multipart"
        ).status_code
        == 403
    )
    response = admin.post(
        f"/clubs/{club.slug}/invitations/new/", {"role": "scorer"}, format="multipart"
    )
    assert response.status_code == 302
    invitation = Invitation.objects.get(club=club)
    assert invitation.role == "scorer"
    assert invitation.token in admin.get(f"/clubs/{club.slug}/").content.decode()


def test_founding_a_club_on_the_page_makes_me_its_owner(member: PersonaClient) -> None:
    response = member.post(
        "/clubs/new/",
        {
            "name": "Kartenrunde Graden",
            "time_zone": "Europe/Vienna",
            "currency_unit": "cent",
            "card_face": "german",
        },
        format="multipart",  # a browser form, not the API clients' default JSON
    )
    assert response.status_code == 302
    assert response["Location"] == "/clubs/kartenrunde-graden/"
    assert "Kartenrunde Graden" in member.get("/").content.decode()


@pytest.mark.django_db
def test_the_home_page_welcomes_a_visitor() -> None:
    page = Client().get("/")
    assert page.status_code == 200
    assert "Fuchsen" in page.content.decode()


@pytest.mark.django_db
def test_the_api_docs_and_schema_are_served() -> None:
    client = Client()
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/clubs/{slug}/seasons/create/" in schema.content
    assert client.get("/api/docs/").status_code == 200


def test_the_pages_speak_german_first_with_the_clubs_own_catalogue(member: PersonaClient) -> None:
    html = member.get("/").content.decode()
    assert "Meine Vereine" in html
    assert "Verein gründen" in html
    english = member.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Found a club" in english


def test_the_home_page_leads_straight_to_an_open_evening(club: Club, member: PersonaClient) -> None:
    from tests.e2e.tables import open_evening, players_of

    html = member.get("/").content.decode()
    assert f'href="/clubs/{club.slug}/book/"' in html
    assert f'href="/clubs/{club.slug}/table/"' in html
    assert "open-evening" not in html
    evening = open_evening(club, players_of(club))
    html = member.get("/").content.decode()
    assert f'class="button open-evening" href="/evenings/{evening.pk}/"' in html
    evening.status = "closed"
    evening.save()
    assert "open-evening" not in member.get("/").content.decode()
