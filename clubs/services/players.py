"""A club's players: the names on the score sheet, and a member's own player."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Club, Membership, Player
from clubs.names import normalise_name


def _user_display_name(user: Any) -> str:
    return (user.get_full_name() or user.username)[:60]


def _check_display_name_free(
    *, club: Club, display_name: str, exclude_pk: int | None = None
) -> None:
    clash = Player.objects.filter(club=club, display_name__iexact=display_name)
    if exclude_pk is not None:
        clash = clash.exclude(pk=exclude_pk)
    if clash.exists():
        raise ValidationError({"display_name": _("This club already has a player of that name.")})


def _clean_display_name(display_name: str) -> str:
    try:
        return normalise_name(display_name)
    except ValidationError as error:
        raise ValidationError({"display_name": error.messages}) from None


@transaction.atomic
def player_create(*, club: Club, display_name: str, user: Any | None = None) -> Player:
    """Add a player: a guest (no ``user``) or the player of one of the club's members.

    The name is normalised and refused with invisible characters (``clubs.names``).
    """
    display_name = _clean_display_name(display_name)
    if not display_name:
        raise ValidationError({"display_name": _("A player needs a name.")})
    _check_display_name_free(club=club, display_name=display_name)
    if user is not None:
        if not Membership.objects.filter(club=club, user=user).exists():
            raise ValidationError({"user": _("Only a member of the club can be linked.")})
        if Player.objects.filter(club=club, user=user).exists():
            raise ValidationError({"user": _("This member already has a player.")})
    player = Player(club=club, display_name=display_name, user=user)
    player.full_clean()
    player.save()
    return player


@transaction.atomic
def players_create(*, club: Club, display_names: list[str]) -> list[Player]:
    """Add several guests at once (the table sitting down for the first evening): each
    as ``player_create`` adds one, all or none. A name twice in the list is refused as
    a name the club has already."""
    return [player_create(club=club, display_name=name) for name in display_names]


@transaction.atomic
def player_update(
    *, player: Player, display_name: str | None = None, is_active: bool | None = None
) -> Player:
    """Rename a player or (de)activate him; inactive players leave the pickers, not history."""
    if display_name is not None:
        display_name = _clean_display_name(display_name)
        if not display_name:
            raise ValidationError({"display_name": _("A player needs a name.")})
        _check_display_name_free(club=player.club, display_name=display_name, exclude_pk=player.pk)
        player.display_name = display_name
    if is_active is not None:
        player.is_active = is_active
    player.full_clean()
    player.save()
    return player


def _player_for_member(*, club: Club, user: Any) -> Player:
    """Make sure a member has a player in ``club``, named after the account."""
    existing = Player.objects.filter(club=club, user=user).first()
    if existing is not None:
        return existing
    base = _user_display_name(user)
    name, n = base, 1
    while Player.objects.filter(club=club, display_name__iexact=name).exists():
        n += 1
        name = f"{base} ({n})"
    return Player.objects.create(club=club, display_name=name, user=user)
