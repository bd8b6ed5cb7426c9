"""The site's icon: ``/favicon.ico`` (which every browser asks for) is served, and every
page, the error page included, links it and its SVG."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string

from tests.conftest import PersonaClient

pytestmark = pytest.mark.django_db


def test_the_root_serves_the_favicon_as_an_icon_file(anonymous: PersonaClient) -> None:
    response = anonymous.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    # An ICO header: reserved 0, type 1 (icon), then the number of images.
    assert response.content[:4] == b"\x00\x00\x01\x00"
    assert int.from_bytes(response.content[4:6], "little") >= 1


def test_every_page_links_the_icon_and_the_svg_it_links_is_there(
    anonymous: PersonaClient, member: PersonaClient
) -> None:
    for client, url in ((anonymous, "/accounts/login/"), (member, "/")):
        html = client.get(url).content.decode()
        assert '<link rel="icon" href="/favicon.ico"' in html, url
        assert 'type="image/svg+xml"' in html and "img/favicon.svg" in html, url
    svg = finders.find("img/favicon.svg")
    assert isinstance(svg, str) and "<svg" in Path(svg).read_text(encoding="utf-8")
    assert '<link rel="icon" href="/favicon.ico"' in render_to_string("500.html")


def test_the_installed_app_has_the_icon_too(anonymous: PersonaClient) -> None:
    icons = anonymous.get("/manifest.webmanifest").json()["icons"]
    assert [icon["type"] for icon in icons] == ["image/svg+xml"]
    src = icons[0]["src"]
    assert src.endswith("img/favicon.svg") and icons[0]["sizes"] == "any"
