"""Clubs and their seasons: make and change a club; open, close and reopen a season."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs import listeners
from clubs.models import Club, GameKind, Membership, Role, RuleProfile, Season, validate_time_zone
from clubs.services.players import _player_for_member

# Slugs that would shadow a fixed URL under /clubs/ or /api/clubs/.
RESERVED_SLUGS = frozenset({"create", "new", "join", "admin", "api", "static"})


def _unique_slug(base: str) -> str:
    base = slugify(base)[:50] or "club"
    slug, n = base, 1
    while slug in RESERVED_SLUGS or Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def club_create(
    *,
    creator: Any,
    name: str,
    slug: str | None = None,
    time_zone: str = "Europe/Vienna",
    currency_unit: str = Club.CurrencyUnit.CENT,
    card_face: str = Club.CardFace.GERMAN,
) -> Club:
    """Create a club; its creator becomes its owner and one of its players."""
    if slug:
        if slug in RESERVED_SLUGS:
            raise ValidationError({"slug": _("This address is reserved.")})
        if Club.objects.filter(slug=slug).exists():
            raise ValidationError({"slug": _("This address is already taken.")})
    else:
        slug = _unique_slug(name)
    club = Club(
        name=name,
        slug=slug,
        time_zone=time_zone,
        currency_unit=currency_unit,
        card_face=card_face,
    )
    club.full_clean()
    club.save()
    Membership.objects.create(club=club, user=creator, role=Role.OWNER)
    _player_for_member(club=club, user=creator)
    return club


@transaction.atomic
def club_update(
    *,
    club: Club,
    name: str | None = None,
    time_zone: str | None = None,
    currency_unit: str | None = None,
    card_face: str | None = None,
) -> Club:
    """Change a club's settings; its slug (its address) never changes."""
    if name is not None:
        club.name = name
    if time_zone is not None:
        validate_time_zone(time_zone)
        club.time_zone = time_zone
    if currency_unit is not None:
        club.currency_unit = currency_unit
    if card_face is not None:
        club.card_face = card_face
    club.full_clean()
    club.save()
    return club


def _lock_club(club: Club) -> Club:
    # Role changes and season openings lock the club row, so two admins acting at
    # once are serialized: otherwise both could demote "the other" last owner.
    return Club.objects.select_for_update().get(pk=club.pk)


@transaction.atomic
def season_create(
    *,
    club: Club,
    name: str,
    game_kind: str,
    start: datetime.date,
    end: datetime.date | None = None,
    rule_profile: RuleProfile | None = None,
) -> Season:
    """Open a season. A club has at most one open season per game."""
    if game_kind not in GameKind.values:
        raise ValidationError({"game_kind": _("Unknown game.")})
    _lock_club(club)
    if Season.objects.filter(club=club, game_kind=game_kind, status=Season.Status.OPEN).exists():
        raise ValidationError(
            {"game_kind": _("This club already has an open season for this game: close it first.")}
        )
    if end is not None and end < start:
        raise ValidationError({"end": _("A season cannot end before it starts.")})
    _check_rule_profile_fits(club=club, game_kind=game_kind, rule_profile=rule_profile)
    season = Season(
        club=club,
        name=name,
        game_kind=game_kind,
        start=start,
        end=end,
        rule_profile=rule_profile,
    )
    season.full_clean()
    season.save()
    return season


def _check_rule_profile_fits(
    *, club: Club, game_kind: str, rule_profile: RuleProfile | None
) -> None:
    if rule_profile is None:
        return
    if rule_profile.club_id != club.pk:
        raise ValidationError({"rule_profile": _("This rule profile belongs to another club.")})
    if rule_profile.game_kind != game_kind:
        raise ValidationError({"rule_profile": _("This rule profile is for another game.")})


@transaction.atomic
def season_close(
    *, season: Season, end: datetime.date | None = None, user: Any | None = None
) -> Season:
    """Close an open season and, with it, its open evenings; its end defaults to today
    in the club's time zone.

    Nothing changes a closed season's figures: its evenings are closed here (each on
    its change log, by ``user``; games left in progress stay so, as at an evening's
    close) and stay closed (``evening_reopen`` refuses), and no evening opens in it
    (``evening_create`` refuses). The season's row is locked first, as those two lock
    it, then the evenings' rows: a recording that holds an evening's lock finishes
    before the evening is closed, and one that comes later finds it closed.
    """
    end = end or season.end or timezone.localdate(timezone=season.club.zone)
    if end < season.start:
        raise ValidationError({"end": _("A season cannot end before it starts.")})
    # ``no_key``: the projections' inserts that reference the season are not held up.
    locked = (
        Season.objects.select_for_update(no_key=True)
        .filter(pk=season.pk, status=Season.Status.OPEN)
        .first()
    )
    if locked is None:
        raise ValidationError(_("This season is already closed."))
    # The games app closes the season's open evenings (``games.services.evenings``).
    listeners.season_closing(season=locked, user=user)
    Season.objects.filter(pk=season.pk).update(
        status=Season.Status.CLOSED, end=end, closed_at=timezone.now()
    )
    season.refresh_from_db()
    return season


@transaction.atomic
def season_reopen(*, season: Season) -> Season:
    """Open a closed season again (closed by mistake, or a late evening to add): its
    end date is cleared, as the season goes on. Refused while another season of the
    same game is open (a club has at most one), or if it is open."""
    club = _lock_club(season.club)  # as ``season_create``: one open season per game
    if (
        Season.objects.filter(club=club, game_kind=season.game_kind, status=Season.Status.OPEN)
        .exclude(pk=season.pk)
        .exists()
    ):
        raise ValidationError(
            _("Another season of this game is open: close it before opening this one again.")
        )
    # Conditional update: of two concurrent reopens exactly one changes the row.
    changed = Season.objects.filter(pk=season.pk, status=Season.Status.CLOSED).update(
        status=Season.Status.OPEN, end=None, closed_at=None
    )
    if changed != 1:
        raise ValidationError(_("This season is open."))
    season.refresh_from_db()
    return season
