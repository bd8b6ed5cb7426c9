"""The scripts' sentences come from the message catalogue: ``/jsi18n/<language>/``
serves the ``djangojs`` catalogue of the language it names, as a script from this
origin, to anyone (the live link's page has no account); every page links the
catalogue of its language once, before its scripts (base.html), and the scripts get
only data from the page (the names of the engine's codes, a club's name, a step's
kind), no sentence in a data attribute or in their JSON; the service worker keeps the
catalogue of every language for the pages opened without a network."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from django.conf import settings

from clubs.models import Club, Invitation
from games.models import Evening, Game
from live import services as live_services
from tests.conftest import PersonaClient
from tests.factories import PlayerFactory
from tournaments import services as tournament_services

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# A data attribute whose value the server translates: a sentence handed to a script.
SENTENCE_IN_DATA = re.compile(
    r"""\b(data-[\w-]+)=(["'])[^"']*\{%\s*(?:trans|translate|blocktrans|blocktranslate)\b"""
)
# page.js shows the question the server worded for its element, the element's names in it
# (data-confirm); it writes nothing into the page, and one list of the questions of every
# page in page.js would be the hand-written catalogue all over again.
QUESTION_OF_ITS_ELEMENT = "data-confirm"


def _catalog(body: bytes) -> dict[str, Any]:
    """The translations in Django's catalogue script (none: no ``newcatalog``)."""
    found = re.search(r"const newcatalog = (\{.*?\});\n", body.decode(), re.S)
    if found is None:
        assert b"django.gettext = function" in body
        return {}
    catalog: dict[str, Any] = json.loads(found.group(1))
    return catalog


def _config(html: str, name: str) -> dict[str, Any]:
    found = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', html)
    assert found is not None
    config: dict[str, Any] = json.loads(found.group(1))
    return config


def test_the_german_catalogue_is_a_script_with_the_recording_pages_sentences(
    anonymous: PersonaClient,
) -> None:
    response = anonymous.get("/jsi18n/de/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    catalog = _catalog(response.content)
    assert catalog["Undo"] == "Rückgängig"
    assert catalog["Who is the Hilfer?"] == "Wer ist der Hilfer?"
    assert catalog["tally in the replay\x04no raise"] == "keine Fahrstufe"  # pgettext's key
    assert b"django.gettext = function" in response.content


def test_the_catalogue_holds_the_projects_texts_and_not_the_admins(
    anonymous: PersonaClient,
) -> None:
    catalog = _catalog(anonymous.get("/jsi18n/de/").content)
    assert "January" not in catalog  # the admin's calendar script
    assert "Undo" in catalog


def test_the_english_catalogue_is_the_texts_as_written(anonymous: PersonaClient) -> None:
    response = anonymous.get("/jsi18n/en/")
    assert response.status_code == 200
    assert _catalog(response.content) == {}


def test_a_language_the_site_does_not_speak_is_not_found(anonymous: PersonaClient) -> None:
    assert anonymous.get("/jsi18n/fr/").status_code == 404
    assert anonymous.get("/jsi18n/de-xx/").status_code == 404


def test_a_browser_holding_the_catalogue_asks_again_and_gets_a_304(
    anonymous: PersonaClient,
) -> None:
    first = anonymous.get("/jsi18n/de/")
    assert first["Cache-Control"] == "no-cache"
    again = anonymous.get("/jsi18n/de/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert anonymous.get("/jsi18n/en/")["ETag"] != first["ETag"]


def test_the_recording_page_links_the_catalogue_of_its_language_before_its_script(
    dealt_game: Game, scorer: PersonaClient
) -> None:
    for language in ("de", "en"):
        html = scorer.get(f"/games/{dealt_game.pk}/", HTTP_ACCEPT_LANGUAGE=language)
        text = html.content.decode()
        catalogue = f'<script src="/jsi18n/{language}/" defer></script>'
        # Once: base.html links it, neither the page nor its hidden live view again.
        assert text.count("/jsi18n/") == 1
        assert text.index(catalogue) < text.index("/static/js/record.js")


def test_the_recording_page_gets_the_names_of_the_codes_and_no_sentences(
    dealt_game: Game, scorer: PersonaClient
) -> None:
    html = scorer.get(f"/games/{dealt_game.pk}/").content.decode()
    config = _config(html, "record-config")
    assert "t" not in config
    words = config["words"]
    assert words["suits"]["E"] == "Eichel"
    assert words["levels"]["kontra"] == "Kontra"
    assert words["errors"]["must_follow_suit"].startswith("Farbe")
    assert 'id="offline-strings"' not in html


def test_the_live_link_page_links_the_catalogue_before_the_live_view(
    anonymous: PersonaClient, evening: Evening
) -> None:
    token = live_services.link_token(live_services.live_link_create(evening=evening, user=None))
    html = anonymous.get(f"/live/{token}/").content.decode()
    assert html.index('<script src="/jsi18n/de/" defer></script>') < html.index("js/live.js")
    config = _config(html, "live-config")
    assert "t" not in config
    assert config["words"]["events"]["play"] == "Karte gespielt"


def test_the_evening_pages_live_view_links_the_catalogue(
    evening: Evening, scorer: PersonaClient
) -> None:
    html = scorer.get(f"/evenings/{evening.pk}/").content.decode()
    assert html.index('<script src="/jsi18n/de/" defer></script>') < html.index("js/live.js")


def test_the_service_worker_keeps_the_catalogue_of_every_language(
    anonymous: PersonaClient,
) -> None:
    worker = anonymous.get("/sw.js").content.decode()
    for language, _name in settings.LANGUAGES:
        assert f'"/jsi18n/{language}/"' in worker  # fetched when the worker installs
    assert 'url.pathname.indexOf("/jsi18n/") === 0' in worker  # answered from its cache


def _scripts_after_the_catalogue(html: str, language: str = "de") -> None:
    catalogue = f'<script src="/jsi18n/{language}/" defer></script>'
    assert html.count("/jsi18n/") == 1
    assert html.index(catalogue) < html.index("/static/js/")


def test_every_page_links_the_catalogue_of_its_language_once_before_any_script(
    anonymous: PersonaClient,
    admin: PersonaClient,
    scorer: PersonaClient,
    club: Club,
    dealt_game: Game,
) -> None:
    for language in ("de", "en"):
        login = anonymous.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=language)
        _scripts_after_the_catalogue(login.content.decode(), language)
    pages = {
        admin: [f"/clubs/{club.slug}/"],
        scorer: [
            f"/evenings/{dealt_game.evening_id}/",
            f"/games/{dealt_game.pk}/",
            f"/games/{dealt_game.pk}/replay/",
        ],
    }
    for client, urls in pages.items():
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, url
            _scripts_after_the_catalogue(response.content.decode())


def test_no_template_hands_a_script_a_sentence_in_a_data_attribute() -> None:
    found = [
        f"{path.relative_to(TEMPLATES)}: {match.group(1)}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for match in SENTENCE_IN_DATA.finditer(path.read_text(encoding="utf-8"))
        if match.group(1) != QUESTION_OF_ITS_ELEMENT
    ]
    assert found == []


def test_the_outbox_banner_is_an_empty_status_that_sender_js_fills(
    scorer: PersonaClient, anonymous: PersonaClient
) -> None:
    html = scorer.get("/").content.decode()
    assert '<p id="outbox-banner" class="notice outbox-banner" role="status" hidden></p>' in html
    assert "/static/js/sender.js" in html
    assert 'id="outbox-banner"' not in anonymous.get("/accounts/login/").content.decode()


def test_an_invitations_share_button_names_the_club_as_data(
    club: Club, admin: PersonaClient
) -> None:
    admin.post(f"/clubs/{club.slug}/invitations/new/", {"role": "member"})
    invitation = Invitation.objects.get(club=club)
    html = admin.get(f"/clubs/{club.slug}/").content.decode()
    button = re.search(rf'<button [^>]*data-share-from="invitation-{invitation.pk}"[^>]*>', html)
    assert button is not None
    assert f'data-club="{club.name}"' in button.group(0)
    assert "data-done" not in button.group(0) and "data-share-text" not in button.group(0)


def test_the_replays_steps_say_what_they_are_and_the_script_names_them(
    dealt_game: Game, scorer: PersonaClient
) -> None:
    html = scorer.get(f"/games/{dealt_game.pk}/replay/").content.decode()
    assert '<section class="replay-step panel" data-kind="deal">' in html
    assert "data-title" not in html


def test_the_live_ranking_gets_its_links_and_unit_and_no_sentences(
    club: Club, anonymous: PersonaClient
) -> None:
    players = [PlayerFactory.create(club=club) for _ in range(8)]
    tournament = tournament_services.tournament_create(
        club=club,
        user=None,
        name="Preisfuchsen",
        game_kind="fuchsen",
        series_count=1,
        deals_per_series=1,
        players=[p.pk for p in players],
        seed="catalogue",
    )
    key = tournament_services.ranking_link_create(tournament=tournament).key
    html = anonymous.get(f"/turnier/{key}/").content.decode()
    assert set(_config(html, "ranking-config")) == {"state", "stream", "unit"}
    assert html.index("/jsi18n/de/") < html.index("/static/js/ranking.js")
