"""Reads of the clubs app: querysets with their joins set and a stable order."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from clubs.models import ApiToken, Club, Invitation, Membership, Player, Role, RuleProfile, Season


def club_list_for_user(*, user: Any) -> QuerySet[Club]:
    """The clubs ``user`` is a member of, by name."""
    return Club.objects.filter(memberships__user=user).order_by("name", "id")


def clubs_to_open_an_evening_in(*, user: Any) -> set[int]:
    """The ids of ``user``'s clubs where he may open an evening now: he scores there
    (or ranks higher) and the club has an open season."""
    return set(
        Membership.objects.filter(
            user=user,
            role__in=[Role.SCORER, Role.ADMIN, Role.OWNER],
            club__seasons__status=Season.Status.OPEN,
        ).values_list("club_id", flat=True)
    )


def membership_list(*, club: Club) -> QuerySet[Membership]:
    return (
        Membership.objects.filter(club=club)
        .select_related("user", "club")
        .order_by("user__username", "id")
    )


def membership_get(*, club: Club, membership_id: int) -> Membership:
    """Raise ``Membership.DoesNotExist`` if it is not a membership of ``club``."""
    return Membership.objects.select_related("user", "club").get(club=club, pk=membership_id)


def player_list(*, club: Club, active: bool | None = None) -> QuerySet[Player]:
    players = Player.objects.filter(club=club).select_related("user")
    if active is not None:
        players = players.filter(is_active=active)
    return players.order_by("display_name", "id")


def player_get(*, club: Club, player_id: int) -> Player:
    return Player.objects.select_related("user", "club").get(club=club, pk=player_id)


def invitation_list(*, club: Club, pending_only: bool = False) -> QuerySet[Invitation]:
    invitations = Invitation.objects.filter(club=club).select_related(
        "player", "created_by", "accepted_by", "club"
    )
    if pending_only:
        invitations = invitations.filter(accepted_at__isnull=True, expires_at__gt=timezone.now())
    return invitations.order_by("-created_at", "-id")


def invitation_get_by_token(*, token: str) -> Invitation:
    """Raise ``Invitation.DoesNotExist`` for an unknown token."""
    return Invitation.objects.select_related("club", "player").get(token=token)


def season_list(*, club: Club, game_kind: str | None = None) -> QuerySet[Season]:
    seasons = Season.objects.filter(club=club).select_related("rule_profile")
    if game_kind:
        seasons = seasons.filter(game_kind=game_kind)
    return seasons.order_by("-start", "-id")


def season_get(*, club: Club, season_id: int) -> Season:
    return Season.objects.select_related("club", "rule_profile").get(club=club, pk=season_id)


def rule_profile_list(*, club: Club, game_kind: str | None = None) -> QuerySet[RuleProfile]:
    profiles = RuleProfile.objects.filter(club=club)
    if game_kind:
        profiles = profiles.filter(game_kind=game_kind)
    return profiles.order_by("game_kind", "name", "id")


def rule_profile_get(*, club: Club, rule_profile_id: int) -> RuleProfile:
    return RuleProfile.objects.select_related("club").get(club=club, pk=rule_profile_id)


def api_token_list(*, user: Any) -> QuerySet[ApiToken]:
    """``user``'s API tokens that still work (not expired), the newest first."""
    return ApiToken.objects.filter(user=user, expires_at__gt=timezone.now()).order_by(
        "-created_at", "-id"
    )
