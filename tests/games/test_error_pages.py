"""The 404 and 500 pages speak German first, as every page does."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

pytestmark = pytest.mark.django_db


def test_a_missing_page_answers_in_german(client: Client, settings: object) -> None:
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404
    assert "Seite nicht gefunden" in response.content.decode()


def test_the_server_error_page_is_german_and_needs_no_context() -> None:
    with translation.override("de"):
        html = render_to_string("500.html")
    assert "Etwas ist schiefgegangen" in html
    assert 'lang="de"' in html
