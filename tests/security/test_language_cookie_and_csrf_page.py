"""The language cookie is Secure and SameSite; a failed CSRF check answers with a page
of the site's own that the Content-Security-Policy lets show (issue 38, point 11)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.conftest import PersonaClient

pytestmark = pytest.mark.django_db


def test_choosing_a_language_sets_a_secure_same_site_cookie(settings: Any) -> None:
    settings.LANGUAGE_COOKIE_SECURE = True  # as in production (DEBUG off)
    response = Client().post("/i18n/setlang/", {"language": "en", "next": "/"})
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "en"
    assert cookie["secure"] is True
    assert cookie["samesite"] == "Lax"
    assert cookie["httponly"] is True


def test_a_form_sent_without_its_csrf_token_gets_our_page_without_inline_style(
    member: PersonaClient,
) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(member.user)
    response = client.post("/accounts/password/", {"old_password": "x"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "<style" not in html.lower()
    assert "Das Formular ist abgelaufen" in html
    assert "style-src 'self'" in response["Content-Security-Policy"]
