"""Every answer carries a Content-Security-Policy that allows no inline script, and no
template has one: no <script> without src, no on*= handler, no javascript: URL.
(Real Chromium loads the pages under it: tests/e2e/test_content_security_policy.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
JS_URL = re.compile(r"javascript:", re.IGNORECASE)


def _directives(header: str) -> dict[str, list[str]]:
    parts = (part.strip().split() for part in header.split(";") if part.strip())
    return {name: values for name, *values in parts}


@pytest.mark.parametrize(
    "path", ["/", "/accounts/login/", "/accounts/signup/", "/api/docs/", "/kein-solcher-pfad/"]
)
def test_every_answer_sends_a_policy_without_inline_or_foreign_script(path: str) -> None:
    response = Client().get(path)
    policy = _directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]


def test_the_api_docs_load_swagger_ui_from_this_app_not_a_cdn() -> None:
    page = Client().get("/api/docs/").content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert any("swagger-ui-bundle.js" in s for s in sources)
    assert all(s.startswith("/") for s in sources), sources
    assert not INLINE_SCRIPT.search(page)
    assert "<style" not in page
    script = Client().get("/api/docs/?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")


def test_no_template_has_inline_script_or_event_handlers() -> None:
    found = []
    for template in sorted(TEMPLATES.rglob("*.html")):
        text = template.read_text(encoding="utf-8")
        for pattern in (INLINE_SCRIPT, HANDLER, JS_URL):
            found += [
                f"{template.relative_to(TEMPLATES)}: {m.group(0)}" for m in pattern.finditer(text)
            ]
    assert not found, found
