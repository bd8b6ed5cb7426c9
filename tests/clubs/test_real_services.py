"""Against real services: PostgreSQL, a Celery worker on Redis, headless Chromium.

Each test skips (naming what is missing) where its service is absent; .ci/run
provides all three.
"""

from __future__ import annotations

import datetime
import os
import threading
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from clubs.models import GameKind, Season
from tests.conftest import chromium_path
from tests.factories import PASSWORD, SeasonFactory, UserFactory


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgresql_enforces_one_open_season_with_a_partial_unique_index() -> None:
    assert connection.vendor == "postgresql"
    season = SeasonFactory.create(game_kind=GameKind.KOENIGRUFEN)
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(
            club=season.club,
            name="Race",
            game_kind=GameKind.KOENIGRUFEN,
            start=datetime.date(2026, 1, 1),
        )
    # A closed one of the same game is fine: the index covers open seasons only.
    Season.objects.create(
        club=season.club,
        name="Old",
        game_kind=GameKind.KOENIGRUFEN,
        start=datetime.date(2025, 1, 1),
        status=Season.Status.CLOSED,
    )


@pytest.mark.celery_worker
def test_a_real_worker_runs_a_task_sent_through_redis() -> None:
    from celery import Celery
    from celery.contrib.testing.worker import start_worker

    url = os.environ["CELERY_TEST_BROKER_URL"]
    # The project's Celery configuration, pointed at the test Redis database.
    app = Celery("stichbuch-worker-test")
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.update(broker_url=url, result_backend=url, task_always_eager=False)

    @app.task(name="tests.add")
    def add(a: int, b: int) -> int:
        return a + b

    with start_worker(app, pool="solo", perform_ping_check=False, loglevel="WARNING"):
        assert add.delay(2, 3).get(timeout=30) == 5


def _in_own_thread(work: Any) -> None:
    """Run ``work`` in a fresh thread and re-raise what it raised.

    Playwright's sync API refuses to start in a thread whose event loop is
    already running, as the tests/e2e session's browser leaves this one.
    """
    errors: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as error:  # handed back to the test's thread
            errors.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive(), "the browser did not finish within 120 s"
    if errors:
        raise errors[0]


@pytest.mark.e2e
def test_a_member_logs_in_with_a_real_browser_and_sees_german_pages(live_server: Any) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api")
    UserFactory.create(username="franz")

    def browse() -> None:
        with playwright_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium_path(), args=["--no-sandbox", "--disable-gpu"]
            )
            try:
                page = browser.new_page(locale="de-AT")
                page.goto(f"{live_server.url}/accounts/login/")
                assert page.locator("h1").inner_text() == "Anmelden"
                page.fill("#id_username", "franz")
                page.fill("#id_password", PASSWORD)
                page.click("button[type=submit]")
                page.wait_for_url(f"{live_server.url}/")
                assert "Meine Vereine" in page.content()
            finally:
                browser.close()

    _in_own_thread(browse)
