"""The append's first read: the game's row locked, with what the append needs of its
evening, club, seats and the user's membership, in one statement."""

from __future__ import annotations

import functools
from typing import Any, cast

from django.db.models import Aggregate, CharField, F, JSONField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Cast

from games.models import EveningSeat, Game


class _JSONObjectAgg(Aggregate):
    """``{key: value}`` of a group's rows, as one JSON object (the vendor's own aggregate)."""

    function = "JSONB_OBJECT_AGG"
    output_field = JSONField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSON_GROUP_OBJECT", **extra)


def _seat_names() -> Subquery:
    """``{str(player id): display name}`` of the club's players seated at the outer game's
    evening (ever, also those who got up): the append's answer's legend."""
    seats = (
        EveningSeat.objects.filter(
            evening_id=OuterRef("evening_id"), player__club_id=OuterRef("evening__club_id")
        )
        .order_by()
        .values("evening_id")
        .annotate(names=_JSONObjectAgg(Cast("player_id", CharField()), "player__display_name"))
        .values("names")
    )
    return Subquery(seats, output_field=JSONField())


@functools.cache
def _locked_games() -> QuerySet[Game]:
    """The part of ``game_for_append``'s statement that no argument changes, built once.

    The game with its evening and club (``select_related``), the seats' names as an
    annotation, the lock on the game's row only, no ordering. Every call clones it
    (``filter``), so it is never evaluated itself and its annotation is resolved once
    per process instead of on every card.
    """
    return (
        Game.objects.select_related("evening__club")
        .select_for_update(of=("self",))
        .order_by()
        .annotate(seat_names=_seat_names())
    )


def game_for_append(*, game_id: int, user: Any, members_only: bool) -> Game | None:
    """Lock the game's row (inside the caller's transaction) and read what an append
    needs first, in one statement.

    The game comes with its evening and club, with ``seat_names`` (``{str(pk):
    display_name}`` of the club's players who sat at the evening: the answer's legend,
    nearly always; None if nobody sat) and ``member_role`` (``user``'s role in the
    club; None unless ``members_only``). ``members_only``: the game is found only
    through ``user``'s membership of its club, so a stranger finds nothing and locks
    nothing (None, as for an unknown game).

    The lock is the game row's only (``select_for_update(of=("self",))``): it
    serialises appends to one game. Of two scorers who both saw seq 7, the second
    waits for it and then sees last_seq 8, so he gets a 409 instead of both
    appending seq 8 (the unique (game, seq) is the last guard).

    The statement is an ordinary queryset, shaped for what the ORM spends per call
    (``bench/append_profile.py`` measures it): ``select_related`` instead of a
    ``values()`` path per column, the membership as a plain join (one row: a user
    has one membership per club) instead of two subqueries, no ordering (the
    model's ``Meta.ordering`` would be compiled into it), and the unchanging rest
    built once (``_locked_games``).
    """
    games = _locked_games().filter(pk=game_id)
    if members_only:
        # ``user`` None (a service's own caller) is no member: ``user_id IS NULL``
        # matches no membership.
        user_id: Any = user.pk if getattr(user, "is_authenticated", False) else None
        games = games.filter(evening__club__memberships__user_id=user_id).annotate(
            member_role=F("evening__club__memberships__role")
        )
    game: Any = next(iter(games), None)
    if game is not None and not members_only:
        game.member_role = None
    return cast("Game | None", game)
