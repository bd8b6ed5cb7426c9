"""What the clubs API's views share: the 404 for a missing object, the output serializers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from django.urls import reverse
from rest_framework import serializers

from clubs.models import Club, Invitation, Membership, Player, RuleProfile, Season

T = TypeVar("T")


def get_or_404(getter: Callable[..., T], **kwargs: Any) -> T:
    """Call a selector's ``*_get``; a missing object (in this club) is a 404."""
    try:
        return getter(**kwargs)
    except ObjectDoesNotExist:
        raise Http404 from None


class ClubOutputSerializer(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["slug", "name", "time_zone", "currency_unit", "card_face", "created_at"]


class MembershipOutputSerializer(serializers.ModelSerializer[Membership]):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = Membership
        fields = ["id", "username", "role", "joined_at"]


class PlayerOutputSerializer(serializers.ModelSerializer[Player]):
    username = serializers.CharField(source="user.username", default=None, allow_null=True)

    class Meta:
        model = Player
        fields = ["id", "display_name", "username", "is_active", "is_guest"]


class InvitationOutputSerializer(serializers.ModelSerializer[Invitation]):
    club = serializers.CharField(source="club.slug")
    club_name = serializers.CharField(source="club.name")
    player = serializers.IntegerField(source="player_id", read_only=True, allow_null=True)
    player_name = serializers.CharField(source="player.display_name", default=None, allow_null=True)
    created_by = serializers.CharField(
        source="created_by.username",
        default=None,
        allow_null=True,
        read_only=True,
        help_text="The username of the member who made the link (null: his account is gone).",
    )
    accept_url = serializers.SerializerMethodField()
    is_expired = serializers.SerializerMethodField()

    class Meta:
        model = Invitation
        fields = [
            "id",
            "club",
            "club_name",
            "role",
            "token",
            "accept_url",
            "expires_at",
            "is_expired",
            "player",
            "player_name",
            "created_by",
            "created_at",
            "accepted_at",
        ]

    def get_accept_url(self, invitation: Invitation) -> str:
        return reverse("invitation-accept", kwargs={"token": invitation.token})

    def get_is_expired(self, invitation: Invitation) -> bool:
        return invitation.is_expired()


class InvitationPreviewSerializer(InvitationOutputSerializer):
    """What the invitee sees before accepting: no token of anyone else's, no ids."""

    class Meta(InvitationOutputSerializer.Meta):
        fields = ["club", "club_name", "role", "expires_at", "is_expired", "player_name"]


class SeasonOutputSerializer(serializers.ModelSerializer[Season]):
    class Meta:
        model = Season
        fields = ["id", "name", "game_kind", "start", "end", "status", "closed_at", "rule_profile"]


class RuleProfileOutputSerializer(serializers.ModelSerializer[RuleProfile]):
    class Meta:
        model = RuleProfile
        fields = ["id", "name", "game_kind", "overrides", "updated_at"]
