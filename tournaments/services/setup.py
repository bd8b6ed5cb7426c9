"""Setting up a tournament: its settings, prizes and season; participants joining and leaving."""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, GameKind, Player, RuleProfile, Season
from clubs.services import season_create
from tournaments.models import Participant, Series, Tournament
from tournaments.push import tournament_changed_push
from tournaments.services.common import (
    TournamentConflict,
    check_open,
    drop_proposal,
    lock,
    open_series,
)

MAX_SERIES = 20
MAX_DEALS = 200


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
    tournament = lock(tournament)
    check_open(tournament)
    if player.club_id != tournament.club_id:
        raise ValidationError({"player": _("No such player in this club.")})
    drop_proposal(tournament)
    tournament_changed_push(tournament.pk)
    return _join(tournament, player)


@transaction.atomic
def participant_leave(*, tournament: Tournament, participant: Participant) -> Participant:
    """The participant leaves between series: he is drawn no more; his points stay.

    Refused (409) while he sits at a table of a series still played.
    """
    tournament = lock(tournament)
    check_open(tournament)
    participant = Participant.objects.get(pk=participant.pk, tournament=tournament)
    if not participant.is_active:
        raise ValidationError({"participant": _("This participant has left already.")})
    playing = open_series(tournament)
    if playing is not None and playing.status == Series.Status.CONFIRMED:
        for table in playing.tables.filter(closed_at__isnull=True):
            if participant.start_number in table.seats:
                raise TournamentConflict(
                    _("Start number %(n)d still plays at table %(t)d: leave after the series.")
                    % {"n": participant.start_number, "t": table.number}
                )
    drop_proposal(tournament)
    participant.left_at = timezone.now()
    participant.save(update_fields=["left_at"])
    tournament_changed_push(tournament.pk)
    return participant
