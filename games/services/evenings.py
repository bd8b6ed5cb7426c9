"""Evenings and their seats: open, close, reopen, delete, seat and unseat players."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import ProtectedError
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from clubs.models import Club, GameKind, Player, RuleProfile, Season
from games import listeners, selectors
from games.errors import (
    EveningClosed,
    EveningNotEmpty,
    EveningOpen,
)
from games.models import Evening, EveningSeat, Game

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
    date = date or timezone.localdate(timezone=club.zone)
    _check_date_in_season(season=season, date=date, club=club)
    _check_seat_count(game_kind, len(players))
    seated = _club_players(club, players, field_name="players")
    evening = Evening(
        club=club,
        season=season,
        game_kind=game_kind,
        date=date,
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


def _check_date_in_season(*, season: Season, date: datetime.date, club: Club) -> None:
    """An evening lies within its season: from its start to its end, or, while it has
    none, to tomorrow in the club's time zone (an evening typed in after midnight, a
    phone in another zone). The year 1 or 9999 is no evening of a season from 2020."""
    last = season.end or timezone.localdate(timezone=club.zone) + datetime.timedelta(days=1)
    if season.start <= date <= last:
        return
    raise ValidationError(
        {
            "date": _("An evening of the season %(season)s lies between %(first)s and %(last)s.")
            % {
                "season": season.name,
                "first": formats.date_format(season.start, "SHORT_DATE_FORMAT"),
                "last": formats.date_format(last, "SHORT_DATE_FORMAT"),
            }
        }
    )


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
    listeners.evening_closed_or_reopened(evening=evening, kind="closed", user=user)
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
    listeners.evening_closed_or_reopened(evening=evening, kind="reopened", user=user)
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
    refusal = _("Only an evening without games or payments can be deleted: close it instead.")
    if Game.objects.filter(evening=locked).exists():
        raise EveningNotEmpty(refusal)
    try:
        # What the apps above keep of an evening that must outlive it (payments, ledger
        # entries, settlement plans) refers to it ``on_delete=PROTECT``: Django refuses
        # before it deletes anything.
        locked.delete()
    except ProtectedError:
        raise EveningNotEmpty(refusal) from None


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


def evening_lock(*, evening: Evening) -> Evening:
    """Lock the evening row (inside the caller's transaction), refusing a closed evening."""
    return _lock_evening(evening)


def season_evenings_close(*, season: Season, user: Any | None = None) -> None:
    """Close the season's open evenings (each on its change log, by ``user``), inside
    the transaction that closes the season and holds its row lock
    (``clubs.services.season_close``, through ``games.club_listeners``)."""
    open_evenings = Evening.objects.filter(season_id=season.pk, status=Evening.Status.OPEN)
    for evening in open_evenings.order_by("pk").select_for_update(no_key=True):
        # Conditional, as ``evening_close``: a scorer's close at the same moment wins.
        if Evening.objects.filter(pk=evening.pk, status=Evening.Status.OPEN).update(
            status=Evening.Status.CLOSED, closed_at=timezone.now()
        ):
            listeners.evening_closed_or_reopened(evening=evening, kind="closed", user=user)
