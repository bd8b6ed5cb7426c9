"""Writes of the games app: keyword-only functions, each one transaction.

They raise Django's ``ValidationError`` for input a user can get wrong (400) and
the errors of ``games.errors`` for conflicts (409) and engine rejections (422).
Permission to call them is checked by the caller (``clubs.permissions``).

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
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from clubs.models import Club, GameKind, Player, RuleProfile, Season
from engine.rules import effective_rules
from games import selectors, sql
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
from games.models import Evening, EveningSeat, Game, IdempotencyRecord
from ledger.models import LedgerEntry, Payment, SettlementPlan
from ledger.services import ledger_sync_game, projection_requests_deferred

logger = logging.getLogger(__name__)

# The engine's result statuses that end a game (and make the ledger write entries).
DONE_STATUSES = frozenset({Game.Status.FINISHED, Game.Status.ANNULLED})


# --- The ledger hook ------------------------------------------------------------------------


def _ledger_sync(game: Game, *, club_players: Collection[int] = ()) -> None:
    """Write the game's payouts into the ledger, inside the caller's transaction.

    Money is never lost because a queue is down: the ledger's entries for a
    finished (or annulled, or undone) game are written in the same transaction
    that appends its events. Any error inside the hook rolls the append back.
    Every caller holds the game's row lock (or has just created the row) with
    the evening loaded, inside the transaction that writes the events.
    ``club_players``: as for ``_apply_result``.
    """
    ledger_sync_game(game=game, locked=True, club_players=club_players)


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
    Returns the evening read afresh under the lock, with its club and season
    (``sql.evening_lock``, one statement written once: every game start takes it).
    """
    locked = sql.evening_lock(evening_id=evening.pk)
    if locked is None:
        # Deleted (``evening_delete``) after the caller found it.
        raise EveningClosed(_("This evening has been deleted."))
    if not locked.is_open:
        raise EveningClosed(_("This evening is closed."))
    return locked


@transaction.atomic
def evening_close(*, evening: Evening) -> Evening:
    """Close an evening: no more games, seats or events. Games left in progress stay so."""
    # Conditional update: of two concurrent closes exactly one changes the row.
    changed = Evening.objects.filter(pk=evening.pk, status=Evening.Status.OPEN).update(
        status=Evening.Status.CLOSED, closed_at=timezone.now()
    )
    if changed != 1:
        raise EveningClosed(_("This evening is already closed."))
    evening.refresh_from_db()
    return evening


@transaction.atomic
def evening_reopen(*, evening: Evening) -> Evening:
    """Open a closed evening again, for a game typed in afterwards or a close by
    mistake: games, seats and events can be recorded again.

    Raises ``EveningOpen`` if it is open, ``EveningClosed`` if its season is closed
    (a closed season's evenings stay as they were counted).
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
    game: Game, events: list[dict[str, Any]], *, first_seq: int, user: Any, key: str | None
) -> sql.NewEvents:
    authenticated = getattr(user, "is_authenticated", False)
    return sql.NewEvents(
        game_id=game.pk,
        first_seq=first_seq,
        events=[split_event(event) for event in events],
        schema_version=CURRENT_SCHEMA_VERSION,
        user_id=user.pk if authenticated else None,
        username=user.get_username() if authenticated else None,
        recorded_at=timezone.now(),
        key=key,
    )


def _store_events(
    game: Game, events: list[dict[str, Any]], *, first_seq: int, user: Any, key: str | None
) -> list[selectors.EventRow]:
    """Insert the events after ``first_seq - 1`` (one statement, in the caller's transaction).

    Returns them as ``selectors.game_event_rows`` would read them back.
    """
    new = _new_events(game, events, first_seq=first_seq, user=user, key=key)
    sql.events_insert(new)
    return new.rows()


@dataclass
class Appended:
    """What an append wrote and read, for an answer that needs no second look at the database.

    ``rows`` are the game's events as ``selectors.game_event_rows`` reads them:
    the stored ones, then the new ones (``new_from`` is the index of the first
    new one); ``record`` is the record the engine replayed (the whole game).
    """

    game: Game
    rows: list[selectors.EventRow]
    new_from: int
    record: dict[str, Any]
    answer: tuple[int, Any] | None = None
    state: dict[str, Any] | None = None  # selectors.table_state of ``record``, if computed


def game_events_append(
    *,
    game: Game,
    user: Any,
    expected_seq: int,
    events: list[dict[str, Any]],
    idempotency_key: str | None = None,
    dry_run: bool = False,
) -> Game:
    """Append ``events`` to the game if the client saw its latest state and the record stays valid.

    Raises ``StaleSequence`` if ``expected_seq`` is not the game's ``last_seq``,
    ``EngineRejected`` (nothing written) if the engine finds the combined record
    invalid, ``EveningClosed`` if the evening is closed.

    ``dry_run``: judge the events exactly so, but write nothing (no event, no
    idempotency record, no ledger): the answer is the game as it would be, an
    unsaved copy (the page shows a tally's payouts before it is saved).
    """
    return game_events_record(
        game=game,
        user=user,
        expected_seq=expected_seq,
        events=events,
        idempotency_key=idempotency_key,
        dry_run=dry_run,
    ).game


def game_events_record(
    *,
    game: Game,
    user: Any,
    expected_seq: int,
    events: list[dict[str, Any]],
    idempotency_key: str | None = None,
    locked: bool = False,
    stored: list[selectors.EventRow] | None = None,
    answer: Callable[[Appended], tuple[int, Any]] | None = None,
    fingerprint: str = "",
    club_players: Collection[int] = (),
    dry_run: bool = False,
) -> Appended:
    """``game_events_append``, also returning the events and the record (for the answer).

    ``dry_run``: as ``game_events_append``'s; ``appended.game`` is then an unsaved
    copy of the game as it would be, and no idempotency key is written.

    ``locked=True`` is the caller's word that it runs this inside its own
    transaction, has locked ``game``'s row in it with ``game_lock`` (which reads
    the evening and club too) and lets any error here roll that transaction back:
    then the row is not read again and no savepoint is taken. ``stored``: the
    game's events as read under that lock (else they are read here).

    ``answer``: builds the request's answer from what was appended, before it is
    written; it is then stored as ``appended.answer`` and, with an
    ``idempotency_key``, written as the key's answer (request ``fingerprint``)
    together with the events.
    """
    arguments: dict[str, Any] = {
        "user": user,
        "expected_seq": expected_seq,
        "events": events,
        "idempotency_key": idempotency_key,
        "answer": answer,
        "fingerprint": fingerprint,
        "club_players": club_players,
        "dry_run": dry_run,
    }
    if locked:
        # No atomic block of its own, not even without a savepoint: leaving one by
        # an exception would doom the caller's transaction, and the caller may
        # still read after a StaleSequence (``idempotent_append``).
        if not transaction.get_connection().in_atomic_block:
            raise RuntimeError("game_events_record(locked=True) needs the caller's transaction")
        return _record(game=game, stored=stored, **arguments)
    with transaction.atomic():
        return _record(game=game_lock(game=game), stored=None, **arguments)


def _record(
    *,
    game: Game,
    user: Any,
    expected_seq: int,
    events: list[dict[str, Any]],
    idempotency_key: str | None,
    stored: list[selectors.EventRow] | None,
    answer: Callable[[Appended], tuple[int, Any]] | None,
    fingerprint: str,
    club_players: Collection[int],
    dry_run: bool = False,
) -> Appended:
    evening = game.evening
    if not evening.is_open:
        raise EveningClosed(_("This evening is closed: its games cannot change any more."))
    if expected_seq != game.last_seq:
        raise StaleSequence(current_seq=game.last_seq, expected_seq=expected_seq)
    # Seqs run 1..last_seq without gaps: last_seq is the number of stored events.
    if game.last_seq + len(events) > MAX_GAME_EVENTS:
        raise TooManyEvents(total=game.last_seq + len(events), event_offset=game.last_seq)
    _check_deals_seat_club_players(evening, events)
    status_before = game.status
    # Plain tuples, not model instances: the replay needs only type, payload and version.
    if stored is None:
        stored = selectors.game_event_rows(game_id=game.pk)
    record = selectors.record_from_rows(game=game, rows=stored)
    record["events"] = record["events"] + list(events)
    # With an answer to build, the table view's replay is the judgement (one
    # replay for both); without, the replay alone.
    state: dict[str, Any] | None = None
    view_result = None
    if answer is not None:
        state, view_result = selectors.table_state_and_result(record=record)
    result = view_result if view_result is not None else _replay(record)
    if result.status == "invalid":
        raise EngineRejected(error=_error_dict(result), event_offset=len(stored))
    new = _new_events(game, events, first_seq=game.last_seq + 1, user=user, key=idempotency_key)
    if dry_run:
        # The game as it would be: a copy, so that the caller's instance stays as stored.
        game = copy.copy(game)
    game.last_seq += len(events)
    _apply_result(game, result, record, club_players=club_players)
    if dry_run:
        appended = Appended(
            game=game, rows=stored + new.rows(), new_from=len(stored), record=record, state=state
        )
        if answer is not None:
            appended.answer = answer(appended)
        return appended
    # Only a finished game holds money, and every change of status syncs the ledger
    # in its own transaction: a game in progress before and after this append holds
    # nothing and needs no sync (which would cost three queries and two savepoints on
    # nearly every append). The sync reads neither the events nor the game's row, so
    # it may come before they are written.
    if status_before != Game.Status.IN_PROGRESS or game.status != Game.Status.IN_PROGRESS:
        _ledger_sync(game, club_players=club_players)
    appended = Appended(
        game=game, rows=stored + new.rows(), new_from=len(stored), record=record, state=state
    )
    key_answer = None
    if answer is not None:
        appended.answer = answer(appended)
        if idempotency_key is not None:
            key_answer = sql.KeyAnswer(
                user_id=user.pk,
                key=idempotency_key,
                fingerprint=fingerprint,
                status=appended.answer[0],
                body=appended.answer[1],
            )
    sql.append_write(game=game, new=new, answer=key_answer)
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
    return result.error.to_dict()


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
    # Numbered the evening's next under the evening's lock, which every caller holds.
    sql.game_insert(game=game)
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
        seated = sql.seated_names(evening_id=evening.pk)
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
        rows = _new_events(game, all_events, first_seq=1, user=user, key=None).rows()
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


def _import_one(
    *,
    evening: Evening,
    user: Any,
    index: int,
    item: Any,
    resolve: Callable[[str, str | None], Player | None],
    house_rules: dict[str, Any],
) -> ImportOutcome:
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
    # The engine first: an invalid record is rejected with the engine's own index
    # and code, whatever its names are.
    result = _replay(record)
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
    result = _replay(renamed)
    if result.status == "invalid":  # pragma: no cover - names are opaque to the engine
        error = _error_dict(result)
        return ImportOutcome(
            index=index,
            imported=False,
            reason="engine_error",
            detail=explain(error, {v: k for k, v in resolved.items()}, face=evening.club.card_face),
            error=error,
        )
    events = list(renamed["events"])
    with transaction.atomic():
        game, _rows = _new_game(
            evening=evening,
            user=user,
            house_rules=dict(house_rules),
            events=events,
            result=result,
            record=renamed,
        )
    return ImportOutcome(index=index, imported=True, game=game)


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
    outcomes = []
    # One transaction for the call, a savepoint per record: a refused or failing
    # record undoes only itself, and the import commits once (a commit per record
    # was most of an import's time: each waits for the disk). The evening stays
    # locked for the call, so a game started meanwhile waits for it. The projections
    # are asked for once, after the commit: one run applies every imported game.
    with projection_requests_deferred(), transaction.atomic():
        _lock_evening(evening)
        for index, item in enumerate(records):
            outcomes.append(_import_record(evening, user, index, item, resolve, house_rules))
    return outcomes


def _import_record(
    evening: Evening,
    user: Any,
    index: int,
    item: Any,
    resolve: Callable[[str, str | None], Player | None],
    house_rules: dict[str, Any],
) -> ImportOutcome:
    """One record of ``games_import``, in its own savepoint (the caller holds the
    evening's row lock, which keeps game numbers in order against a concurrent start)."""
    with transaction.atomic():
        return _import_one(
            evening=evening,
            user=user,
            index=index,
            item=item,
            resolve=resolve,
            house_rules=house_rules,
        )


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
    stored = sql.idempotency_get(user_id=user.pk, key=key)
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
    sql.idempotency_put(
        user_id=user.pk,
        key=key,
        fingerprint=fingerprint,
        status=status,
        body=body,
        at=timezone.now(),
    )
    return IdempotentAnswer(status=status, body=body, replayed=False)


@contextmanager
def game_locked_with_role(
    *, game_id: int, user: Any, key: str | None = None
) -> Iterator[sql.LockedGame | None]:
    """A transaction holding the game's row lock, with what an append needs to know first.

    Yields ``sql.LockedGame`` (the game as ``game_lock`` reads it, ``user``'s
    role in its club, the evening's players' names, and the fingerprint stored
    for ``key`` if any), or None for an unknown game or a user who is not a
    member of its club (who locks nothing). One statement takes
    the lock and reads it all (``games.sql``). Whatever the block raises (a
    refusal, a conflict, an engine error) rolls the transaction back, which also
    releases the lock.
    """
    with transaction.atomic():
        yield sql.game_lock_with_role(game_id=game_id, user_id=user.pk, key=key)


def idempotent_append(
    *,
    locked: sql.LockedGame,
    user: Any,
    key: str | None,
    fingerprint: str,
    work: Callable[[], tuple[int, Any]],
) -> IdempotentAnswer:
    """``idempotent_call`` for an append inside ``game_locked_with_role``'s transaction.

    ``work`` appends and writes the key's answer with the events
    (``game_events_record(answer=...)``). The key was looked up by the locking
    statement itself (``locked.key_fingerprint``). That look saw the database as
    it was when the statement began: if the key's original request committed
    while this one waited for the lock, the game has moved on and ``work``
    raises ``StaleSequence``; the key is then looked up again and its stored
    answer returned. A different request under a key stored meanwhile (by an
    append to another game) fails on the key's unique constraint: the whole
    transaction is rolled back and the key reported as reused.
    """
    if key is None:
        status, body = work()
        return IdempotentAnswer(status=status, body=body, replayed=False)
    if locked.key_fingerprint is not None:
        stored = idempotency_lookup(user=user, key=key, fingerprint=fingerprint)
        if stored is not None:
            return _replayed(stored)
    try:
        status, body = work()
    except StaleSequence:
        stored = idempotency_lookup(user=user, key=key, fingerprint=fingerprint)
        if stored is not None:
            return _replayed(stored)
        raise
    except IntegrityError as error:
        if sql.is_key_conflict(error):
            raise _key_reused() from None
        raise
    return IdempotentAnswer(status=status, body=body, replayed=False)


def _replayed(stored: IdempotencyRecord) -> IdempotentAnswer:
    return IdempotentAnswer(status=stored.response_status, body=stored.response_body, replayed=True)


def game_lock(*, game: Game) -> Game:
    """Lock the game row (inside the caller's transaction) and read it afresh.

    The row lock serialises appends to one game: of two scorers who both saw
    seq 7, the second waits here and then sees last_seq 8, so he gets a 409
    instead of both appending seq 8 (the unique (game, seq) is the last guard).
    Only the game row is locked (``of``); its evening and club (an append checks
    the evening is open and names the club's players) come in the same query.
    """
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("evening", "evening__club")
        .get(pk=game.pk)
    )


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
        )
