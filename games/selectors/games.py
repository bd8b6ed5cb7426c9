"""Reads of games: one game (with the reader's role), its stored events as rows, and
its record (the spec's JSON document) rebuilt from them, with the legend of the
players it names, as the export writes it."""

from __future__ import annotations

import datetime
import functools
import re
from typing import Any, NamedTuple, cast

from django.db.models import F, OuterRef, Prefetch, QuerySet, Subquery

from clubs.models import Membership, Player, Season
from games.events import to_event
from games.models import Game, GameEvent


def game_get(*, game_id: int) -> Game:
    """Raise ``Game.DoesNotExist`` for an unknown id (the caller checks membership)."""
    return Game.objects.select_related("evening", "evening__club").get(pk=game_id)


def game_get_with_role(*, game_id: int, user: Any) -> Game:
    """The game with its evening and club, and ``member_role``: ``user``'s role in its club.

    One query (the membership is a subquery); ``member_role`` is None for a
    non-member. Raises ``Game.DoesNotExist`` for an unknown id.
    """
    role = Membership.objects.filter(club_id=OuterRef("evening__club_id"), user=user).values(
        "role"
    )[:1]
    return (
        Game.objects.select_related("evening", "evening__club")
        .annotate(member_role=Subquery(role))
        .get(pk=game_id)
    )


class EventRow(NamedTuple):
    """A stored event as ``game_event_rows`` reads it: no model instance, no JSON
    re-wrapping. ``recorded_by_name``: the recording user's username, or None."""

    seq: int
    type: str
    payload: dict[str, Any]
    schema_version: int
    recorded_by_name: str | None
    recorded_at: datetime.datetime


@functools.cache
def _event_rows() -> QuerySet[GameEvent, EventRow]:
    """``game_event_rows``'s queryset but for the game, built once (each call clones it)."""
    return (
        GameEvent.objects.order_by("seq")
        .annotate(recorded_by_name=F("recorded_by__username"))
        .values_list(*EventRow._fields, named=True)
    )


def game_event_rows(*, game_id: int) -> list[EventRow]:
    """The game's stored events in seq order, as ``EventRow`` rows (one statement: an
    append reads them on every card, so no model instances are built)."""
    # Django's row class has ``EventRow``'s fields, in its order.
    return cast(list[EventRow], list(_event_rows().filter(game_id=game_id)))


def record_from_rows(*, game: Game, rows: list[EventRow]) -> dict[str, Any]:
    """``game_record`` from ``game_event_rows`` (rows in seq order)."""
    return {
        "game": game.game_kind,
        "rules": dict(game.house_rules) or None,
        "events": [to_event(row.type, row.payload, row.schema_version) for row in rows],
    }


def game_record(*, game: Game, events: list[GameEvent] | None = None) -> dict[str, Any]:
    """The game's record as the engine and the export read it."""
    stored = events if events is not None else list(GameEvent.objects.filter(game=game))
    return {
        "game": game.game_kind,
        "rules": dict(game.house_rules) or None,
        "events": [event.as_event() for event in sorted(stored, key=lambda e: e.seq)],
    }


def record_player_names(record: dict[str, Any]) -> set[str]:
    """Every player name a record mentions (deal seats, dealer, hands, ``player`` fields,
    a tally's ``partner`` and ``losers``)."""
    names: set[str] = set()
    events = record.get("events") if isinstance(record, dict) else None
    if not isinstance(events, list):
        return names
    for event in events:
        if not isinstance(event, dict):
            continue
        candidates: list[Any] = [event.get("player"), event.get("dealer"), event.get("sitting_out")]
        candidates.append(event.get("partner"))
        if isinstance(event.get("players"), list):
            candidates.extend(event["players"])
        if isinstance(event.get("losers"), list):
            candidates.extend(event["losers"])
        if isinstance(event.get("hands"), dict):
            candidates.extend(event["hands"].keys())
        names.update(name for name in candidates if isinstance(name, str) and name)
    return names


_PLAYER_ID = re.compile(r"[1-9][0-9]{0,17}")


def player_id_of(name: object) -> int | None:
    """The player id a record's name stands for (``str(player.pk)``), or None.

    Only the canonical spelling counts ("12", not "012" or other digits), so an
    id and its name in the record are one-to-one.
    """
    if isinstance(name, str) and _PLAYER_ID.fullmatch(name):
        return int(name)
    return None


def players_legend(
    *, club_id: int, records: list[dict[str, Any]], known: dict[str, str] | None = None
) -> dict[str, str]:
    """``{str(pk): display_name}`` for every player of the club the records mention.

    ``known``: names of some of the club's players already read (e.g. the
    evening's); the database is asked only if a record names anyone else.
    """
    ids = {
        player_id
        for record in records
        for name in record_player_names(record)
        if (player_id := player_id_of(name)) is not None
    }
    if known is not None and all(str(pk) in known for pk in ids):
        return {str(pk): known[str(pk)] for pk in sorted(ids)}
    return player_names(club_id=club_id, ids=ids)


def player_names(*, club_id: int, ids: set[int]) -> dict[str, str]:
    """``{str(pk): display_name}`` of the club's players among ``ids``, by id (one statement)."""
    if not ids:
        return {}
    found = Player.objects.filter(club_id=club_id, pk__in=ids).order_by("pk")
    return {str(pk): name for pk, name in found.values_list("pk", "display_name")}


def game_export(*, game: Game, events: list[GameEvent] | None = None) -> dict[str, Any]:
    """``{"record", "players", "result"}``: the record with ids and a legend beside it."""
    record = game_record(game=game, events=events)
    return {
        "record": record,
        "players": players_legend(club_id=game.evening.club_id, records=[record]),
        "result": game.result,
    }


def game_exports(*, games: QuerySet[Game]) -> list[dict[str, Any]]:
    games = games.select_related("evening", "evening__club").prefetch_related(
        Prefetch("events", queryset=GameEvent.objects.order_by("seq"))
    )
    return [game_export(game=game, events=list(game.events.all())) for game in games]


def season_games(*, season: Season) -> QuerySet[Game]:
    return Game.objects.filter(evening__season=season).order_by(
        "evening__date", "evening_id", "number", "id"
    )


def effective_deal(record: dict[str, Any]) -> dict[str, Any] | None:
    """The deal event still standing after the record's ``undo``s, if any.

    Undos form a stack: each removes the latest earlier event that is neither an
    undo nor already removed (as in the spec's fine points).
    """
    standing: list[dict[str, Any]] = []
    for event in record.get("events", []):
        if not isinstance(event, dict):
            continue
        if event.get("type") == "undo":
            if standing:
                standing.pop()
        else:
            standing.append(event)
    deals = [event for event in standing if event.get("type") == "deal"]
    return deals[-1] if deals else None
