"""An admin changes the club's settings on a page: its name, time zone, unit and cards.

The club's address (its slug) stays; a refused value comes back at its field with a
400, and nothing is saved."""

from __future__ import annotations

from clubs.models import Club
from tests.conftest import PersonaClient

GOOD = {
    "name": "Kartenrunde Gasthaus Post",
    "time_zone": "Europe/Berlin",
    "currency_unit": Club.CurrencyUnit.POINTS,
    "card_face": Club.CardFace.FRENCH,
}


def test_an_admin_renames_the_club_and_its_address_stays(club: Club, admin: PersonaClient) -> None:
    form = admin.get(f"/clubs/{club.slug}/settings/", HTTP_ACCEPT_LANGUAGE="de")
    assert form.status_code == 200
    assert 'value="Stammtisch Gasthaus Post"' in form.content.decode()
    assert "250 Cent werden 250 Punkte" in form.content.decode()

    response = admin.post(
        f"/clubs/{club.slug}/settings/", GOOD, format="multipart", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 302
    assert response["Location"] == f"/clubs/{club.slug}/"
    club.refresh_from_db()
    assert (club.name, club.time_zone, club.currency_unit, club.card_face) == tuple(GOOD.values())
    assert club.slug == "gasthaus-post"
    page = admin.get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Die Einstellungen des Vereins sind gespeichert." in page
    assert "<h1>Kartenrunde Gasthaus Post</h1>" in page


def test_an_unknown_time_zone_or_an_empty_name_is_refused_at_its_field(
    club: Club, owner: PersonaClient
) -> None:
    for field, value in (("time_zone", "Europe/Gmunden"), ("name", " "), ("card_face", "x")):
        response = owner.post(
            f"/clubs/{club.slug}/settings/",
            {**GOOD, field: value},
            format="multipart",
            HTTP_ACCEPT_LANGUAGE="de",
        )
        assert response.status_code == 400
        assert response.context["form"].errors[field]
        club.refresh_from_db()
        assert club.name == "Stammtisch Gasthaus Post" and club.time_zone == "Europe/Vienna"
    page = response.content.decode()
    assert "Einstellungen" in page


def test_the_club_page_links_the_settings_for_admins_only(
    club: Club, admin: PersonaClient, scorer: PersonaClient
) -> None:
    link = f'href="/clubs/{club.slug}/settings/"'
    assert link in admin.get(f"/clubs/{club.slug}/").content.decode()
    assert link not in scorer.get(f"/clubs/{club.slug}/").content.decode()
    assert scorer.post(f"/clubs/{club.slug}/settings/", GOOD, format="multipart").status_code == 403
    club.refresh_from_db()
    assert club.name == "Stammtisch Gasthaus Post"
