"""Statements written by hand, run on the connection Django holds for the request."""

from __future__ import annotations

from typing import Any

import psycopg
from django.db import connection as default_connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model


def execute(
    connection: BaseDatabaseWrapper, statement: str, params: list[Any], *, fetch: bool = False
) -> list[Any]:
    """Run one statement; its rows if ``fetch``.

    On PostgreSQL the statement is prepared on the connection (callers pass fixed
    texts, so each is parsed and planned once per connection rather than per
    request; ``?prepare_threshold=none`` in the database URL turns this off). It
    runs in the caller's transaction, and its errors come as Django's
    (``IntegrityError`` and so on); it bypasses Django's cursor wrappers, so it is
    not in ``connection.queries`` (nor counted by ``CaptureQueriesContext``), and
    it runs Django's connection health check itself, as ``connection.cursor()``
    would (it may be a request's first statement). Elsewhere it goes through
    Django's cursor.
    """
    if connection.vendor == "postgresql":
        connection.close_if_health_check_failed()
        connection.ensure_connection()
        with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
            cursor.execute(statement, params, prepare=True)
            return cursor.fetchall() if fetch else []
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchall() if fetch else []


def table(model: type[Model]) -> str:
    """The model's table name, quoted for the default connection."""
    return default_connection.ops.quote_name(model._meta.db_table)


def column(model: type[Model], name: str) -> str:
    """The column of the model's field ``name``, quoted for the default connection (read
    from ``_meta``, so a renamed field changes the statements with it)."""
    found = model._meta.get_field(name).column  # type: ignore[union-attr]
    assert isinstance(found, str)
    return default_connection.ops.quote_name(found)
