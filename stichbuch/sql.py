"""The apps' hand-written SQL: every statement the ORM does not write, each with the
reason that justifies it (``tests/games/test_orm_only.py`` keeps them here and at
most three). No app model is imported here: the callers hand their models in.

They run through Django's cursor, so ``connection.queries`` and
``CaptureQueriesContext`` see them, inside the caller's transaction.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Model

# --- Rows in bulk ---------------------------------------------------------------------------


def rows_insert(
    *,
    model: type[Model],
    fields: Sequence[str],
    rows: Iterable[Sequence[Any]],
) -> None:
    """Insert ``rows`` (tuples of ``fields``' values, attnames) into ``model``'s table.

    PostgreSQL's binary ``COPY`` (psycopg's ``cursor.copy``), one ``executemany`` on
    SQLite. For the bulk writes of a rebuild and an import, where ``bulk_create``'s
    model instances and the text form of every float and timestamp were most of the
    CPU (``bench/rebuild.py`` and ``bench/import_rate.py`` print their rates).
    """
    opts = model._meta
    table = connection.ops.quote_name(opts.db_table)
    columns: list[Any] = [opts.get_field(name) for name in fields]
    names = ", ".join(connection.ops.quote_name(field.column) for field in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # JSON values go in as the field prepares them (psycopg's ``Jsonb``); the
            # other columns' Python values are COPY's own.
            json_columns = [
                (i, functools.partial(field.get_db_prep_save, connection=connection))
                for i, field in enumerate(columns)
                if field.get_internal_type() == "JSONField"
            ]
            copying = f"COPY {table} ({names}) FROM STDIN (FORMAT BINARY)"
            with cursor.cursor.copy(copying) as copy:
                # Binary COPY takes each value in its column's exact type (an int8
                # is refused by an int4 column): the type as the field declares it,
                # without its modifier (``varchar(20)`` is ``varchar``).
                copy.set_types([_copy_type(field) for field in columns])
                for row in rows:
                    if json_columns:
                        row = list(row)
                        for i, prepare_json in json_columns:
                            row[i] = prepare_json(row[i])
                    copy.write_row(row)
            return
        # SQLite takes what Django's own inserts would send (datetimes as text).
        prepare = [
            functools.partial(field.get_db_prep_save, connection=connection) for field in columns
        ]
        values = [tuple(p(v) for p, v in zip(prepare, row, strict=True)) for row in rows]
        if values:
            marks = ", ".join(["%s"] * len(columns))
            cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", values)


def _copy_type(field: Any) -> str:
    """The PostgreSQL type name of ``field``'s column, as psycopg's ``set_types`` knows it."""
    return re.sub(r"\(.*\)", "", field.db_type(connection)).strip()
