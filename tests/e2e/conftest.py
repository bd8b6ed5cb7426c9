"""Real headless Chromium against pytest-django's live server.

Every test here is marked ``e2e`` and skips (with the reason) when Chromium is
missing. Playwright's sync API runs an event loop in this thread, which makes
Django refuse synchronous database calls from the test; the live server runs
in its own thread, so allowing them here is safe.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def _chromium() -> str | None:
    path = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if os.path.exists(path):
        return path
    return shutil.which("chromium")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    path = _chromium()
    if path is None:
        pytest.skip("needs Chromium: set CHROMIUM or install Debian's chromium package")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - playwright is a dev dependency
        pytest.skip("needs the playwright package")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page the size of a phone, German first like the club's members."""
    context = browser.new_context(viewport=PHONE, locale="de-AT", device_scale_factor=2)
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def desktop(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP, locale="de-AT")
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


def shoot(page: Any, name: str) -> None:
    """Save a full-page screenshot to artifacts/screenshots/ (gitignored)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def no_horizontal_scroll(page: Any) -> bool:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width <= page.viewport_size["width"]
