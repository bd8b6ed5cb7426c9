"""The append: the engine checks the stored record plus the new events, then they are stored."""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

import engine
from clubs.models import Player
from clubs.permissions import require_role
from games import listeners, selectors
from games.errors import (
    MAX_GAME_EVENTS,
    EngineRejected,
    EveningClosed,
    GamesError,
    StaleSequence,
    TooManyEvents,
)
from games.listeners import LockedGame
from games.models import Evening, Game, GameEvent
from games.services.correction import corrected_events
from games.services.recording import (
    _apply_result,
    _event_rows,
    _game_update,
    _new_events,
    _player_id,
    _replay,
)

# --- Append: check, then do ------------------------------------------------------------------


@dataclass
class Judged:
    """``game_append_check``'s verdict: the events to append (a correction's undos and
    replays included), the whole record with them, the engine's result, the game as
    it would be (an unsaved copy) and, if asked for, the table view of the record."""

    events: list[dict[str, Any]]
    record: dict[str, Any]
    result: engine.Result
    game: Game
    state: dict[str, Any] | None


def _check_open_and_current(game: Game, expected_seq: int) -> None:
    """Raise ``EveningClosed`` or ``StaleSequence`` (``game_append_check``'s first checks)."""
    if not game.evening.is_open:
        raise EveningClosed(_("This evening is closed: its games cannot change any more."))
    if expected_seq != game.last_seq:
        raise StaleSequence(current_seq=game.last_seq, expected_seq=expected_seq)


def game_append_check(
    *,
    game: Game,
    stored: list[selectors.EventRow],
    expected_seq: int,
    events: list[dict[str, Any]],
    correct: int | None = None,
    club_players: Collection[int] = (),
    with_state: bool = False,
) -> Judged:
    """Judge appending ``events`` to ``game`` whose events are ``stored``; writes nothing.

    ``correct``: the position of a stored event that ``events[0]`` replaces
    (``corrected_events``). ``club_players``: ids known to be the club's players (the
    evening's seats), so a dealer among them needs no look at the database.
    ``with_state``: also draw the table (``selectors.table_state``; one replay serves
    both). Raises ``EveningClosed``, ``StaleSequence`` (``expected_seq`` is not the
    game's ``last_seq``), ``ValidationError`` (``correct`` names no correctable entry;
    a deal seats a stranger), ``TooManyEvents`` and ``EngineRejected`` (the record
    would be invalid; the error's index counts the stored events first).
    """
    _check_open_and_current(game, expected_seq)
    record = selectors.record_from_rows(game=game, rows=stored)
    if correct is not None:
        try:
            corrected = corrected_events(
                stored=record["events"], index=correct, replacement=events[0]
            )
        except GamesError as error:
            # A position that names no correctable entry is bad input, like any field.
            raise ValidationError({"correct": [error.message]}) from error
        events = [*corrected, *events[1:]]
    # Seqs run 1..last_seq without gaps: last_seq is the number of stored events.
    if game.last_seq + len(events) > MAX_GAME_EVENTS:
        raise TooManyEvents(total=game.last_seq + len(events), event_offset=game.last_seq)
    _check_deals_seat_club_players(game.evening, events)
    record["events"] = record["events"] + list(events)
    state: dict[str, Any] | None = None
    result = None
    if with_state:
        state, result = selectors.table_state_and_result(record=record)
    if result is None:
        result = _replay(record)
    if result.status == "invalid":
        raise EngineRejected(error=_error_dict(result), event_offset=len(stored))
    # The game as it would be: a copy, so that the caller's instance stays as stored.
    after = copy.copy(game)
    after.last_seq += len(events)
    _apply_result(after, result, record, club_players=club_players)
    return Judged(events=events, record=record, result=result, game=after, state=state)


@dataclass
class Appended:
    """What an append judged (and wrote), for an answer that needs no second look.

    ``game``: the game after the append (for a judgement only, an unsaved copy as it
    would be); ``rows``: its events as ``selectors.game_event_rows`` reads them, the
    stored ones then the new ones (``new_from``: the index of the first new one);
    ``record``: the whole record the engine judged; ``state``: its table view;
    ``names``: ``{str(pk): display_name}`` of the evening's seated players, read with
    the lock.
    """

    game: Game
    rows: list[selectors.EventRow]
    new_from: int
    record: dict[str, Any]
    state: dict[str, Any] | None = None
    names: dict[str, str] = field(default_factory=dict)

    @property
    def new_rows(self) -> list[selectors.EventRow]:
        """The events this append added."""
        return self.rows[self.new_from :]


def game_events_append(
    *,
    game: Game | int,
    user: Any,
    expected_seq: int,
    events: list[dict[str, Any]],
    correct: int | None = None,
    min_role: str | None = None,
    idempotency_key: str | None = None,
    on_written: Callable[[Appended], object] | None = None,
) -> Appended:
    """Append ``events`` to the game if the client saw its latest state and the record
    stays valid: one transaction, which locks the game's row (``select_for_update``),
    judges (``game_append_check``) and writes the events (``bulk_create``) and the
    game's new state. The listeners (``games.listeners``: the ledger, the live views)
    hear of the change in the same transaction.

    ``correct``: the position of a stored entry ``events[0]`` replaces
    (``corrected_events``). ``min_role``: ``user`` must be a member of the game's club
    with this role (``clubs.permissions.require_role``: 404 for a stranger, who locks
    nothing, 403 for a role too low); without it the caller has decided.
    ``idempotency_key``: the request's key, written on each new event (which request
    wrote it). ``on_written``: called with the append once everything is written,
    still inside the transaction and under the lock: what it writes commits with the
    events or not at all, and its exception rolls the append back (the API stores the
    key's answer so, ``games.apis.idempotency``). Answers and retries are the
    caller's.

    Raises ``game_append_check``'s errors (nothing written), ``Game.DoesNotExist`` for
    an unknown id (without ``min_role``) and what ``on_written`` raises.
    """
    game_id = game if isinstance(game, int) else game.pk
    with transaction.atomic():
        locked, appended, new = _judged(
            game_id=game_id,
            user=user,
            expected_seq=expected_seq,
            events=events,
            correct=correct,
            min_role=min_role,
            key=idempotency_key,
        )
        _write(locked=locked, appended=appended, new=new)
        if on_written is not None:
            on_written(appended)
        return appended


def game_events_judge(
    *,
    game: Game | int,
    user: Any,
    expected_seq: int,
    events: list[dict[str, Any]],
    correct: int | None = None,
    min_role: str | None = None,
) -> Appended:
    """Judge an append exactly as ``game_events_append`` would (the same lock, checks
    and errors) and write nothing: ``appended.game`` is an unsaved copy of the game as
    it would be (a dry run, a form's preview)."""
    game_id = game if isinstance(game, int) else game.pk
    with transaction.atomic():
        return _judged(
            game_id=game_id,
            user=user,
            expected_seq=expected_seq,
            events=events,
            correct=correct,
            min_role=min_role,
            key=None,
        )[1]


def _judged(
    *,
    game_id: int,
    user: Any,
    expected_seq: int,
    events: list[dict[str, Any]],
    correct: int | None,
    min_role: str | None,
    key: str | None,
) -> tuple[Game, Appended, list[GameEvent]]:
    """Lock the game, decide the role, judge: the game as stored, the append and its
    new events (unsaved)."""
    locked = selectors.game_for_append(
        game_id=game_id, user=user, members_only=min_role is not None
    )
    if min_role is not None:
        require_role(locked.member_role if locked is not None else None, min_role)  # type: ignore[attr-defined]
    if locked is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    names: dict[str, str] = locked.seat_names or {}  # type: ignore[attr-defined]
    # Refused before the events are read when the game moved on or its evening closed
    # (also a retry of an append that was stored: its caller answers it from its key).
    _check_open_and_current(locked, expected_seq)
    stored = selectors.game_event_rows(game_id=game_id)
    judged = game_append_check(
        game=locked,
        stored=stored,
        expected_seq=expected_seq,
        events=events,
        correct=correct,
        club_players={int(pk) for pk in names},
        with_state=True,
    )
    new = _new_events(locked, judged.events, first_seq=locked.last_seq + 1, user=user, key=key)
    appended = Appended(
        game=judged.game,
        rows=stored + _event_rows(new),
        new_from=len(stored),
        record=judged.record,
        state=judged.state,
        names=names,
    )
    return locked, appended, new


def _write(*, locked: Game, appended: Appended, new: list[GameEvent]) -> None:
    """Write a judged append under its lock: the listeners first (the ledger books a
    finished game's money in this transaction), the events, the game's new state."""
    listeners.game_changed(
        locked=LockedGame(game=appended.game, evening=locked.evening),
        previous_status=locked.status,
        club_players={int(pk) for pk in appended.names},
    )
    GameEvent.objects.bulk_create(new)
    _game_update(appended.game)
    listeners.evening_changed(evening_id=locked.evening_id)


def _deal_names(event: dict[str, Any]) -> set[str]:
    """The player names a deal event seats (well-typed fields only; the engine judges types)."""
    if event.get("type") != "deal":
        return set()
    return selectors.record_player_names({"events": [event]})


def _check_deals_seat_club_players(evening: Evening, events: list[dict[str, Any]]) -> None:
    """A new deal (after undoing the old one) may seat only players of the club.

    The engine takes any names; the ledger needs player ids, so a deal naming
    anyone else is refused before the engine sees it.
    """
    names = set().union(*(_deal_names(event) for event in events))
    if not names:  # no deal among the events (nearly every append): nothing to look up
        return
    ids = {_player_id(name) for name in names}
    known = set(
        Player.objects.filter(
            club_id=evening.club_id, pk__in=[pid for pid in ids if pid is not None]
        ).values_list("pk", flat=True)
    )
    if None in ids or not ids <= known:
        raise ValidationError(
            {"events": _("A deal may seat only players of this club, by id (str(player.pk)).")}
        )


def _error_dict(result: engine.Result) -> dict[str, Any]:
    if result.error is None:  # pragma: no cover - the engine always explains an invalid record
        return {"index": -1, "code": "invalid", "message": "The engine rejected the record."}
    return result.error.to_dict(detail=True)
