"""Settings come from the environment and fail loudly, naming the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from stichbuch.env import database_from_url, env_bool, env_int, env_list, env_str

REPO = Path(__file__).resolve().parents[2]


def test_a_bad_boolean_names_the_variable() -> None:
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        env_bool("DEBUG", False, environ={"DEBUG": "vielleicht"})


@pytest.mark.parametrize(
    ("raw", "value"), [("1", True), ("Yes", True), ("off", False), ("", False)]
)
def test_booleans_are_read_in_the_usual_spellings(raw: str, value: bool) -> None:
    assert env_bool("X", not value, environ={"X": raw}) is value


def test_a_bad_integer_names_the_variable() -> None:
    with pytest.raises(ImproperlyConfigured, match="AXES_FAILURE_LIMIT"):
        env_int("AXES_FAILURE_LIMIT", 5, environ={"AXES_FAILURE_LIMIT": "zehn"})


def test_a_missing_required_string_names_the_variable() -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        env_str("SECRET_KEY", environ={})


def test_lists_are_comma_separated_and_trimmed() -> None:
    assert env_list("H", environ={"H": " a.example, b.example ,,"}) == ["a.example", "b.example"]
    assert env_list("H", ["x"], environ={}) == ["x"]


def test_a_postgres_url_becomes_a_postgresql_database() -> None:
    config = database_from_url(
        "postgres://karten:ge%40heim@db.example:6543/stichbuch?sslmode=require", base_dir=REPO
    )
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["USER"], config["PASSWORD"], config["HOST"], config["PORT"]) == (
        "karten",
        "ge@heim",
        "db.example",
        "6543",
    )
    assert config["NAME"] == "stichbuch"
    assert config["OPTIONS"] == {"sslmode": "require", "prepare_threshold": 5}
    assert database_from_url("postgresql://h/db", base_dir=REPO)["NAME"] == "db"


@pytest.mark.parametrize(
    ("query", "threshold"),
    [("", 5), ("?prepare_threshold=0", 0), ("?prepare_threshold=none", None)],
)
def test_prepared_statements_are_on_unless_the_url_turns_them_off(
    query: str, threshold: int | None
) -> None:
    options = database_from_url(f"postgres://h/db{query}", base_dir=REPO)["OPTIONS"]
    assert options["prepare_threshold"] == threshold


def test_sqlite_urls_take_relative_paths_from_the_repository() -> None:
    assert database_from_url("sqlite:///db.sqlite3", base_dir=REPO)["NAME"] == REPO / "db.sqlite3"
    assert database_from_url("sqlite:////tmp/x.sqlite3", base_dir=REPO)["NAME"] == Path(
        "/tmp/x.sqlite3"
    )


@pytest.mark.parametrize(
    "url",
    [
        "mysql://h/db",
        "postgres://h/",
        "postgres://h:port/db",
        "postgres://h/db?prepare_threshold=often",
        "sqlite://",
        "db.sqlite3",
    ],
)
def test_a_bad_database_url_names_the_variable(url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        database_from_url(url, base_dir=REPO)


def _run_settings(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run manage.py in a bare environment, like a production start.

    Only PATH and HOME are kept: no PYTEST_VERSION, and nothing another test or the
    CI script set for the test run (DATABASE_URL, DJANGO_ALLOW_ASYNC_UNSAFE, ...).
    """
    clean = {key: os.environ[key] for key in ("PATH", "HOME") if key in os.environ}
    clean["LANG"] = "C.UTF-8"
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_debug_a_secret_key_is_required() -> None:
    result = _run_settings({"DEBUG": "0"}, "check")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_a_bad_debug_value_stops_the_start() -> None:
    result = _run_settings({"DEBUG": "maybe"}, "check")
    assert result.returncode != 0
    assert "DEBUG" in result.stderr


def test_the_deploy_check_is_clean_with_production_values() -> None:
    result = _run_settings(
        {
            "DEBUG": "0",
            "SECRET_KEY": "x" * 64 + "a-long-random-production-secret-key-0123456789",
            "ALLOWED_HOSTS": "stichbuch.example",
            "CSRF_TRUSTED_ORIGINS": "https://stichbuch.example",
            "DATABASE_URL": "sqlite:////tmp/stichbuch-deploy-check.sqlite3",
        },
        "check",
        "--deploy",
    )
    assert result.returncode == 0, result.stderr + result.stdout
    output = result.stderr + result.stdout
    assert "security." not in output, output


def test_without_a_broker_celery_tasks_run_in_process() -> None:
    if os.environ.get("CELERY_BROKER_URL"):
        pytest.skip("CELERY_BROKER_URL is set in this environment")
    from stichbuch.celery import app

    assert settings.CELERY_TASK_ALWAYS_EAGER is True
    assert app.conf.task_always_eager is True
    assert app.conf.task_acks_late is True
    assert app.conf.accept_content == ["json"]
    assert app.conf.task_soft_time_limit < app.conf.task_time_limit


def test_a_worker_that_loses_its_broker_cancels_the_task_the_broker_hands_out_again() -> None:
    from stichbuch.celery import app

    # Acknowledged late, a running task is redelivered when the connection goes: the
    # worker drops its own copy instead of finishing it beside the redelivered one.
    assert app.conf.task_acks_late is True
    assert app.conf.worker_cancel_long_running_tasks_on_connection_loss is True


def test_german_is_the_default_language() -> None:
    assert settings.LANGUAGE_CODE == "de"
    assert [code for code, _name in settings.LANGUAGES] == ["de", "en"]


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "203.0.113.9", "10.0.0.1"),  # no proxy: the header is the client's to forge
        (1, "198.51.100.7, 203.0.113.9", "203.0.113.9"),  # the proxy appended the last one
        (2, "198.51.100.7, 203.0.113.9", "198.51.100.7"),
        (2, "203.0.113.9", "10.0.0.1"),  # shorter than the proxy chain: not trusted
    ],
)
def test_login_throttling_sees_the_client_behind_trusted_proxies(
    settings: Any, proxies: int, forwarded: str, expected: str
) -> None:
    from django.test import RequestFactory

    from stichbuch.client_ip import client_ip

    settings.TRUSTED_PROXY_COUNT = proxies
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected
