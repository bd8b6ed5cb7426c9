"""The statements an append runs on every card, and a game start on every deal,
written once in plain SQL.

A scorer's phone sends one append per card. Built by the ORM, each of its
statements cost more CPU to *build* (0.3–0.5 ms: compiler, joins, converters)
than PostgreSQL spent running it, and an append ran nine of them; the bare
insert the load benchmark compares it with runs one. So the statements on that
path are here, as fixed SQL text with parameters: lock the game with its
evening and the caller's role, read the events, insert the new ones, update the
game, look up and store an idempotency key, and name the players. A game start
(once a deal, and the table waits for it) reads the evening with the caller's
role (every evening request does), locks it, names its seated players and
inserts the game: its ORM statements had cost twice the rest of the request.
Rows of whole models are read as the ORM reads them (``_loader``: the model's
columns and each one's converters, the backend's and the field's).

Everything else (imports, the ledger but for ``ledger.sql``, pages) stays with
the ORM. Table and column names are read from the models' ``_meta``, so a renamed
field changes the SQL with it. The SQL runs on both databases Stichbuch
supports, SQLite (the embedded default) and PostgreSQL: only the row lock
differs (SQLite locks the whole database for a write transaction anyway, as
the ORM's ``select_for_update`` does nothing there either), and values are
decoded here as the ORM's fields would decode them (JSON arrives as text from
both; SQLite returns datetimes as text).

Callers: ``games.services`` (writes) and ``games.selectors`` (reads). Every
function runs on the default database connection and, where it says so,
inside the caller's transaction.
"""

from __future__ import annotations

import datetime
import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model
from django.utils.dateparse import parse_datetime

from clubs.models import Club, Membership, Player, RuleProfile, Season
from games.models import Evening, EveningSeat, Game, GameEvent, IdempotencyRecord
from stichbuch import db

_table, _col = db.table, db.column

_M = TypeVar("_M", bound=Model)

# A stored event: (seq, type, payload, schema_version, recorded_by's username, recorded_at).
EventRow = tuple[int, str, dict[str, Any], int, str | None, Any]


@functools.cache
def _columns(model: type[Model], names: tuple[str, ...]) -> str:
    return ", ".join(_col(model, name) for name in names)


def _json(value: Any) -> Any:
    """A JSON column's value as the ORM's ``JSONField`` returns it (both backends send text)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def as_datetime(value: Any) -> datetime.datetime | None:
    """An aware datetime from a timestamp column or JSON text.

    SQLite stores naive UTC (its driver may hand back text or a naive
    datetime); PostgreSQL's JSON has ISO text with the offset.
    """
    if value is None:
        return None
    parsed = value if isinstance(value, datetime.datetime) else parse_datetime(value)
    if parsed is None:  # pragma: no cover - the ORM wrote it, the ORM's format
        raise ValueError(f"not a timestamp: {value!r}")
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=datetime.UTC)


def _db_datetime(value: datetime.datetime | None) -> Any:
    return connection.ops.adapt_datetimefield_value(value)


def _from_db(model: type[_M], values: dict[str, Any]) -> _M:
    """A model instance as the ORM loads one: ``values`` by attname, the other fields deferred.

    (``Model.from_db`` takes the values in the model's field order.)
    """
    names = [f.attname for f in model._meta.concrete_fields if f.attname in values]
    return model.from_db(connection.alias, names, [values[name] for name in names])


def _execute(statement: str, params: list[Any], *, fetch: bool = False) -> list[Any]:
    """``stichbuch.db.execute`` on the default connection (prepared on PostgreSQL: planning
    the locking statement took longer than running it)."""
    return db.execute(connection, statement, params, fetch=fetch)


def _needs_transaction() -> None:
    if not connection.in_atomic_block:
        raise RuntimeError("this statement belongs inside the caller's transaction")


def _valid_id(value: int) -> bool:
    """Could ``value`` be a primary key? (A URL may carry any number; SQLite cannot even
    bind one above 2**63 - 1, and none is a row.)"""
    return 0 < value < 2**63


@dataclass(frozen=True)
class _Loader:
    """Reads a model's rows as the ORM does: its concrete fields' columns under a table
    alias, and each column's converters (the backend's, then the field's), applied as
    ``SQLCompiler.apply_converters`` applies them."""

    model: type[Model]
    columns: str
    attnames: list[str]
    converters: tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...]

    def load(self, values: Sequence[Any]) -> Any:
        """The instance of these column values (in ``columns``' order), as from the ORM."""
        row = list(values)
        for position, converters, expression in self.converters:
            value = row[position]
            for converter in converters:
                value = converter(value, expression, connection)
            row[position] = value
        return self.model.from_db(connection.alias, self.attnames, row)


def _load_joined(row: Sequence[Any], loaders: Sequence[_Loader]) -> list[Any]:
    """The instances of a row that holds each loader's columns in turn."""
    instances = []
    start = 0
    for loader in loaders:
        end = start + len(loader.attnames)
        instances.append(loader.load(row[start:end]))
        start = end
    return instances


@functools.cache
def _loader(model: type[Model], alias: str) -> _Loader:
    fields = model._meta.concrete_fields
    converters = []
    for position, field in enumerate(fields):
        expression = field.get_col(alias)
        found = connection.ops.get_db_converters(expression) + expression.get_db_converters(
            connection
        )
        if found:
            converters.append((position, tuple(found), expression))
    return _Loader(
        model=model,
        columns=", ".join(f"{alias}.{connection.ops.quote_name(f.column)}" for f in fields),
        attnames=[field.attname for field in fields],
        converters=tuple(converters),
    )


# --- Lock the game, with its evening and the member's role ----------------------------------

_GAME_FIELDS = (
    "id",
    "evening",
    "number",
    "game_kind",
    "house_rules",
    "status",
    "result",
    "last_seq",
    "dealer",
    "created_by",
    "created_at",
    "finished_at",
)
_GAME_ATTNAMES = [Game._meta.get_field(name).attname for name in _GAME_FIELDS]  # type: ignore[union-attr]


@functools.cache
def _lock_game_sql(with_key: bool) -> str:
    game, evening, membership = _table(Game), _table(Evening), _table(Membership)
    player, seat, record = _table(Player), _table(EveningSeat), _table(IdempotencyRecord)
    columns = ", ".join(f"g.{_col(Game, name)}" for name in _GAME_FIELDS)
    evening_columns = ", ".join(
        f"e.{_col(Evening, name)}" for name in ("club", "season", "status", "game_kind")
    )
    # The names of everyone who sat at the evening: nearly always every player the
    # game's record names (the answer's legend), as one JSON object.
    aggregate = "json_object_agg" if connection.vendor == "postgresql" else "json_group_object"
    names = (
        f"(SELECT {aggregate}(CAST(p.{_col(Player, 'id')} AS TEXT), "
        f"p.{_col(Player, 'display_name')}) FROM {player} p "
        f"WHERE p.{_col(Player, 'club')} = e.{_col(Evening, 'club')} "
        f"AND p.{_col(Player, 'id')} IN (SELECT s.{_col(EveningSeat, 'player')} FROM {seat} s "
        f"WHERE s.{_col(EveningSeat, 'evening')} = e.{_col(Evening, 'id')}))"
    )
    key = (
        f"(SELECT k.{_col(IdempotencyRecord, 'fingerprint')} FROM {record} k "
        f"WHERE k.{_col(IdempotencyRecord, 'user')} = %s "
        f"AND k.{_col(IdempotencyRecord, 'key')} = %s)"
        if with_key
        else "NULL"
    )
    # PostgreSQL also brings the game's events, as one JSON array (see LockedGame.rows).
    events = (
        f"(SELECT json_agg(json_build_array({_event_columns('ev', 'u')}) "
        f"ORDER BY ev.{_col(GameEvent, 'seq')}) {_event_from('ev', 'u')} "
        f"WHERE ev.{_col(GameEvent, 'game')} = g.{_col(Game, 'id')})"
        if connection.vendor == "postgresql"
        else "NULL"
    )
    lock = " FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {columns}, {evening_columns}, m.{_col(Membership, 'role')}, {names}, {key}, "
        f"{events} "
        f"FROM {game} g JOIN {evening} e ON e.{_col(Evening, 'id')} = g.{_col(Game, 'evening')} "
        # A member's row only: a stranger's statement finds nothing and locks nothing.
        f"JOIN {membership} m ON m.{_col(Membership, 'club')} = e.{_col(Evening, 'club')} "
        f"AND m.{_col(Membership, 'user')} = %s "
        f"WHERE g.{_col(Game, 'id')} = %s{lock}"
    )


@dataclass(frozen=True)
class LockedGame:
    """What ``game_lock_with_role`` read with the lock.

    ``role``: the user's role in the game's club (only a member's statement finds
    the game).
    ``rows``: the game's events (``EventRow``, ``recorded_at`` possibly as ISO
    text: ``as_datetime``), or None where they still have to be read
    (``event_rows``): on SQLite, and when the statement waited for the lock
    while another append committed (its snapshot then predates the new events;
    ``last_seq`` tells).
    ``seat_names``: ``{str(pk): display_name}`` of every club player who sat at
    the game's evening. ``key_fingerprint``: the fingerprint stored for the
    user's idempotency key as of the statement's start, else None (a key stored
    while the statement waited for the lock is not seen: the caller looks again
    when the game turns out to have moved on).
    """

    game: Game
    role: str
    seat_names: dict[str, str]
    key_fingerprint: str | None
    rows: list[EventRow] | None


def game_lock_with_role(*, game_id: int, user_id: int, key: str | None) -> LockedGame | None:
    """Lock the game's row and read it with its evening, the user's role, names and key.

    One statement inside the caller's transaction; None for an unknown game and
    for a user who is not a member of its club, whose statement locks nothing.
    ``game.evening`` comes loaded (id, club, season, status, game kind; anything
    else of the evening loads on first use). The lock is the game row's only
    (``FOR UPDATE OF``), as ``services.game_lock`` takes it: it serialises
    appends to one game.
    """
    _needs_transaction()
    params: list[Any] = [*([user_id, key] if key is not None else []), user_id, game_id]
    found = _execute(_lock_game_sql(key is not None), params, fetch=True)
    if not found:
        return None
    row = found[0]
    values = dict(zip(_GAME_ATTNAMES, row, strict=False))
    for name in ("house_rules", "result"):
        values[name] = _json(values[name])
    for name in ("created_at", "finished_at"):
        values[name] = as_datetime(values[name])
    game = _from_db(Game, values)
    club_id, season_id, evening_status, game_kind, role, names, fingerprint, events = row[
        len(_GAME_FIELDS) :
    ]
    game.evening = _from_db(
        Evening,
        {
            "id": game.evening_id,
            "club_id": club_id,
            "season_id": season_id,
            "status": evening_status,
            "game_kind": game_kind,
        },
    )
    rows: list[EventRow] | None = None
    if connection.vendor == "postgresql":
        rows = [
            (seq, kind, payload, version, username, at)
            for seq, kind, payload, version, username, at in _json(events) or ()
        ]
        if len(rows) != game.last_seq:
            rows = None
    return LockedGame(
        game=game,
        role=role,
        seat_names=_json(names) or {},
        key_fingerprint=fingerprint,
        rows=rows,
    )


# --- An evening with its club, season, rule profile and the member's role --------------------


@functools.cache
def _evening_with_role_sql() -> str:
    evening, club, season, profile = (
        _loader(Evening, "e"),
        _loader(Club, "c"),
        _loader(Season, "s"),
        _loader(RuleProfile, "r"),
    )
    role = (
        f"(SELECT m.{_col(Membership, 'role')} FROM {_table(Membership)} m "
        f"WHERE m.{_col(Membership, 'club')} = e.{_col(Evening, 'club')} "
        f"AND m.{_col(Membership, 'user')} = %s)"
    )
    return (
        f"SELECT {evening.columns}, {club.columns}, {season.columns}, {profile.columns}, {role} "
        f"FROM {_table(Evening)} e "
        f"JOIN {_table(Club)} c ON c.{_col(Club, 'id')} = e.{_col(Evening, 'club')} "
        f"JOIN {_table(Season)} s ON s.{_col(Season, 'id')} = e.{_col(Evening, 'season')} "
        f"LEFT JOIN {_table(RuleProfile)} r "
        f"ON r.{_col(RuleProfile, 'id')} = e.{_col(Evening, 'rule_profile')} "
        f"WHERE e.{_col(Evening, 'id')} = %s"
    )


def evening_with_role(*, evening_id: int, user_id: int) -> Evening | None:
    """The evening with its club, season and rule profile loaded, as
    ``select_related("club", "season", "rule_profile")`` loads them, and
    ``member_role``: the user's role in its club (None for a non-member). None for
    an unknown evening. One statement."""
    if not _valid_id(evening_id):
        return None
    found = _execute(_evening_with_role_sql(), [user_id, evening_id], fetch=True)
    if not found:
        return None
    *columns, role = found[0]
    loaders = (_loader(Evening, "e"), _loader(Club, "c"), _loader(Season, "s"))
    evening, evening.club, evening.season = _load_joined(columns, loaders)
    # The LEFT JOIN's columns are all NULL where the evening names no profile.
    profile = _loader(RuleProfile, "r")
    evening.rule_profile = (
        profile.load(columns[-len(profile.attnames) :])
        if evening.rule_profile_id is not None
        else None
    )
    evening.member_role = role
    return evening


@functools.cache
def _evening_lock_sql() -> str:
    evening, club, season = _loader(Evening, "e"), _loader(Club, "c"), _loader(Season, "s")
    # FOR NO KEY UPDATE of the evening's row only (see ``services._lock_evening``: a
    # projection's inserts take KEY SHARE locks on the evening and season rows).
    lock = " FOR NO KEY UPDATE OF e" if connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {evening.columns}, {club.columns}, {season.columns} FROM {_table(Evening)} e "
        f"JOIN {_table(Club)} c ON c.{_col(Club, 'id')} = e.{_col(Evening, 'club')} "
        f"JOIN {_table(Season)} s ON s.{_col(Season, 'id')} = e.{_col(Evening, 'season')} "
        f"WHERE e.{_col(Evening, 'id')} = %s{lock}"
    )


def evening_lock(*, evening_id: int) -> Evening | None:
    """Lock the evening's row (inside the caller's transaction) and read it afresh with
    its club and season, as ``select_for_update(no_key=True, of=("self",))
    .select_related("club", "season")`` does; None if it is gone. One statement."""
    _needs_transaction()
    found = _execute(_evening_lock_sql(), [evening_id], fetch=True)
    if not found:
        return None
    loaders = (_loader(Evening, "e"), _loader(Club, "c"), _loader(Season, "s"))
    evening, evening.club, evening.season = _load_joined(found[0], loaders)
    return evening


@functools.cache
def _seated_names_sql() -> str:
    return (
        f"SELECT s.{_col(EveningSeat, 'player')}, p.{_col(Player, 'display_name')} "
        f"FROM {_table(EveningSeat)} s "
        f"JOIN {_table(Player)} p ON p.{_col(Player, 'id')} = s.{_col(EveningSeat, 'player')} "
        f"WHERE s.{_col(EveningSeat, 'evening')} = %s AND s.{_col(EveningSeat, 'left_at')} IS NULL "
        f"ORDER BY s.{_col(EveningSeat, 'position')}, s.{_col(EveningSeat, 'joined_at')}, "
        f"s.{_col(EveningSeat, 'id')}"
    )


def seated_names(*, evening_id: int) -> dict[str, str]:
    """``{str(player pk): display_name}`` of the evening's active seats, clockwise (the
    order of ``selectors.evening_seats``). One statement."""
    rows = _execute(_seated_names_sql(), [evening_id], fetch=True)
    return {str(player_id): name for player_id, name in rows}


# --- A new game -----------------------------------------------------------------------------


@functools.cache
def _next_number_sql() -> str:
    return (
        f"SELECT COALESCE(MAX({_col(Game, 'number')}), 0) + 1 FROM {_table(Game)} "
        f"WHERE {_col(Game, 'evening')} = %s"
    )


_INSERT_FIELDS = tuple(f for f in Game._meta.concrete_fields if not f.primary_key)


@functools.cache
def _game_insert_sql() -> str:
    columns = ", ".join(connection.ops.quote_name(f.column) for f in _INSERT_FIELDS)
    values = ", ".join(["%s"] * len(_INSERT_FIELDS))
    return f"INSERT INTO {_table(Game)} ({columns}) VALUES ({values})"


def game_insert(*, game: Game) -> None:
    """Save a new game as ``game.save()`` would, numbered the evening's next
    (``game.number`` and ``game.pk`` are set). Inside the caller's transaction, which
    holds the evening's lock (so no other game takes the number; the unique
    (evening, number) stays the last guard)."""
    _needs_transaction()
    if game.pk is not None:
        raise ValueError("game_insert saves a new game")
    game.number = _execute(_next_number_sql(), [game.evening_id], fetch=True)[0][0]
    params = [f.get_db_prep_save(f.pre_save(game, True), connection) for f in _INSERT_FIELDS]
    pk = _col(Game, "id")
    if connection.vendor == "postgresql":
        game.pk = _execute(f"{_game_insert_sql()} RETURNING {pk}", params, fetch=True)[0][0]
    else:
        with connection.cursor() as cursor:
            cursor.execute(_game_insert_sql(), params)
            game.pk = cursor.lastrowid
    game._state.adding = False
    game._state.db = connection.alias


# --- The game's events ----------------------------------------------------------------------


def _event_columns(event: str, user: str) -> str:
    """The columns of an ``EventRow``, from the events table ``event`` and users ``user``."""
    user_model = get_user_model()
    return (
        f"{event}.{_col(GameEvent, 'seq')}, {event}.{_col(GameEvent, 'type')}, "
        f"{event}.{_col(GameEvent, 'payload')}, {event}.{_col(GameEvent, 'schema_version')}, "
        f"{user}.{_col(user_model, user_model.USERNAME_FIELD)}, "
        f"{event}.{_col(GameEvent, 'recorded_at')}"
    )


def _event_from(event: str, user: str) -> str:
    user_model = get_user_model()
    return (
        f"FROM {_table(GameEvent)} {event} LEFT JOIN {_table(user_model)} {user} "
        f"ON {user}.{_col(user_model, 'id')} = {event}.{_col(GameEvent, 'recorded_by')}"
    )


@functools.cache
def _event_rows_sql() -> str:
    return (
        f"SELECT {_event_columns('ev', 'u')} {_event_from('ev', 'u')} "
        f"WHERE ev.{_col(GameEvent, 'game')} = %s ORDER BY ev.{_col(GameEvent, 'seq')}"
    )


def event_rows(*, game_id: int) -> list[EventRow]:
    """The game's stored events in seq order, as ``EventRow`` tuples (one statement)."""
    sql = _event_rows_sql()
    rows = _execute(sql, [game_id], fetch=True)
    return [
        (seq, kind, _json(payload), version, username, as_datetime(at))
        for seq, kind, payload, version, username, at in rows
    ]


_EVENT_INSERT_FIELDS = (
    "game",
    "seq",
    "type",
    "payload",
    "schema_version",
    "recorded_by",
    "recorded_at",
    "idempotency_key",
)


@dataclass(frozen=True)
class NewEvents:
    """Events to store: ``(type, payload)`` pairs as seqs ``first_seq, first_seq + 1, …``."""

    game_id: int
    first_seq: int
    events: list[tuple[str, dict[str, Any]]]
    schema_version: int
    user_id: int | None
    username: str | None
    recorded_at: datetime.datetime
    key: str | None

    def rows(self) -> list[EventRow]:
        """The events as ``event_rows`` will read them back once written."""
        return [
            (seq, kind, payload, self.schema_version, self.username, self.recorded_at)
            for seq, (kind, payload) in enumerate(self.events, start=self.first_seq)
        ]


def _events_insert(new: NewEvents) -> tuple[str, list[Any]]:
    at = _db_datetime(new.recorded_at)
    params: list[Any] = []
    for seq, (kind, payload) in enumerate(new.events, start=new.first_seq):
        params += [new.game_id, seq, kind, json.dumps(payload), new.schema_version]
        params += [new.user_id, at, new.key]
    row = "(" + ", ".join(["%s"] * len(_EVENT_INSERT_FIELDS)) + ")"
    statement = (
        f"INSERT INTO {_table(GameEvent)} ({_columns(GameEvent, _EVENT_INSERT_FIELDS)}) "
        f"VALUES {', '.join([row] * len(new.events))}"
    )
    return statement, params


def events_insert(new: NewEvents) -> None:
    """Insert the events (one statement), inside the caller's transaction.

    The caller holds the game's lock; the unique (game, seq) constraint stays
    the last guard against a duplicate.
    """
    _needs_transaction()
    if not new.events:  # an imported record may have none
        return
    _execute(*_events_insert(new))


@dataclass(frozen=True)
class KeyAnswer:
    """The answer to store for an idempotency key (``idempotency_put``'s values)."""

    user_id: int
    key: str
    fingerprint: str
    status: int
    body: Any


def append_write(*, game: Game, new: NewEvents, answer: KeyAnswer | None) -> None:
    """Everything an append writes: the events, the game's new state, the key's answer.

    On PostgreSQL one statement (the inserts as data-modifying ``WITH`` parts of
    the game's ``UPDATE``), elsewhere one statement each; inside the caller's
    transaction, which holds the game's lock. The unique constraints (game, seq)
    and (user, key) raise ``IntegrityError`` as the separate statements would.
    """
    _needs_transaction()
    if not new.events:
        raise ValueError("an append writes at least one event")
    insert, params = _events_insert(new)
    if connection.vendor != "postgresql":
        _execute(insert, params)
        if answer is not None:
            idempotency_put(
                user_id=answer.user_id,
                key=answer.key,
                fingerprint=answer.fingerprint,
                status=answer.status,
                body=answer.body,
                at=new.recorded_at,
            )
        game_update(game=game)
        return
    parts = [f"new_events AS ({insert})"]
    if answer is not None:
        parts.append(f"new_key AS ({_idempotency_put_sql()})")
        params += [
            answer.user_id,
            answer.key,
            answer.fingerprint,
            answer.status,
            json.dumps(answer.body),
            _db_datetime(new.recorded_at),
        ]
    _execute(f"WITH {', '.join(parts)} {_game_update_sql()}", params + _game_update_params(game))


@functools.cache
def _game_update_sql() -> str:
    names = ("status", "result", "last_seq", "finished_at", "dealer")
    assignments = ", ".join(f"{_col(Game, name)} = %s" for name in names)
    return f"UPDATE {_table(Game)} SET {assignments} WHERE {_col(Game, 'id')} = %s"


def game_update(*, game: Game) -> None:
    """Write the game's status, result, last_seq, finished_at and dealer (one statement)."""
    _needs_transaction()
    _execute(_game_update_sql(), _game_update_params(game))


def _game_update_params(game: Game) -> list[Any]:
    return [
        game.status,
        json.dumps(game.result),
        game.last_seq,
        _db_datetime(game.finished_at),
        game.dealer_id,
        game.pk,
    ]


# --- Idempotency keys -----------------------------------------------------------------------


@functools.cache
def _idempotency_get_sql() -> str:
    columns = _columns(IdempotencyRecord, ("id", "fingerprint", "response_status", "response_body"))
    return (
        f"SELECT {columns} FROM {_table(IdempotencyRecord)} "
        f"WHERE {_col(IdempotencyRecord, 'user')} = %s AND {_col(IdempotencyRecord, 'key')} = %s"
    )


def idempotency_get(*, user_id: int, key: str) -> IdempotencyRecord | None:
    """The stored answer for (user, key), or None (one statement)."""
    found = _execute(_idempotency_get_sql(), [user_id, key], fetch=True)
    if not found:
        return None
    pk, fingerprint, status, body = found[0]
    return _from_db(
        IdempotencyRecord,
        {
            "id": pk,
            "user_id": user_id,
            "key": key,
            "fingerprint": fingerprint,
            "response_status": status,
            "response_body": _json(body),
        },
    )


@functools.cache
def _idempotency_put_sql() -> str:
    names = ("user", "key", "fingerprint", "response_status", "response_body", "created_at")
    return (
        f"INSERT INTO {_table(IdempotencyRecord)} ({_columns(IdempotencyRecord, names)}) "
        "VALUES (%s, %s, %s, %s, %s, %s)"
    )


def idempotency_put(
    *, user_id: int, key: str, fingerprint: str, status: int, body: Any, at: datetime.datetime
) -> None:
    """Store the first answer for (user, key) (one statement; unique (user, key) guards it)."""
    _execute(
        _idempotency_put_sql(),
        [user_id, key, fingerprint, status, json.dumps(body), _db_datetime(at)],
    )


def is_key_conflict(error: Exception) -> bool:
    """True if ``error`` is the (user, key) unique constraint of the idempotency records."""
    text = str(error)
    return "games_idempotency_unique_key" in text or IdempotencyRecord._meta.db_table in text


# --- Players' names -------------------------------------------------------------------------


def player_names(*, club_id: int, ids: set[int]) -> dict[str, str]:
    """``{str(pk): display_name}`` of the club's players among ``ids``, by id (one statement)."""
    if not ids:
        return {}
    ordered = sorted(ids)
    placeholders = ", ".join(["%s"] * len(ordered))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {_col(Player, 'id')}, {_col(Player, 'display_name')} FROM {_table(Player)} "
            f"WHERE {_col(Player, 'club')} = %s AND {_col(Player, 'id')} IN ({placeholders}) "
            f"ORDER BY {_col(Player, 'id')}",
            [club_id, *ordered],
        )
        return {str(pk): name for pk, name in cursor.fetchall()}
