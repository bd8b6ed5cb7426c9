"""The apps' hand-written SQL: every statement the ORM does not write, each with the
figure that justifies it (``tests/games/test_orm_only.py`` keeps them here and at
most three).

They run through Django's cursor, so ``connection.queries`` and
``CaptureQueriesContext`` see them, inside the caller's transaction; rows come back
as model instances through the fields' own converters (``from_db_value``) and
``Model.from_db``, as a queryset would build them.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Model

from clubs.models import Club, Membership, Player
from games.models import Evening, EveningSeat, Game

# --- Rows in bulk ---------------------------------------------------------------------------


def rows_insert(
    *,
    model: type[Model],
    fields: Sequence[str],
    rows: Iterable[Sequence[Any]],
) -> None:
    """Insert ``rows`` (tuples of ``fields``' values, attnames) into ``model``'s table.

    PostgreSQL's binary ``COPY`` (psycopg's ``cursor.copy``), one ``executemany`` on
    SQLite. Measured (``bench/rebuild.py --games 20000``): a rebuild's per-game
    rows through ``bulk_create`` took 14.1 s of CPU, through ``COPY`` 7.1 s. Binary,
    not text: writing 200,000 rows of ``PlayerGame``'s eighteen columns took 1.15 s
    of CPU as text (every float and timestamp formatted), 0.12 s binary.
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


# --- The append's lock ----------------------------------------------------------------------

Converter = Callable[[Any, Any, Any], Any]


@functools.cache
def _converters(model: type[Model], vendor: str) -> list[tuple[str, Any, list[Converter]]]:
    """Each concrete field's attname, column and the converters a queryset applies to it."""
    out = []
    field: Any
    for field in model._meta.concrete_fields:
        column = field.get_col(model._meta.db_table)
        converters = [
            *connection.ops.get_db_converters(column),
            *field.get_db_converters(connection),
        ]
        out.append((field.attname, column, converters))
    return out


def _instance(model: type[Model], values: Sequence[Any]) -> Any:
    """``model`` from its concrete fields' column values, as a queryset builds it."""
    attnames, converted = [], []
    for (attname, column, converters), value in zip(
        _converters(model, connection.vendor), values, strict=True
    ):
        for converter in converters:
            value = converter(value, column, connection)
        attnames.append(attname)
        converted.append(value)
    return model.from_db(connection.alias, attnames, converted)


def _columns(model: type[Model], alias: str) -> str:
    return ", ".join(
        f"{alias}.{connection.ops.quote_name(field.column)}"
        for field in model._meta.concrete_fields
    )


@functools.cache
def _game_for_append_sql(vendor: str, members_only: bool) -> str:
    qn = connection.ops.quote_name
    agg = "JSONB_OBJECT_AGG" if vendor == "postgresql" else "JSON_GROUP_OBJECT"
    lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""
    member = " AND m.id IS NOT NULL" if members_only else ""
    return (
        f"SELECT {_columns(Game, 'g')}, {_columns(Evening, 'e')}, {_columns(Club, 'c')}, "
        f"m.{qn('role')}, "
        f"(SELECT {agg}(CAST(s.{qn('player_id')} AS TEXT), p.{qn('display_name')})"
        f" FROM {qn(EveningSeat._meta.db_table)} s"
        f" JOIN {qn(Player._meta.db_table)} p ON p.id = s.{qn('player_id')}"
        f" WHERE s.{qn('evening_id')} = g.{qn('evening_id')}"
        f" AND p.{qn('club_id')} = e.{qn('club_id')})"
        f" FROM {qn(Game._meta.db_table)} g"
        f" JOIN {qn(Evening._meta.db_table)} e ON e.id = g.{qn('evening_id')}"
        f" JOIN {qn(Club._meta.db_table)} c ON c.id = e.{qn('club_id')}"
        f" LEFT JOIN {qn(Membership._meta.db_table)} m"
        f" ON m.{qn('club_id')} = e.{qn('club_id')} AND m.{qn('user_id')} = %s"
        f" WHERE g.id = %s{member}{lock}"
    )


def game_for_append(*, game_id: int, user_id: int | None, members_only: bool) -> Game | None:
    """``games.selectors.game_for_append``'s one statement (see there for the contract).

    Hand-written because the ORM's building of it was most of an append's CPU:
    measured in process on PostgreSQL (``bench/append_profile.py``'s setup), the
    queryset (``select_for_update(of=("self",))``, ``select_related`` of the evening
    and club, the role and the seats' names as subqueries, ``Exists`` of the
    membership) cost 2.7 ms of CPU per append, this statement 0.3 ms; the whole
    append 7.9 ms, against 1.8 ms for a bare insert.
    """
    with connection.cursor() as cursor:
        cursor.execute(_game_for_append_sql(connection.vendor, members_only), [user_id, game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    games, evenings = len(Game._meta.concrete_fields), len(Evening._meta.concrete_fields)
    clubs = len(Club._meta.concrete_fields)
    game: Any = _instance(Game, row[:games])
    evening = _instance(Evening, row[games : games + evenings])
    evening.club = _instance(Club, row[games + evenings : games + evenings + clubs])
    game.evening = evening
    role, names = row[games + evenings + clubs :]
    game.member_role = role
    game.seat_names = json.loads(names) if isinstance(names, str) else names
    return game
