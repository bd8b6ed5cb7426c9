"""Small typed helpers that read settings from the environment.

Each helper fails loudly: a value that cannot be understood raises
``ImproperlyConfigured`` naming the variable, so a typo in a deployment stops
the process at start instead of silently falling back to a default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(
    name: str, default: str | None = None, *, environ: Mapping[str, str] | None = None
) -> str:
    """Return the variable, or ``default``; raise if both are missing."""
    environ = os.environ if environ is None else environ
    value = environ.get(name)
    if value is None:
        if default is None:
            raise ImproperlyConfigured(f"The environment variable {name} is required.")
        return default
    return value


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    """Read a yes/no flag: 1/0, true/false, yes/no, on/off (any case)."""
    environ = os.environ if environ is None else environ
    raw = environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"The environment variable {name} must be a boolean (1/0, true/false, yes/no, on/off), "
        f"not {raw!r}."
    )


def env_int(name: str, default: int, *, environ: Mapping[str, str] | None = None) -> int:
    """Read an integer."""
    environ = os.environ if environ is None else environ
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(
            f"The environment variable {name} must be an integer, not {raw!r}."
        ) from None


def env_list(
    name: str, default: list[str] | None = None, *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """Read a comma-separated list; blanks around items are dropped."""
    environ = os.environ if environ is None else environ
    raw = environ.get(name)
    if raw is None:
        return list(default or [])
    return [item.strip() for item in raw.split(",") if item.strip()]


_POSTGRES_SCHEMES = {"postgres", "postgresql", "pgsql"}


def database_from_url(url: str, *, name: str = "DATABASE_URL", base_dir: Path) -> dict[str, Any]:
    """Turn a database URL into a Django ``DATABASES`` entry.

    Supported: ``postgres://user:password@host:port/dbname?sslmode=require``
    (also ``postgresql://``) and ``sqlite:///relative/or/absolute/path.sqlite3``
    (``sqlite:////abs/path`` or ``sqlite:///:memory:``). A relative SQLite path
    is taken from the repository root.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in _POSTGRES_SCHEMES:
        db_name = unquote(parts.path.lstrip("/"))
        if not db_name:
            raise ImproperlyConfigured(f"{name} must name a database: {url!r}.")
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"{name} has a bad port: {url!r}.") from None
        options: dict[str, Any] = dict(parse_qsl(parts.query))
        # Server-side prepared statements (psycopg's threshold; Django turns them off
        # unless asked): a statement the ORM sends five times on a connection (every
        # append's lock, read and writes) is then planned once per connection, not on
        # every card. Behind a pooler in transaction mode, ?prepare_threshold=none
        # turns them off.
        threshold = str(options.pop("prepare_threshold", "5")).strip().lower()
        if threshold in ("none", ""):
            options["prepare_threshold"] = None
        elif threshold.isdigit():
            options["prepare_threshold"] = int(threshold)
        else:
            raise ImproperlyConfigured(
                f"{name}: prepare_threshold must be a number or none, not {threshold!r}."
            )
        config: dict[str, Any] = {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": db_name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": unquote(parts.hostname or ""),
            "PORT": str(port or ""),
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": options,
        }
        return config
    if scheme == "sqlite":
        raw_path = unquote(parts.path)
        # sqlite:///db.sqlite3 -> path "/db.sqlite3" means relative "db.sqlite3";
        # sqlite:////abs/db.sqlite3 -> path "//abs/db.sqlite3" means absolute.
        if raw_path in ("", "/"):
            raise ImproperlyConfigured(f"{name} must name an SQLite file: {url!r}.")
        relative = raw_path[1:]
        if relative == ":memory:":
            db_path: str | Path = ":memory:"
        elif relative.startswith("/"):
            db_path = Path(relative)
        else:
            db_path = base_dir / relative
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": db_path,
            # SQLite locks the whole file; wait for a busy writer rather than fail.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    raise ImproperlyConfigured(
        f"{name} must start with postgres://, postgresql:// or sqlite://, not {url!r}."
    )
