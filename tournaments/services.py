"""Writes of the tournaments app: keyword-only functions, each one transaction.

They raise Django's ``ValidationError`` for input a user can get wrong (400) and
``TournamentConflict`` for a step out of order (409): a draw while a series is
still played, a change to a closed tournament. Permission is checked by the
caller (organisers are the club's admins; see ``tournaments.access``).

Each table of a confirmed series is opened through ``games.services.evening_create``
and its sheet closed through ``games.services.evening_close``: the recording
itself is the games app's, written once.
"""

from __future__ import annotations

import contextlib
import datetime
import secrets
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club, GameKind, Player, RuleProfile, Season
from clubs.services import season_create
from games.errors import EveningClosed
from games.services import evening_close, evening_create
from ledger.services import ledger_book_prizes
from live.push import evening_changed_push
from tournaments import draw as drawing
from tournaments import ranking, selectors
from tournaments.models import (
    Participant,
    Series,
    SheetConfirmation,
    Tournament,
    TournamentLink,
    TournamentTable,
)
from tournaments.push import tournament_changed_push

MAX_SERIES = 20
MAX_DEALS = 200


class TournamentConflict(Exception):
    """A step that does not fit the tournament's state now (answered 409)."""


def _lock(tournament: Tournament) -> Tournament:
    """The tournament's row locked: draws, joins and the close go one at a time."""
    return (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .get(pk=tournament.pk)
    )


def _check_open(tournament: Tournament) -> None:
    if not tournament.is_open:
        raise TournamentConflict(_("This tournament is closed."))


def _clean_prizes(prizes: Any) -> list[dict[str, int]]:
    if not isinstance(prizes, list) or len(prizes) > 100:
        raise ValidationError({"prizes": _("The prize list must be a list of places.")})
    cleaned: list[dict[str, int]] = []
    for prize in prizes:
        if not isinstance(prize, dict) or len(prize) != 1:
            raise ValidationError(
                {"prizes": _("Each prize is either an amount or a percent of the pot.")}
            )
        ((key, value),) = prize.items()
        if key not in ("amount", "percent") or type(value) is not int or value <= 0:
            raise ValidationError(
                {"prizes": _("Each prize is either an amount or a percent of the pot.")}
            )
        if key == "percent" and value > 100:
            raise ValidationError({"prizes": _("A share of the pot is at most 100 percent.")})
        cleaned.append({key: value})
    if sum(p.get("percent", 0) for p in cleaned) > 100:
        raise ValidationError(
            {"prizes": _("The shares of the pot add up to more than 100 percent.")}
        )
    return cleaned


@transaction.atomic
def tournament_create(
    *,
    club: Club,
    user: Any,
    name: str,
    game_kind: str,
    series_count: int,
    deals_per_series: int,
    season: Season | None = None,
    rule_profile: RuleProfile | None = None,
    entry_fee: int = 0,
    prizes: Any = (),
    cashier: Player | None = None,
    date: datetime.date | None = None,
    seed: str = "",
    players: Sequence[int] = (),
) -> Tournament:
    """Set up a tournament of ``club``; ``players`` get start numbers 1, 2, ... in that order.

    Without ``season`` the tournament counts in the club's open season of the game,
    or, when there is none, in a season of its own opened for it. Without ``seed`` a
    random one is chosen (and stored: every draw can be repeated with it).
    """
    errors: dict[str, str] = {}
    name = " ".join(str(name).split())
    if not name:
        errors["name"] = _("A tournament needs a name.")
    if game_kind not in GameKind.values:
        errors["game_kind"] = _("Unknown game.")
    if not 1 <= series_count <= MAX_SERIES:
        errors["series_count"] = _("Between 1 and %(n)d series.") % {"n": MAX_SERIES}
    if not 1 <= deals_per_series <= MAX_DEALS:
        errors["deals_per_series"] = _("Between 1 and %(n)d deals.") % {"n": MAX_DEALS}
    if type(entry_fee) is not int or entry_fee < 0:
        errors["entry_fee"] = _("The entry fee is a whole number, zero or more.")
    elif entry_fee > 0 and cashier is None:
        errors["cashier"] = _("With an entry fee someone must hold the pot.")
    if cashier is not None and cashier.club_id != club.pk:
        errors["cashier"] = _("This player belongs to another club.")
    if season is not None and (season.club_id != club.pk or season.game_kind != game_kind):
        errors["season"] = _("This season is not one of this club for this game.")
    elif season is not None and not season.is_open:
        errors["season"] = _("This season is closed.")
    if rule_profile is not None and (
        rule_profile.club_id != club.pk or rule_profile.game_kind != game_kind
    ):
        errors["rule_profile"] = _("This rule profile is not one of this club for this game.")
    if len(seed) > 64:
        errors["seed"] = _("The seed is at most 64 characters.")
    if errors:
        raise ValidationError(errors)
    prize_list = _clean_prizes(list(prizes))
    if any("amount" in p for p in prize_list) and entry_fee == 0 and cashier is None:
        raise ValidationError({"cashier": _("Someone must hold the prize money.")})
    date = date or timezone.localdate(timezone=club.zone)
    if season is None:
        season = Season.objects.filter(club=club, game_kind=game_kind, status="open").first()
        if season is None:
            season = season_create(
                club=club, name=name, game_kind=game_kind, start=date, rule_profile=rule_profile
            )
    tournament = Tournament.objects.create(
        club=club,
        season=season,
        name=name,
        game_kind=game_kind,
        date=date,
        series_count=series_count,
        deals_per_series=deals_per_series,
        rule_profile=rule_profile,
        entry_fee=entry_fee,
        prizes=prize_list,
        cashier=cashier,
        seed=seed or secrets.token_hex(8),
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    for player_id in players:
        _join(tournament, _club_player(club, player_id))
    return tournament


def _club_player(club: Club, player_id: int) -> Player:
    player = Player.objects.filter(club=club, pk=player_id).first()
    if player is None:
        raise ValidationError(
            {"player": _("No such player in this club: %(id)s.") % {"id": player_id}}
        )
    return player


def _open_series(tournament: Tournament) -> Series | None:
    """The latest series when some table of it still plays (or it is only drawn)."""
    latest = tournament.series.order_by("-number").first()
    if latest is None:
        return None
    if latest.status == Series.Status.DRAWN:
        return latest
    if latest.tables.filter(closed_at__isnull=True).exists():
        return latest
    return None


def _drop_proposal(tournament: Tournament) -> None:
    """A join or leave makes a drawn, unconfirmed series stale: it is drawn again."""
    Series.objects.filter(tournament=tournament, status=Series.Status.DRAWN).delete()


def _join(tournament: Tournament, player: Player) -> Participant:
    existing = Participant.objects.filter(tournament=tournament, player=player).first()
    if existing is not None:
        if existing.is_active:
            raise ValidationError({"player": _("This player takes part already.")})
        existing.left_at = None
        existing.joined_at = timezone.now()
        existing.save(update_fields=["left_at", "joined_at"])
        return existing
    highest = tournament.participants.aggregate(n=Max("start_number"))["n"] or 0
    return Participant.objects.create(
        tournament=tournament, player=player, start_number=highest + 1
    )


@transaction.atomic
def participant_join(*, tournament: Tournament, player: Player) -> Participant:
    """Add ``player`` (a member or a guest of the club) to the tournament, from the next
    draw on. He gets the next free start number, or his old one if he left before."""
    tournament = _lock(tournament)
    _check_open(tournament)
    if player.club_id != tournament.club_id:
        raise ValidationError({"player": _("No such player in this club.")})
    _drop_proposal(tournament)
    tournament_changed_push(tournament.pk)
    return _join(tournament, player)


@transaction.atomic
def participant_leave(*, tournament: Tournament, participant: Participant) -> Participant:
    """The participant leaves between series: he is drawn no more; his points stay.

    Refused (409) while he sits at a table of a series still played.
    """
    tournament = _lock(tournament)
    _check_open(tournament)
    participant = Participant.objects.get(pk=participant.pk, tournament=tournament)
    if not participant.is_active:
        raise ValidationError({"participant": _("This participant has left already.")})
    playing = _open_series(tournament)
    if playing is not None and playing.status == Series.Status.CONFIRMED:
        for table in playing.tables.filter(closed_at__isnull=True):
            if participant.start_number in table.seats:
                raise TournamentConflict(
                    _("Start number %(n)d still plays at table %(t)d: leave after the series.")
                    % {"n": participant.start_number, "t": table.number}
                )
    _drop_proposal(tournament)
    participant.left_at = timezone.now()
    participant.save(update_fields=["left_at"])
    tournament_changed_push(tournament.pk)
    return participant


@transaction.atomic
def series_draw(
    *,
    tournament: Tournament,
    seeding: str = drawing.Seeding.RANDOM,
    leftover: str = drawing.Leftover.BYE,
    table_size: int | None = None,
) -> Series:
    """Draw the next series as a proposal (tables, seats, byes), replacing an earlier
    proposal of it. The first series is always drawn at random; later ones by
    ``seeding``. ``table_size``: the organiser's size of a table (Fuchsen 4, 5 or 6),
    those left over handled by ``leftover``. Nothing is opened until ``series_confirm``.

    Refused (409) while a series is still played, after the last series, or when the
    tournament is closed; (400) with too few participants for one table.
    """
    tournament = _lock(tournament)
    _check_open(tournament)
    try:
        seeding_choice = drawing.Seeding(seeding)
    except ValueError:
        raise ValidationError({"seeding": _("Unknown seeding.")}) from None
    try:
        leftover_choice = drawing.Leftover(leftover)
    except ValueError:
        raise ValidationError(
            {"leftover": _("Unknown choice for the players left over.")}
        ) from None
    low, high = drawing.TABLE_SIZES[tournament.game_kind]
    if table_size is not None and not low <= table_size <= high:
        raise ValidationError(
            {
                "table_size": _("%(game)s is played by %(low)d to %(high)d at a table.")
                % {"game": GameKind(tournament.game_kind).label, "low": low, "high": high}
            }
        )
    playing = _open_series(tournament)
    if playing is not None and playing.status == Series.Status.CONFIRMED:
        raise TournamentConflict(
            _("Series %(n)d is still played: every table's sheet must be closed first.")
            % {"n": playing.number}
        )
    _drop_proposal(tournament)
    number = (tournament.series.aggregate(n=Max("number"))["n"] or 0) + 1
    if number > tournament.series_count:
        raise TournamentConflict(_("All series of this tournament have been drawn."))
    if number == 1:
        seeding_choice = drawing.Seeding.RANDOM
    active = list(
        tournament.participants.filter(left_at__isnull=True).values_list("start_number", flat=True)
    )
    history = selectors.draw_history(tournament=tournament)
    standing = (
        [row.start_number for row in selectors.ranking(tournament=tournament).rows]
        if number > 1 and seeding_choice is not drawing.Seeding.RANDOM
        else []
    )
    try:
        result = drawing.draw_series(
            players=active,
            game=tournament.game_kind,
            seed=tournament.seed,
            series=number,
            leftover=leftover_choice,
            table_size=table_size,
            seeding=seeding_choice,
            standing=standing,
            byes_so_far=history.byes,
            met=history.met,
        )
    except drawing.DrawError:
        raise ValidationError({"participants": _("Too few participants for one table.")}) from None
    series = Series.objects.create(
        tournament=tournament,
        number=number,
        seeding=seeding_choice.value,
        leftover=leftover_choice.value,
        table_size=table_size,
        byes=list(result.byes),
    )
    TournamentTable.objects.bulk_create(
        TournamentTable(series=series, number=index, seats=list(seats))
        for index, seats in enumerate(result.tables, start=1)
    )
    tournament_changed_push(tournament.pk)
    return series


@transaction.atomic
def series_confirm(*, series: Series, user: Any) -> Series:
    """Confirm a drawn series: each table's evening is opened with its players seated
    in the drawn order, in the tournament's season and under its rules."""
    tournament = _lock(series.tournament)
    _check_open(tournament)
    series = Series.objects.select_for_update().get(pk=series.pk)
    if series.status != Series.Status.DRAWN:
        raise TournamentConflict(_("This series has been confirmed already."))
    players = dict(tournament.participants.values_list("start_number", "player_id"))
    for table in series.tables.order_by("number"):
        table.evening = evening_create(
            club=tournament.club,
            user=user,
            season=tournament.season,
            players=[players[n] for n in table.seats],
            game_kind=tournament.game_kind,
            date=tournament.date,
            place=_("%(name)s, series %(s)d, table %(t)d")
            % {"name": tournament.name, "s": series.number, "t": table.number},
            rule_profile=tournament.rule_profile,
        )
        table.save(update_fields=["evening"])
    series.status = Series.Status.CONFIRMED
    series.confirmed_at = timezone.now()
    series.save(update_fields=["status", "confirmed_at"])
    tournament_changed_push(tournament.pk)
    return series


@transaction.atomic
def sheet_confirm(
    *, table: TournamentTable, participant: Participant, user: Any
) -> TournamentTable:
    """``participant`` agrees to the table's sheet. When every participant at the table
    has, the sheet is closed ("Liste abgeschlossen") and the table's evening with it.

    Refused (409) while deals remain to be played or a game is still in progress;
    (400) for a participant not seated at the table. Confirming twice changes nothing.
    """
    # ``of=("self",)``: the evening is joined on its nullable key (an outer join),
    # which PostgreSQL cannot lock; the table's row is the lock that matters.
    table = (
        TournamentTable.objects.select_for_update(of=("self",))
        .select_related("evening", "series")
        .get(pk=table.pk)
    )
    if table.evening is None:
        raise TournamentConflict(_("This series has not been confirmed yet."))
    if participant.start_number not in table.seats or (
        participant.tournament_id != table.series.tournament_id
    ):
        raise ValidationError({"participant": _("This participant does not sit at this table.")})
    if table.closed_at is not None:
        return table
    sheet = selectors.sheet(table=table)
    if sheet.in_progress:
        raise TournamentConflict(_("A game of this table is still in progress."))
    if sheet.to_play > 0:
        raise TournamentConflict(
            ngettext(
                "%(n)d deal is still to be played at this table.",
                "%(n)d deals are still to be played at this table.",
                sheet.to_play,
            )
            % {"n": sheet.to_play}
        )
    SheetConfirmation.objects.get_or_create(
        table=table,
        participant=participant,
        defaults={"confirmed_by": user if getattr(user, "is_authenticated", False) else None},
    )
    confirmed = SheetConfirmation.objects.filter(table=table).count()
    if confirmed == len(table.seats):
        table.closed_at = timezone.now()
        table.save(update_fields=["closed_at"])
        # Closed by hand already: the sheet closes all the same.
        with contextlib.suppress(EveningClosed):
            evening_close(evening=table.evening, user=user)
    evening_changed_push(table.evening.pk)
    return table


@transaction.atomic
def tournament_close(*, tournament: Tournament, user: Any) -> Tournament:
    """Close the tournament: the final ranking and its prizes are frozen as they stand.

    Refused (409) while a series is drawn or played, or when it is closed already.
    The prizes less the entry fees are booked into the ledger (``ledger_book_prizes``),
    the pot's holder taking the fees and paying the prizes; they count in the season's
    balances like an evening's results. A correction made afterwards (an evening
    reopened by an admin, on its change log) moves the live ranking, never a prize.
    """
    tournament = _lock(tournament)
    _check_open(tournament)
    if _open_series(tournament) is not None:
        raise TournamentConflict(_("A series is still drawn or played: close its sheets first."))
    standing = selectors.ranking(tournament=tournament)
    prizes = [ranking.Prize(**p) for p in tournament.prizes]
    won = ranking.award(standing.rows, prizes, standing.pot)
    tournament.final_ranking = {
        "pot": standing.pot,
        "rows": [
            {
                "place": row.place,
                "start_number": row.start_number,
                "player_id": standing.players[row.start_number].pk,
                "name": standing.players[row.start_number].display_name,
                "total": row.total,
                "best_series": row.best_series,
                "by_series": {str(k): v for k, v in row.by_series.items()},
                "prize": won.get(row.start_number, 0),
            }
            for row in standing.rows
        ],
    }
    booked = _prize_amounts(tournament, standing, won)
    tournament.final_ranking["booked"] = {str(k): v for k, v in booked.items()}
    ledger_book_prizes(club=tournament.club, season=tournament.season, amounts=booked)
    tournament.status = Tournament.Status.CLOSED
    tournament.closed_at = timezone.now()
    tournament.save(update_fields=["final_ranking", "status", "closed_at"])
    tournament_changed_push(tournament.pk)
    return tournament


def _prize_amounts(
    tournament: Tournament, standing: selectors.Standing, won: dict[int, int]
) -> dict[int, int]:
    """{player pk: amount} to book: each participant his prize less his entry fee; the
    pot's holder the fees taken in less the prizes paid out (so they sum to zero)."""
    amounts: dict[int, int] = {}
    for number, player in standing.players.items():
        amount = won.get(number, 0) - tournament.entry_fee
        amounts[player.pk] = amounts.get(player.pk, 0) + amount
    rest = -sum(amounts.values())
    if rest:
        # Validated at the set-up: a fee or a fixed prize needs a holder of the pot.
        assert tournament.cashier_id is not None
        amounts[tournament.cashier_id] = amounts.get(tournament.cashier_id, 0) + rest
    return amounts


@transaction.atomic
def ranking_link_create(*, tournament: Tournament) -> TournamentLink:
    """A read-only link to the live ranking (for a screen in the room)."""
    return TournamentLink.objects.create(tournament=tournament, key=secrets.token_urlsafe(16))


@transaction.atomic
def ranking_link_revoke(*, link: TournamentLink) -> TournamentLink:
    TournamentLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    link.refresh_from_db()
    return link
