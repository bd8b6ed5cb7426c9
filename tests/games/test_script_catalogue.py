"""The scripts' sentences come from the message catalogue: ``/jsi18n/<language>/``
serves the ``djangojs`` catalogue of the language it names, as a script from this
origin, to anyone (the live link's page has no account); the recording page and the
live view link the catalogue of the page's language before their scripts and get
only data (the names of the engine's codes) in their JSON; the service worker keeps
the catalogue of every language for the pages opened without a network."""

from __future__ import annotations

import json
import re
from typing import Any

from django.conf import settings

from games.models import Evening, Game
from live import services as live_services
from tests.conftest import PersonaClient


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
        # Once: the hidden live view on this page does not load it again.
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
