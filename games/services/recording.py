"""Replaying a record and storing its new events: the steps every write of a game shares."""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterator
from typing import Any

from django.utils import timezone

import engine
from clubs.models import Player
from games import selectors
from games.events import CURRENT_SCHEMA_VERSION, split_event
from games.models import Game, GameEvent

logger = logging.getLogger(__name__)


# The engine's result statuses that end a game.
DONE_STATUSES = frozenset({Game.Status.FINISHED, Game.Status.ANNULLED})


def _replay(record: Any) -> engine.Result:
    """``engine.replay``, which never raises by contract; should it ever, the record is
    refused (422) and the traceback logged, rather than answering a 500."""
    try:
        return engine.replay(record)
    except Exception:
        logger.exception("engine.replay raised on a record")
        return engine.Result(
            status="invalid",
            error=engine.EngineError(
                -1, "engine_failure", "The rules engine failed on this record."
            ),
        )


def _player_id(name: object) -> int | None:
    return selectors.player_id_of(name)


def _apply_result(
    game: Game,
    result: engine.Result,
    record: dict[str, Any],
    *,
    club_players: Collection[int] = (),
) -> None:
    """Refresh the game's cached status, result and dealer from a (valid) replay.

    ``club_players``: ids the caller knows to be players of the game's club (the
    evening's seats), so that a dealer among them needs no look at the database.
    """
    previous_status = game.status
    game.status = result.status
    game.result = result.to_dict()
    if game.status in DONE_STATUSES:
        if previous_status not in DONE_STATUSES or game.finished_at is None:
            game.finished_at = timezone.now()
    else:
        game.finished_at = None
    deal = selectors.effective_deal(record)
    dealer_id = _player_id(deal.get("dealer")) if deal else None
    # The same dealer as before (most appends) was checked when he was stored.
    game.dealer_id = (
        dealer_id
        if dealer_id is not None
        and (
            dealer_id == game.dealer_id
            or dealer_id in club_players
            or Player.objects.filter(pk=dealer_id, club_id=game.evening.club_id).exists()
        )
        else None
    )


def _new_events(
    game: Game,
    events: list[dict[str, Any]],
    *,
    first_seq: int,
    user: Any,
    key: str | None,
) -> list[GameEvent]:
    """The events as unsaved rows, seqs ``first_seq, first_seq + 1, …``, stamped now."""
    authenticated = getattr(user, "is_authenticated", False)
    now = timezone.now()
    return [
        GameEvent(
            game_id=game.pk,
            seq=seq,
            type=kind,
            payload=payload,
            schema_version=CURRENT_SCHEMA_VERSION,
            recorded_by=user if authenticated else None,
            recorded_at=now,
            idempotency_key=key,
        )
        for seq, (kind, payload) in _numbered(events, first_seq=first_seq)
    ]


def _numbered(
    events: list[dict[str, Any]], *, first_seq: int
) -> Iterator[tuple[int, tuple[str, dict[str, Any]]]]:
    """Each event as stored, ``(seq, (type, payload))``, seqs from ``first_seq`` on."""
    return enumerate(map(split_event, events), start=first_seq)


# A stored event's columns, as ``_new_events`` fills them, for a write of plain rows.
EVENT_FIELDS = (
    "game_id",
    "seq",
    "type",
    "payload",
    "schema_version",
    "recorded_by_id",
    "recorded_at",
    "idempotency_key",
)


def _event_rows(new: list[GameEvent]) -> list[selectors.EventRow]:
    """The new events as ``selectors.game_event_rows`` reads them back once written."""
    return [
        selectors.EventRow(
            seq=event.seq,
            type=event.type,
            payload=event.payload,
            schema_version=event.schema_version,
            recorded_by_name=(
                event.recorded_by.get_username() if event.recorded_by is not None else None
            ),
            recorded_at=event.recorded_at,
        )
        for event in new
    ]


def _store_events(
    game: Game, events: list[dict[str, Any]], *, first_seq: int, user: Any, key: str | None
) -> list[selectors.EventRow]:
    """Insert the events after ``first_seq - 1`` (one statement, in the caller's transaction).

    Returns them as ``selectors.game_event_rows`` would read them back.
    """
    new = _new_events(game, events, first_seq=first_seq, user=user, key=key)
    if new:  # an imported record may have none
        GameEvent.objects.bulk_create(new)
    return _event_rows(new)


def _game_update(game: Game) -> None:
    """Write what an append changes of the game's row (one statement)."""
    Game.objects.filter(pk=game.pk).update(
        status=game.status,
        result=game.result,
        last_seq=game.last_seq,
        finished_at=game.finished_at,
        dealer_id=game.dealer_id,
    )
