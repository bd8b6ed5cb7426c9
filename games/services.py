"""Writes of the games app: keyword-only functions, each one transaction.

They raise Django's ``ValidationError`` for input a user can get wrong (400) and
the errors of ``games.errors`` for conflicts (409) and engine rejections (422).
Permission to call them is checked by the caller (``clubs.permissions``), but for the
append, which reads the role with its lock and decides with ``require_role``.

The engine decides what is legal: the services never judge an event
themselves, they replay the stored events plus the new ones and store the new
ones only if the whole record is still valid.
"""

from __future__ import annotations

import copy
import datetime
import hashlib
import json
import logging
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from clubs.models import Club, GameKind, Player, RuleProfile, Season
from clubs.permissions import require_role
from engine.rules import effective_rules
from games import presenters, selectors
from games.engine_text import explain
from games.errors import (
    MAX_GAME_EVENTS,
    EngineRejected,
    EveningClosed,
    EveningNotEmpty,
    EveningOpen,
    GamesError,
    IdempotencyKeyReused,
    StaleSequence,
    TooManyEvents,
)
from games.events import CURRENT_SCHEMA_VERSION, renamed_events, split_event
from games.models import Evening, EveningSeat, Game, GameEvent, IdempotencyRecord
from ledger.models import LedgerEntry, Payment, SettlementPlan
from ledger.services import (
    ledger_book_new_games,
    ledger_sync_game,
    projection_requests_deferred,
)
from live.push import evening_changed_push
from live.services import evening_changed
from stichbuch import sql

logger = logging.getLogger(__name__)

# The engine's result statuses that end a game (and make the ledger write entries).
DONE_STATUSES = frozenset({Game.Status.FINISHED, Game.Status.ANNULLED})


# --- The ledger hook ------------------------------------------------------------------------


def _ledger_sync(
    game: Game, *, club_players: Collection[int] = (), record_changed: bool = False
) -> None:
    """Write the game's payouts into the ledger, inside the caller's transaction.

    Money is never lost because a queue is down: the ledger's entries for a
    finished (or annulled, or undone) game are written in the same transaction
    that appends its events. Any error inside the hook rolls the append back.
    Every caller holds the game's row lock (or has just created the row) with
    the evening loaded, inside the transaction that writes the events.
    ``club_players``: as for ``_apply_result``; ``record_changed``: as for
    ``ledger_sync_game``.
    """
    ledger_sync_game(
        game=game, locked=True, club_players=club_players, record_changed=record_changed
    )


# --- Evenings -------------------------------------------------------------------------------


def _check_seat_count(game_kind: str, count: int, *, field_name: str = "players") -> None:
    low, high = selectors.SEATS_ALLOWED[game_kind]
    if not low <= count <= high:
        label = GameKind(game_kind).label
        if low == high:
            message = _("%(game)s is played by exactly %(n)d players.") % {"game": label, "n": low}
        else:
            message = _("%(game)s is played by %(low)d to %(high)d players.") % {
                "game": label,
                "low": low,
                "high": high,
            }
        raise ValidationError({field_name: message})


def _club_players(club: Club, player_ids: list[int], *, field_name: str) -> list[Player]:
    if len(set(player_ids)) != len(player_ids):
        raise ValidationError({field_name: _("A player can sit at the table only once.")})
    found = {p.pk: p for p in Player.objects.filter(club=club, pk__in=player_ids)}
    missing = [pid for pid in player_ids if pid not in found]
    if missing:
        raise ValidationError(
            {
                field_name: _("No such player in this club: %(ids)s.")
                % {"ids": ", ".join(str(pid) for pid in missing)}
            }
        )
    return [found[pid] for pid in player_ids]


@transaction.atomic
def evening_create(
    *,
    club: Club,
    user: Any,
    season: Season,
    players: list[int],
    game_kind: str | None = None,
    date: datetime.date | None = None,
    place: str = "",
    rule_profile: RuleProfile | None = None,
) -> Evening:
    """Open an evening of ``season`` with ``players`` seated clockwise in that order."""
    if season.club_id != club.pk:
        raise ValidationError({"season": _("This season belongs to another club.")})
    game_kind = game_kind or season.game_kind
    if game_kind != season.game_kind:
        raise ValidationError({"game_kind": _("The season is for another game.")})
    # The season's row, so that a close of the season waits for this (or this for it):
    # no evening opens in a closed season (``clubs.services.season_close``).
    season = Season.objects.select_for_update(no_key=True).get(pk=season.pk)
    if not season.is_open:
        raise ValidationError({"season": _("This season is closed.")})
    if rule_profile is not None:
        if rule_profile.club_id != club.pk:
            raise ValidationError({"rule_profile": _("This rule profile belongs to another club.")})
        if rule_profile.game_kind != game_kind:
            raise ValidationError({"rule_profile": _("This rule profile is for another game.")})
    _check_seat_count(game_kind, len(players))
    seated = _club_players(club, players, field_name="players")
    evening = Evening(
        club=club,
        season=season,
        game_kind=game_kind,
        date=date or timezone.localdate(timezone=club.zone),
        place=place,
        rule_profile=rule_profile,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    evening.full_clean()
    evening.save()
    EveningSeat.objects.bulk_create(
        EveningSeat(evening=evening, player=player, position=position)
        for position, player in enumerate(seated, start=1)
    )
    return evening


def _lock_evening(evening: Evening) -> Evening:
    """Lock the evening row: seat changes and game numbering of one evening go one at a time.

    ``FOR NO KEY UPDATE`` of the evening row only: a projection run, holding the
    season's ProjectionState lock, inserts standing rows whose foreign keys take
    KEY SHARE locks on the evening and season rows. A plain ``FOR UPDATE`` (which
    also locked the joined season and club) blocked those inserts while this
    transaction went on to wait for the ProjectionState row: a deadlock.
    Returns the evening read afresh under the lock, with its club and season.
    """
    locked = selectors.evening_for_update(evening_id=evening.pk)
    if locked is None:
        # Deleted (``evening_delete``) after the caller found it.
        raise EveningClosed(_("This evening has been deleted."))
    if not locked.is_open:
        raise EveningClosed(_("This evening is closed."))
    return locked


@transaction.atomic
def evening_close(*, evening: Evening, user: Any | None = None) -> Evening:
    """Close an evening: no more games, seats or events. Games left in progress stay so.

    ``user`` (who closed it) goes on the evening's change log."""
    # Conditional update: of two concurrent closes exactly one changes the row.
    changed = Evening.objects.filter(pk=evening.pk, status=Evening.Status.OPEN).update(
        status=Evening.Status.CLOSED, closed_at=timezone.now()
    )
    if changed != 1:
        raise EveningClosed(_("This evening is already closed."))
    evening_changed(evening=evening, kind="closed", user=user)
    evening.refresh_from_db()
    return evening


@transaction.atomic
def evening_reopen(*, evening: Evening, user: Any | None = None) -> Evening:
    """Open a closed evening again, for a game typed in afterwards or a close by
    mistake: games, seats and events can be recorded again.

    Raises ``EveningOpen`` if it is open, ``EveningClosed`` if its season is closed
    (a closed season's evenings stay as they were counted). ``user`` goes on the
    evening's change log.
    """
    # The season's row, so that a close of the season waits for this (or this for it);
    # ``no_key``: the projections' inserts that reference the season are not held up.
    season = Season.objects.select_for_update(no_key=True).get(pk=evening.season_id)
    if not season.is_open:
        raise EveningClosed(
            _("The season %(season)s is closed: its evenings cannot be opened again.")
            % {"season": season.name}
        )
    # Conditional update: of two concurrent reopens exactly one changes the row.
    changed = Evening.objects.filter(pk=evening.pk, status=Evening.Status.CLOSED).update(
        status=Evening.Status.OPEN, closed_at=None
    )
    if changed != 1:
        raise EveningOpen(_("This evening is open."))
    evening_changed(evening=evening, kind="reopened", user=user)
    evening.refresh_from_db()
    return evening


@transaction.atomic
def evening_delete(*, evening: Evening) -> None:
    """Delete an evening opened by mistake, with its seats: only while nothing has
    been recorded in it (no game, payment, ledger entry or settlement plan).

    Raises ``EveningNotEmpty`` otherwise; money and games are never deleted.
    """
    # FOR UPDATE: a game started or a payment booked on it (each locks the row
    # first) waits for this, then finds it gone.
    locked = Evening.objects.select_for_update(of=("self",)).filter(pk=evening.pk).first()
    if locked is None:
        return  # deleted already: a second tap changes nothing
    if (
        Game.objects.filter(evening=locked).exists()
        or Payment.objects.filter(evening=locked).exists()
        or LedgerEntry.objects.filter(evening=locked).exists()
        or SettlementPlan.objects.filter(evening=locked).exists()
    ):
        raise EveningNotEmpty(
            _("Only an evening without games or payments can be deleted: close it instead.")
        )
    locked.delete()


@transaction.atomic
def evening_seat_add(
    *, evening: Evening, player: Player, position: int | None = None
) -> EveningSeat:
    """Seat ``player`` at ``position`` (1 = first seat; default: last).

    The players at that position and after it move one seat on. Seats change
    between games: a game already started keeps the deal it was started with.
    """
    evening = _lock_evening(evening)
    if player.club_id != evening.club_id:
        raise ValidationError({"player": _("No such player in this club.")})
    seats = selectors.evening_seats(evening=evening)
    if any(seat.player_id == player.pk for seat in seats):
        raise ValidationError({"player": _("This player is already seated.")})
    high = selectors.SEATS_ALLOWED[evening.game_kind][1]
    if len(seats) >= high:
        raise ValidationError({"player": _("The table is full (%(n)d players).") % {"n": high}})
    if position is None or position > len(seats):
        position = len(seats) + 1
    # Renumber the active seats 1..n with a gap at ``position``; from the last seat
    # back, so the unique active-position constraint never sees two at one place.
    wanted = {seat.pk: (i if i < position else i + 1) for i, seat in enumerate(seats, start=1)}
    for seat in sorted(seats, key=lambda s: s.position, reverse=True):
        if seat.position != wanted[seat.pk]:
            # Park far away first: moving down to a lower number could collide.
            seat.position = wanted[seat.pk] + 1000
            seat.save(update_fields=["position"])
    for seat in seats:
        if seat.position != wanted[seat.pk]:
            seat.position = wanted[seat.pk]
            seat.save(update_fields=["position"])
    return EveningSeat.objects.create(evening=evening, player=player, position=position)


@transaction.atomic
def evening_seat_remove(*, evening: Evening, player: Player) -> EveningSeat:
    """The player leaves the table (his seat is kept as history with ``left_at``)."""
    evening = _lock_evening(evening)
    seat = EveningSeat.objects.filter(evening=evening, player=player, left_at__isnull=True).first()
    if seat is None:
        raise ValidationError({"player": _("This player is not seated at this evening.")})
    seat.left_at = timezone.now()
    seat.save(update_fields=["left_at"])
    return seat


# --- Replaying and storing ------------------------------------------------------------------


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
        (
            event.seq,
            event.type,
            event.payload,
            event.schema_version,
            event.recorded_by.get_username() if event.recorded_by is not None else None,
            event.recorded_at,
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
    """What an append judged and wrote, for an answer that needs no second look.

    ``rows``: the game's events as ``selectors.game_event_rows`` reads them, the
    stored ones then the new ones (``new_from``: the index of the first new one);
    ``record``: the whole record the engine judged; ``state``: its table view (if
    asked for); ``names``: ``{str(pk): display_name}`` of the evening's seated
    players, read with the lock. ``answer``: with an idempotency key, the answer
    stored for it (``replayed``: this request is a retry, nothing was appended and
    only ``game`` is set, as it is now).
    """

    game: Game
    rows: list[selectors.EventRow]
    new_from: int
    record: dict[str, Any]
    state: dict[str, Any] | None = None
    names: dict[str, str] = field(default_factory=dict)
    answer: IdempotentAnswer | None = None


def game_events_append(
    *,
    game: Game | int,
    user: Any,
    expected_seq: int,
    events: list[dict[str, Any]],
    correct: int | None = None,
    idempotency_key: str | None = None,
    fingerprint: str = "",
    answer: str = "full",
    min_role: str | None = None,
    dry_run: bool = False,
) -> Appended:
    """Append ``events`` to the game if the client saw its latest state and the record
    stays valid: one transaction, which locks the game's row (``select_for_update``),
    judges (``game_append_check``) and writes the events (``bulk_create``), the game's
    new state and, with an ``idempotency_key``, the key's answer.

    ``min_role``: ``user`` must be a member of the game's club with this role
    (``clubs.permissions.require_role``: 404 for a stranger, who locks nothing, 403
    for a role too low); without it the caller has decided. With an
    ``idempotency_key`` (request ``fingerprint``) a retry gets the first answer back
    (``appended.answer.replayed``) and the answer is stored with the events: the game
    as ``games.presenters.game_data`` shows it, all its events or (``answer="new"``)
    only the new ones. ``dry_run``: judge the events exactly so, write nothing;
    ``appended.game`` is then an unsaved copy of the game as it would be.

    Raises ``game_append_check``'s errors (nothing written), ``IdempotencyKeyReused``
    if the key answered a different request, ``Game.DoesNotExist`` for an unknown id.
    A game in progress before and after holds no money; any change of status syncs
    the ledger in the same transaction.
    """
    key = None if dry_run else idempotency_key
    game_id = game if isinstance(game, int) else game.pk
    try:
        with transaction.atomic():
            return _append(
                game_id=game_id,
                user=user,
                expected_seq=expected_seq,
                events=events,
                correct=correct,
                key=key,
                fingerprint=fingerprint,
                answer=answer,
                min_role=min_role,
                dry_run=dry_run,
            )
    except IntegrityError as error:
        # A different request stored this key meanwhile (an append to another game):
        # the unique (user, key) refused it, and everything was rolled back.
        if key is not None and _is_key_conflict(error):
            raise _key_reused() from None
        raise


def _append(
    *,
    game_id: int,
    user: Any,
    expected_seq: int,
    events: list[dict[str, Any]],
    correct: int | None,
    key: str | None,
    fingerprint: str,
    answer: str,
    min_role: str | None,
    dry_run: bool,
) -> Appended:
    locked = selectors.game_for_append(
        game_id=game_id, user=user, members_only=min_role is not None
    )
    if min_role is not None:
        require_role(locked.member_role if locked is not None else None, min_role)  # type: ignore[attr-defined]
    if locked is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    names: dict[str, str] = locked.seat_names or {}  # type: ignore[attr-defined]
    try:
        # A retry of an append that was stored finds the game moved on (or its evening
        # closed since): refused before the events are read, then answered from its
        # key. A key that answered a different request is refused by its unique
        # (user, key) when this append stores it.
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
    except (GamesError, ValidationError):
        # The lock may have waited for another request, maybe this one's original:
        # its key is committed now.
        replayed = _stored_answer(user=user, key=key, fingerprint=fingerprint) if key else None
        if replayed is not None:
            return Appended(game=locked, rows=[], new_from=0, record={}, answer=replayed)
        raise
    new = _new_events(locked, judged.events, first_seq=locked.last_seq + 1, user=user, key=key)
    appended = Appended(
        game=judged.game,
        rows=stored + _event_rows(new),
        new_from=len(stored),
        record=judged.record,
        state=judged.state,
        names=names,
    )
    if dry_run:
        return appended
    if locked.status != Game.Status.IN_PROGRESS or judged.game.status != Game.Status.IN_PROGRESS:
        _ledger_sync(
            judged.game,
            club_players={int(pk) for pk in names},
            record_changed=locked.status == judged.game.status == Game.Status.FINISHED,
        )
    GameEvent.objects.bulk_create(new)
    _game_update(judged.game)
    if key is not None:
        rows = appended.rows[appended.new_from :] if answer == "new" else appended.rows
        body = presenters.game_data(
            judged.game, record=judged.record, rows=rows, names=names, state=judged.state
        )
        IdempotencyRecord.objects.create(
            user_id=user.pk,
            key=key,
            fingerprint=fingerprint,
            response_status=201,
            response_body=body,
        )
        appended.answer = IdempotentAnswer(status=201, body=body, replayed=False)
    evening_changed_push(locked.evening_id)
    return appended


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


def _new_game(
    *,
    evening: Evening,
    user: Any,
    house_rules: dict[str, Any],
    events: list[dict[str, Any]],
    result: engine.Result,
    record: dict[str, Any],
    club_players: Collection[int] = (),
) -> tuple[Game, list[selectors.EventRow]]:
    """Create the game with its events (its number the evening's next); returns its rows.

    ``club_players``: as for ``_apply_result``.
    """
    game = Game(
        evening=evening,
        game_kind=evening.game_kind,
        house_rules=house_rules,
        last_seq=len(events),
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    _apply_result(game, result, record, club_players=club_players)
    # Numbered the evening's next under the evening's lock, which every caller holds
    # (the unique (evening, number) stays the last guard).
    last = Game.objects.filter(evening_id=evening.pk).aggregate(number=Max("number"))["number"]
    game.number = (last or 0) + 1
    game.save(force_insert=True)
    evening_changed_push(evening.pk)
    rows = _store_events(game, events, first_seq=1, user=user, key=None)
    # A game in progress holds no money (see ``_record``): only an imported record
    # that is already over has anything to book.
    if game.status != Game.Status.IN_PROGRESS:
        _ledger_sync(game, club_players=club_players)
    return game, rows


def game_start(*, evening: Evening, user: Any, deal: dict[str, Any] | None = None) -> Game:
    """Start the evening's next game with its deal as the first event.

    The house rules are copied from the evening's rule profile (else the
    season's, else the defaults): later changes to the club's rules never
    change this game. Without a ``deal`` the proposed one is written
    (``selectors.next_deal``); a given deal must seat only players of this
    evening (by ``str(pk)``) and is judged by the engine like any event.
    A previous game still in progress does not block a new one: a table may
    abandon a deal.
    """
    return game_started(evening=evening, user=user, deal=deal).game


@dataclass
class Started:
    """What ``game_started`` wrote and read, for an answer without a second look.

    ``rows``: the game's one event as ``selectors.game_event_rows`` reads it;
    ``record``: the record the engine replayed; ``names``: ``{str(pk):
    display_name}`` of the evening's seated players; ``state``: the table after
    the deal (``selectors.table_state``).
    """

    game: Game
    rows: list[selectors.EventRow]
    record: dict[str, Any]
    names: dict[str, str]
    state: dict[str, Any]


@transaction.atomic
def game_started(
    *,
    evening: Evening,
    user: Any,
    deal: dict[str, Any] | None = None,
    events: list[dict[str, Any]] | None = None,
    dry_run: bool = False,
) -> Started:
    """``game_start``, also returning the game's events, record, names and table.

    ``events``: more events of the game, appended with the deal in the same
    transaction (all or nothing: ``EngineRejected`` names the engine's index in the
    whole record, deal first, and no game is written). Their first may be the deal
    itself (when no ``deal`` is given): one request records a whole deal, e.g. the
    deal, the call and a ``tally``. ``dry_run``: judge it all the same, write
    nothing, and return the game as it would be (unsaved, without id or number).
    """
    events = list(events or [])
    if deal is None and events and isinstance(events[0], dict) and events[0].get("type") == "deal":
        deal = {k: v for k, v in events[0].items() if k != "type"}
        events = events[1:]
    evening = _lock_evening(evening)
    house_rules = selectors.evening_house_rules(evening=evening)
    if deal is None:
        proposal = selectors.next_deal(evening=evening, house_rules=house_rules)
        if proposal.event is None:
            raise ValidationError({"deal": proposal.problem or _("No game can be dealt.")})
        deal_event = proposal.event
        seated = {str(player.pk): player.display_name for player in proposal.players}
    else:
        deal_event = {**deal, "type": "deal"}
        seated = selectors.seated_names(evening_id=evening.pk)
        if not _deal_names(deal_event) <= seated.keys():
            raise ValidationError(
                {"deal": _("The deal may seat only players at this evening's table (by id).")}
            )
    _check_deals_seat_club_players(evening, events)
    all_events = [deal_event, *events]
    record = {"game": evening.game_kind, "rules": house_rules or None, "events": all_events}
    # One replay judges the deal and draws the table the answer shows.
    state, result = selectors.table_state_and_result(record=record)
    if result is None:
        result = _replay(record)
    if result.status == "invalid":
        raise EngineRejected(error=_error_dict(result), event_offset=0)
    # The deal seats only the evening's players (checked above, or proposed).
    club_players = {int(pk) for pk in seated}
    if dry_run:
        game = Game(
            evening=evening,
            game_kind=evening.game_kind,
            house_rules=house_rules,
            last_seq=len(all_events),
            created_at=timezone.now(),
        )
        _apply_result(game, result, record, club_players=club_players)
        rows = _event_rows(_new_events(game, all_events, first_seq=1, user=user, key=None))
        return Started(game=game, rows=rows, record=record, names=seated, state=state)
    game, rows = _new_game(
        evening=evening,
        user=user,
        house_rules=house_rules,
        events=all_events,
        result=result,
        record=record,
        club_players=club_players,
    )
    return Started(game=game, rows=rows, record=record, names=seated, state=state)


# --- Import ---------------------------------------------------------------------------------

MAX_IMPORT_RECORDS = 500


@dataclass
class ImportOutcome:
    """What became of one imported record."""

    index: int
    imported: bool
    game: Game | None = None
    reason: str | None = None  # engine_error, game_kind_mismatch, unknown_players, ...
    detail: str | None = None
    error: dict[str, Any] | None = None
    unknown_players: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Accepted:
    """A record ``_import_one`` found fit to store: its events and record as stored
    (names as player ids, the evening's rules), the engine's result for them, and the
    ids its names resolved to (players of the club)."""

    index: int
    events: list[dict[str, Any]]
    result: engine.Result
    record: dict[str, Any]
    club_players: frozenset[int]


# Games per INSERT of an import: a batch costs one statement.
IMPORT_BATCH = 2000


def _name_resolver(
    evening: Evening, mapping: dict[str, Player]
) -> Callable[[str, str | None], Player | None]:
    """Find the player a record's name stands for.

    An explicit mapping first; then the evening's seated players' display names,
    then the club's players', both case-insensitive.
    """
    seated = {
        seat.player.display_name.casefold(): seat.player
        for seat in selectors.evening_seats(evening=evening, active_only=False)
    }
    club_players = {
        player.display_name.casefold(): player
        for player in Player.objects.filter(club_id=evening.club_id)
    }

    def resolve(name: str, legend_name: str | None) -> Player | None:
        if name in mapping:
            return mapping[name]
        for candidate in (legend_name, name):
            if candidate is None:
                continue
            key = candidate.casefold()
            if key in seated:
                return seated[key]
            if key in club_players:
                return club_players[key]
        return None

    return resolve


def _renamed_record(record: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    return {**record, "events": renamed_events(record["events"], names)}


def _same_rules(game_kind: str, rules: object, house_rules: dict[str, Any]) -> bool:
    """True when ``rules`` (valid for the engine) come to the same settings as the
    evening's ``house_rules``: a record may spell out a default the profile leaves out."""
    try:
        return effective_rules(game_kind, rules) == effective_rules(game_kind, house_rules)
    except ValueError:  # InvalidRules included: rules the engine would not take differ
        return False


def _judged_as_stored(
    evening: Evening,
    record: Any,
    own_rules: object,
    legend: dict[str, Any],
    resolve: Callable[[str, str | None], Player | None],
    house_rules: dict[str, Any],
) -> tuple[dict[str, Any], engine.Result] | None:
    """The record as it would be stored (names as ids, the evening's rules) and the
    engine's valid result for it; ``None`` when the record will not be stored as it
    is (a name no player has, two names for one player, rules of its own that differ)
    or the engine refuses it, which ``_import_one`` then judges as written, to answer
    in the record's own names. The engine sees names as opaque and equal rules as
    equal, so a valid verdict here is the one the record as written would get."""
    if not isinstance(record, dict) or not isinstance(record.get("events"), list):
        return None
    if not record["events"]:
        return None
    if own_rules is not None and not _same_rules(evening.game_kind, own_rules, house_rules):
        return None
    resolved: dict[str, str] = {}
    for name in selectors.record_player_names(record):
        legend_name = legend.get(name)
        player = resolve(name, legend_name if isinstance(legend_name, str) else None)
        if player is None:
            return None
        resolved[name] = str(player.pk)
    if len(set(resolved.values())) != len(resolved):
        return None
    try:
        renamed = _renamed_record({**record, "rules": house_rules or None}, resolved)
    except (TypeError, AttributeError, ValueError):
        return None  # events malformed: the engine judges them as written
    result = _replay(renamed)
    return (renamed, result) if result.status != "invalid" else None


def _import_one(
    *,
    evening: Evening,
    user: Any,
    index: int,
    item: Any,
    resolve: Callable[[str, str | None], Player | None],
    house_rules: dict[str, Any],
) -> ImportOutcome | _Accepted:
    """Judge one record of ``games_import`` (writes nothing): the reason it is refused,
    or the game it becomes (its events as stored, the engine's result)."""
    legend: dict[str, Any] = {}
    record = item
    # An exported entry ({"record", "players", "result"}) imports as its record,
    # with its legend giving the names behind the ids.
    if isinstance(item, dict) and "record" in item and "events" not in item:
        record = item["record"]
        legend = item["players"] if isinstance(item.get("players"), dict) else {}
    events_in = record.get("events") if isinstance(record, dict) else None
    if isinstance(events_in, list) and len(events_in) > MAX_GAME_EVENTS:
        # Before the replay: a record this long is refused whatever it holds.
        error = TooManyEvents(total=len(events_in), event_offset=0).error
        return ImportOutcome(
            index=index,
            imported=False,
            reason="too_many_events",
            detail=explain(error, face=evening.club.card_face),
            error=error,
        )
    # House rules come from the evening's rule profile (admins set them), never from a
    # record: a record without rules is judged under the evening's; one whose rules
    # differ from them is refused below.
    own_rules = record.get("rules") if isinstance(record, dict) else None
    if isinstance(record, dict) and own_rules is None:
        record = {**record, "rules": house_rules or None}
    # One replay judges a record that will be stored: the engine's verdict on it as
    # stored (its names as the players' ids, under the evening's rules), kept for
    # storing and projecting. Anything else replays as written below.
    judged = _judged_as_stored(evening, record, own_rules, legend, resolve, house_rules)
    # The engine first: an invalid record is rejected with the engine's own index
    # and code, whatever its names are.
    result = judged[1] if judged is not None else _replay(record)
    if result.status == "invalid":
        error = _error_dict(result)
        # The record's own names, or the legend's names for its ids.
        shown = {k: v for k, v in legend.items() if isinstance(k, str) and isinstance(v, str)}
        return ImportOutcome(
            index=index,
            imported=False,
            reason="engine_error",
            detail=explain(error, shown, face=evening.club.card_face),
            error=error,
        )
    if not record.get("events"):
        # Valid to the engine (a game awaiting its deal), but no game was played.
        return ImportOutcome(
            index=index,
            imported=False,
            reason="no_events",
            detail=_("This record has no events, not even a deal: there is no game to import."),
        )
    if record.get("game") != evening.game_kind:
        return ImportOutcome(
            index=index,
            imported=False,
            reason="game_kind_mismatch",
            detail=_("This record is a game of %(game)s; the evening plays %(evening)s.")
            % {"game": record.get("game"), "evening": evening.game_kind},
        )
    if own_rules is not None and not _same_rules(evening.game_kind, own_rules, house_rules):
        return ImportOutcome(
            index=index,
            imported=False,
            reason="house_rules_differ",
            detail=_(
                "This record's house rules differ from the evening's. House rules come "
                "only from the evening's rule profile: an admin sets them there, and the "
                "record imports without its own rules."
            ),
        )
    record = {**record, "rules": house_rules or None}
    names = sorted(selectors.record_player_names(record))
    resolved: dict[str, str] = {}
    unknown: list[str] = []
    for name in names:
        legend_name = legend.get(name)
        player = resolve(name, legend_name if isinstance(legend_name, str) else None)
        if player is None:
            unknown.append(name)
        else:
            resolved[name] = str(player.pk)
    if unknown:
        return ImportOutcome(
            index=index,
            imported=False,
            reason="unknown_players",
            detail=_("No player of this club is called %(names)s.") % {"names": ", ".join(unknown)},
            unknown_players=unknown,
        )
    if len(set(resolved.values())) != len(resolved):
        return ImportOutcome(
            index=index,
            imported=False,
            reason="players_collide",
            detail=_("Two names of the record stand for the same player."),
        )
    renamed = _renamed_record(record, resolved)
    result = judged[1] if judged is not None else _replay(renamed)
    if result.status == "invalid":  # pragma: no cover - names are opaque to the engine
        error = _error_dict(result)
        return ImportOutcome(
            index=index,
            imported=False,
            reason="engine_error",
            detail=explain(error, {v: k for k, v in resolved.items()}, face=evening.club.card_face),
            error=error,
        )
    return _Accepted(
        index=index,
        events=list(renamed["events"]),
        result=result,
        record=renamed,
        # The names resolved to players of the club: a dealer or a payout of one of
        # them needs no look at the players' table.
        club_players=frozenset(int(pk) for pk in resolved.values()),
    )


def games_import(
    *,
    evening: Evening,
    user: Any,
    records: list[Any],
    players: dict[str, int] | None = None,
) -> list[ImportOutcome]:
    """Store each valid record as a new game of the evening, all-or-nothing per record.

    ``players`` maps names used in the records to player ids of the club; other
    names are matched case-insensitively against the evening's seated players'
    display names, then the club's players'. Every game is judged and stored under
    the evening's house rules (its rule profile, else its season's, else the
    defaults). A record is rejected (and the others still imported) when the engine
    finds it invalid, when it is a game of the other kind, when its own ``rules``
    come to other settings than the evening's (``house_rules_differ``: only admins
    set house rules, in a rule profile), or when a name matches no player.
    """
    if len(records) > MAX_IMPORT_RECORDS:
        raise ValidationError(
            {"records": _("At most %(n)d records at a time.") % {"n": MAX_IMPORT_RECORDS}}
        )
    evening = Evening.objects.select_related("club", "season").get(pk=evening.pk)
    if not evening.is_open:
        raise EveningClosed(_("This evening is closed."))
    mapping: dict[str, Player] = {}
    if players:
        ids = list(players.values())
        found = {p.pk: p for p in Player.objects.filter(club_id=evening.club_id, pk__in=ids)}
        missing = sorted({pid for pid in ids if pid not in found})
        if missing:
            raise ValidationError(
                {
                    "players": _("No such player in this club: %(ids)s.")
                    % {"ids": ", ".join(str(pid) for pid in missing)}
                }
            )
        mapping = {name: found[pid] for name, pid in players.items()}
    resolve = _name_resolver(evening, mapping)
    house_rules = selectors.evening_house_rules(evening=evening)
    # One transaction for the call, which judges every record first (the engine, once
    # each; nothing written) and then writes the accepted ones together: the games,
    # their events and their ledger entries in a constant number of statements per
    # batch of rows (a savepoint and some eleven statements per record took most of an
    # import's time). A refused record writes nothing; a failure while writing rolls
    # the whole call back. The evening stays locked for the call, so a game started
    # meanwhile waits for it and the numbers run on. The projections are asked for
    # once, after the commit: one run applies every imported game.
    with projection_requests_deferred(), transaction.atomic():
        _lock_evening(evening)
        judged = [
            _import_one(
                evening=evening,
                user=user,
                index=index,
                item=item,
                resolve=resolve,
                house_rules=house_rules,
            )
            for index, item in enumerate(records)
        ]
        accepted = [verdict for verdict in judged if isinstance(verdict, _Accepted)]
        games = iter(
            _new_games(evening=evening, user=user, house_rules=house_rules, accepted=accepted)
        )
    return [
        ImportOutcome(index=verdict.index, imported=True, game=next(games))
        if isinstance(verdict, _Accepted)
        else verdict
        for verdict in judged
    ]


def _new_games(
    *, evening: Evening, user: Any, house_rules: dict[str, Any], accepted: list[_Accepted]
) -> list[Game]:
    """Create the accepted records' games, numbered the evening's next in their order,
    with their events and ledger entries: the rows ``_new_game`` writes for each, with
    the same numbers, seqs, authors and the same order of their times, in a constant
    number of statements: the games in batches of ``IMPORT_BATCH``, the events in one
    COPY, the entries as ``ledger_book_new_games`` writes them. The caller holds the
    evening's lock.
    """
    if not accepted:
        return []
    last = Game.objects.filter(evening_id=evening.pk).aggregate(number=Max("number"))["number"]
    author = user if getattr(user, "is_authenticated", False) else None
    games: list[Game] = []
    # Each game's times as ``_new_game`` takes them: created, finished, its events
    # recorded, its entries booked (played_at, the projections' order, follows).
    stamps: list[tuple[datetime.datetime, datetime.datetime]] = []
    for number, ready in enumerate(accepted, start=(last or 0) + 1):
        game = Game(
            evening=evening,
            game_kind=evening.game_kind,
            house_rules=dict(house_rules),
            last_seq=len(ready.events),
            created_by=author,
            number=number,
        )
        _apply_result(game, ready.result, ready.record, club_players=ready.club_players)
        games.append(game)
        stamps.append((timezone.now(), timezone.now()))
    Game.objects.bulk_create(games, batch_size=IMPORT_BATCH)
    # The events as plain rows through COPY (``stichbuch.sql.rows_insert``), not model
    # instances through ``bulk_create``: measured in process on PostgreSQL
    # (``bench/import_rate.py``'s setup, the 4,950 events of 200 Fuchsen records, best
    # of five), ``bulk_create`` took 363 ms (301 ms of CPU), COPY 96 ms (66 ms of CPU).
    author_id = author.pk if author is not None else None
    sql.rows_insert(
        model=GameEvent,
        fields=EVENT_FIELDS,
        rows=(
            (game.pk, seq, kind, payload, CURRENT_SCHEMA_VERSION, author_id, recorded_at, None)
            for game, ready, (recorded_at, _booked) in zip(games, accepted, stamps, strict=True)
            for seq, (kind, payload) in _numbered(ready.events, first_seq=1)
        ),
    )
    # A game in progress holds no money (see ``_record``): only a record that is
    # already over has anything to book.
    ledger_book_new_games(
        evening=evening,
        games=[
            (game, booked_at)
            for game, (_recorded, booked_at) in zip(games, stamps, strict=True)
            if game.status != Game.Status.IN_PROGRESS
        ],
        club_players=frozenset().union(*(ready.club_players for ready in accepted)),
    )
    evening_changed_push(evening.pk)
    return games


# --- Idempotency ----------------------------------------------------------------------------


def request_fingerprint(*, method: str, path: str, body: Any) -> str:
    """sha256 of the method, the path and the body (canonical JSON)."""
    canonical = json.dumps(
        body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    )
    return hashlib.sha256(f"{method.upper()}\n{path}\n{canonical}".encode()).hexdigest()


def _key_reused() -> IdempotencyKeyReused:
    return IdempotencyKeyReused(
        _(
            "This Idempotency-Key was already used for a different request; "
            "use a new key for a new request."
        )
    )


def idempotency_lookup(*, user: Any, key: str, fingerprint: str) -> IdempotencyRecord | None:
    """The stored answer to this request, or None if the key is new.

    Raises ``IdempotencyKeyReused`` if the key answered a different request.
    """
    stored = IdempotencyRecord.objects.filter(user_id=user.pk, key=key).order_by().first()
    if stored is not None and stored.fingerprint != fingerprint:
        raise _key_reused()
    return stored


@dataclass(frozen=True)
class IdempotentAnswer:
    status: int
    body: Any
    replayed: bool


def idempotent_call(
    *,
    user: Any,
    key: str | None,
    fingerprint: str,
    lock: Callable[[], object],
    work: Callable[[], tuple[int, Any]],
    look_before_lock: bool = True,
) -> IdempotentAnswer:
    """Run ``work`` once per (user, key): a retry gets the first answer back.

    ``lock`` takes the row lock ``work`` will take anyway (e.g. the game row);
    the key is looked up again under it, so a retry racing its original waits
    for it and then gets its answer instead of a 409. Only successful answers
    are stored: an error wrote nothing, so a retry may simply try again.

    ``look_before_lock=False`` skips the first look (one query less) where
    ``lock`` never refuses (so a retry only waits for the lock, whatever it
    finds) and ``work`` runs right after it in the same transaction.

    Without a key there is nothing to store: ``work`` runs as it is, in the
    transactions of its own services (no enclosing transaction, so their
    ``atomic`` blocks are not savepoints). With a key, in one transaction.
    """
    if key is None:
        status, body = work()
        return IdempotentAnswer(status=status, body=body, replayed=False)
    with transaction.atomic():
        return _idempotent_call_keyed(
            user=user,
            key=key,
            fingerprint=fingerprint,
            lock=lock,
            work=work,
            look_before_lock=look_before_lock,
        )


def _idempotent_call_keyed(
    *,
    user: Any,
    key: str,
    fingerprint: str,
    lock: Callable[[], object],
    work: Callable[[], tuple[int, Any]],
    look_before_lock: bool,
) -> IdempotentAnswer:
    stored = (
        idempotency_lookup(user=user, key=key, fingerprint=fingerprint)
        if look_before_lock
        else None
    )
    if stored is None:
        lock()
        stored = idempotency_lookup(user=user, key=key, fingerprint=fingerprint)
    if stored is not None:
        return IdempotentAnswer(
            status=stored.response_status, body=stored.response_body, replayed=True
        )
    status, body = work()
    IdempotencyRecord.objects.create(
        user_id=user.pk,
        key=key,
        fingerprint=fingerprint,
        response_status=status,
        response_body=body,
    )
    return IdempotentAnswer(status=status, body=body, replayed=False)


def _stored_answer(*, user: Any, key: str, fingerprint: str) -> IdempotentAnswer | None:
    """The answer stored for this request's key (replayed), or None if the key is new."""
    stored = idempotency_lookup(user=user, key=key, fingerprint=fingerprint)
    if stored is None:
        return None
    return IdempotentAnswer(status=stored.response_status, body=stored.response_body, replayed=True)


def _is_key_conflict(error: Exception) -> bool:
    """True if ``error`` is the (user, key) unique constraint of the idempotency records."""
    text = str(error)
    return "games_idempotency_unique_key" in text or IdempotencyRecord._meta.db_table in text


def evening_lock(*, evening: Evening) -> Evening:
    """Lock the evening row (inside the caller's transaction), refusing a closed evening."""
    return _lock_evening(evening)


def corrected_events(
    *, stored: list[dict[str, Any]], index: int, replacement: dict[str, Any]
) -> list[dict[str, Any]]:
    """The events that put ``replacement`` in place of the record's event ``index``.

    ``stored``: the record's events as stored (undos included); ``index`` a position
    in it, as the engine's errors name them. Appended to the record, the answer undoes
    every standing event back to and including that one, appends ``replacement`` and
    then the later standing events again, in their order: the same record with that
    one entry corrected, each step on record. Raises ``GamesError`` if ``index`` is no
    standing event (out of range, an undo, or one an undo took back) or is the deal.
    """
    standing: list[int] = []  # positions of the standing events, as ``undo`` leaves them
    for i, event in enumerate(stored):
        if event.get("type") == "undo":
            if standing:
                standing.pop()
        else:
            standing.append(i)
    if index not in standing:
        raise GamesError(
            _("That entry is not part of the game as it stands: it cannot be corrected.")
        )
    if stored[index].get("type") == "deal" or replacement.get("type") == "deal":
        raise GamesError(_("The deal is not corrected this way: undo back to it instead."))
    at = standing.index(index)
    later = [dict(stored[i]) for i in standing[at + 1 :]]
    undos: list[dict[str, Any]] = [{"type": "undo"} for _i in standing[at:]]
    return [*undos, dict(replacement), *later]


def game_entry_correct(
    *,
    game: Game,
    user: Any,
    expected_seq: int,
    index: int,
    replacement: dict[str, Any],
    then: list[dict[str, Any]] | None = None,
    idempotency_key: str | None = None,
) -> Game:
    """Correct the record's event ``index`` (an entry found wrong in hindsight) to
    ``replacement`` in one append: undo back to it, the correction, the later events
    again, then ``then`` (say the card whose tap showed the mistake). All or nothing:
    the engine judges the whole result, and a refusal (``StaleSequence``,
    ``EngineRejected``, ``GamesError``) writes nothing."""
    with transaction.atomic():
        record = selectors.game_record(game=game)
        events = corrected_events(stored=record["events"], index=index, replacement=replacement)
        return game_events_append(
            game=game,
            user=user,
            expected_seq=expected_seq,
            events=[*events, *(then or [])],
            idempotency_key=idempotency_key,
        ).game
