"""Every lookup by these foreign keys is served by an index, though they have none of
their own: a unique constraint's index leads with each of them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Model

from games.models import Game, GameEvent, IdempotencyRecord

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("model", "column"),
    [(GameEvent, "game_id"), (IdempotencyRecord, "user_id"), (Game, "evening_id")],
    ids=["events by game", "idempotency records by user", "games by evening"],
)
def test_a_foreign_key_without_its_own_index_leads_a_unique_index(
    model: type[Model], column: str
) -> None:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, model._meta.db_table)
    indexes = [c for c in constraints.values() if c["index"] or c["unique"]]
    # Exactly one index leads with the column: the unique constraint's (no second
    # index to maintain on every insert), and it is unique over more than the column.
    leading = [c for c in indexes if c["columns"] and c["columns"][0] == column]
    assert len(leading) == 1, leading
    assert leading[0]["unique"] and len(leading[0]["columns"]) == 2
