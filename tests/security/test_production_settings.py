"""Production settings: secrets only from the environment, strict cookies, a clean deploy check.

Each test starts ``manage.py`` in a subprocess with a production-like
environment (no DEBUG, no PYTEST_VERSION), as gunicorn would load it.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(64),
    "ALLOWED_HOSTS": "stichbuch.example",
    "CSRF_TRUSTED_ORIGINS": "https://stichbuch.example",
    "DATABASE_URL": "sqlite:////tmp/stichbuch-security-check.sqlite3",
}


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        # DJANGO_ALLOW_ASYNC_UNSAFE is set by tests/e2e for this process only; a
        # production start never has it, and check --deploy rightly flags it.
        if k
        not in {
            "PYTEST_VERSION",
            "DEBUG",
            "SECRET_KEY",
            "DATABASE_URL",
            "ALLOWED_HOSTS",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
        and not k.startswith(("SECURE_", "SESSION_", "CSRF_"))
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def production_settings() -> dict[str, object]:
    names = [
        "DEBUG",
        "SESSION_COOKIE_SECURE",
        "SESSION_COOKIE_HTTPONLY",
        "SESSION_COOKIE_SAMESITE",
        "CSRF_COOKIE_SECURE",
        "CSRF_COOKIE_SAMESITE",
        "LANGUAGE_COOKIE_SECURE",
        "LANGUAGE_COOKIE_SAMESITE",
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SECURE_CONTENT_TYPE_NOSNIFF",
        "X_FRAME_OPTIONS",
        "ALLOWED_HOSTS",
    ]
    code = (
        "import json; from django.conf import settings as s; "
        f"print(json.dumps({{n: getattr(s, n, None) for n in {names!r}}}))"
    )
    result = run(PRODUCTION, "shell", "-c", code)
    assert result.returncode == 0, result.stderr
    loaded: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return loaded


def test_production_cookies_are_secure_http_only_and_same_site() -> None:
    values = production_settings()
    assert values["DEBUG"] is False
    assert values["SESSION_COOKIE_SECURE"] is True
    assert values["SESSION_COOKIE_HTTPONLY"] is True
    assert values["SESSION_COOKIE_SAMESITE"] in ("Lax", "Strict")
    assert values["CSRF_COOKIE_SECURE"] is True
    assert values["LANGUAGE_COOKIE_SECURE"] is True
    assert values["LANGUAGE_COOKIE_SAMESITE"] in ("Lax", "Strict")
    assert values["SECURE_SSL_REDIRECT"] is True
    assert isinstance(values["SECURE_HSTS_SECONDS"], int)
    assert values["SECURE_HSTS_SECONDS"] >= 31_536_000
    assert values["X_FRAME_OPTIONS"] == "DENY"
    assert values["ALLOWED_HOSTS"] == ["stichbuch.example"]


def test_production_refuses_to_start_without_a_secret_key() -> None:
    for missing in ({}, {"SECRET_KEY": ""}):
        env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"} | missing
        result = run(env, "check")
        assert result.returncode != 0
        assert "SECRET_KEY" in result.stderr


def test_the_development_key_is_never_used_in_production() -> None:
    result = run(
        PRODUCTION, "shell", "-c", "from django.conf import settings; print(settings.SECRET_KEY)"
    )
    assert result.returncode == 0, result.stderr
    assert "insecure" not in result.stdout
    assert result.stdout.strip().splitlines()[-1] == PRODUCTION["SECRET_KEY"]


def test_the_deploy_check_passes_at_warning_level() -> None:
    result = run(PRODUCTION, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_deploy_check_catches_a_weak_secret_key() -> None:
    result = run(
        {**PRODUCTION, "SECRET_KEY": "short"}, "check", "--deploy", "--fail-level", "WARNING"
    )
    assert result.returncode != 0
    assert "security.W009" in result.stdout + result.stderr


def test_no_secret_is_written_into_the_settings() -> None:
    source = (REPO / "stichbuch" / "settings.py").read_text()
    # The only literal key is the development one, used only with DEBUG or under tests.
    assert source.count("SECRET_KEY = env_str(") == 2
    assert "django-insecure-stichbuch-development-only" in source
    for line in source.splitlines():
        if "PASSWORD" in line and "=" in line and "env_" not in line:
            assert "HASHERS" in line or "VALIDATORS" in line or "PASSWORD_" in line, line
