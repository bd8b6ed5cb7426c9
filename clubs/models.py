"""Clubs, their members and roles, invitations, players, seasons and house-rule profiles.

Models hold data and constraints only; every write goes through
``clubs.services`` and every read used by views through ``clubs.selectors``.
"""

from __future__ import annotations

import hashlib
import zoneinfo
from datetime import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def validate_time_zone(value: str) -> None:
    """Accept only IANA zone names that this machine's zoneinfo knows."""
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValidationError(
            _("%(value)s is not a known time zone (e.g. Europe/Vienna)."),
            code="invalid_time_zone",
            params={"value": value},
        ) from None


class GameKind(models.TextChoices):
    """The two games a club records; the values are the engine's game names."""

    FUCHSEN = "fuchsen", _("Fuchsen")
    KOENIGRUFEN = "koenigrufen", _("Königrufen")


class Club(models.Model):
    class CurrencyUnit(models.TextChoices):
        CENT = "cent", _("Cent")
        POINTS = "points", _("Points")

    class CardFace(models.TextChoices):
        GERMAN = "german", _("German cards")
        FRENCH = "french", _("French cards")

    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="Europe/Vienna", validators=[validate_time_zone]
    )
    currency_unit = models.CharField(
        _("currency unit"), max_length=10, choices=CurrencyUnit.choices, default=CurrencyUnit.CENT
    )
    card_face = models.CharField(
        _("card faces"), max_length=10, choices=CardFace.choices, default=CardFace.GERMAN
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone)


class Role(models.TextChoices):
    """A member's role; ``RANK`` orders them, higher may do more."""

    OWNER = "owner", _("Owner")
    ADMIN = "admin", _("Admin")
    SCORER = "scorer", _("Scorer")
    MEMBER = "member", _("Member")


ROLE_RANK: dict[str, int] = {Role.MEMBER: 1, Role.SCORER: 2, Role.ADMIN: 3, Role.OWNER: 4}


def role_at_least(role: str, min_role: str) -> bool:
    """True when ``role`` ranks at least as high as ``min_role``."""
    return ROLE_RANK[role] >= ROLE_RANK[min_role]


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("user"),
    )
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined at"), default=timezone.now)

    class Meta:
        ordering = ["club_id", "user__username", "id"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "club"], name="clubs_membership_unique_user_club"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"


class Player(models.Model):
    """Someone who sits at a table: a member with an account, or a guest without one."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="players", verbose_name=_("club")
    )
    display_name = models.CharField(_("display name"), max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("user"),
    )
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["club_id", "display_name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            # "Anna" and "anna" at one table are the same person to the club.
            models.UniqueConstraint(
                "club", Lower("display_name"), name="clubs_player_unique_name_in_club"
            ),
            # One account is one player per club, or balances would split.
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="clubs_player_unique_user_in_club",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None


class Invitation(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("club")
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    token = models.CharField(_("token"), max_length=64, unique=True, editable=False)
    expires_at = models.DateTimeField(_("expires at"))
    player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invitations",
        verbose_name=_("guest player to claim"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="invitations_created",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invitations_accepted",
        verbose_name=_("accepted by"),
    )
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.club} ({self.role})"

    @property
    def is_accepted(self) -> bool:
        return self.accepted_at is not None

    def is_expired(self, now: datetime | None = None) -> bool:
        return (now or timezone.now()) >= self.expires_at


class Season(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=100)
    game_kind = models.CharField(_("game"), max_length=12, choices=GameKind.choices)
    start = models.DateField(_("start"))
    end = models.DateField(_("end"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=6, choices=Status.choices, default=Status.OPEN
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    rule_profile = models.ForeignKey(
        "RuleProfile",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seasons",
        verbose_name=_("house rules"),
        help_text=_("The house rules new games of this season start with."),
    )

    class Meta:
        ordering = ["club_id", "-start", "-id"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            # The service checks this first for a friendly message; the constraint
            # closes the race of two admins opening a season at the same moment.
            models.UniqueConstraint(
                fields=["club", "game_kind"],
                condition=models.Q(status="open"),
                name="clubs_season_one_open_per_club_and_game",
            ),
            models.CheckConstraint(
                condition=models.Q(end__isnull=True) | models.Q(end__gte=models.F("start")),
                name="clubs_season_end_not_before_start",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_game_kind_display()})"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class RuleProfile(models.Model):
    """A named set of house-rule overrides for one game, validated by the engine."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="rule_profiles", verbose_name=_("club")
    )
    game_kind = models.CharField(_("game"), max_length=12, choices=GameKind.choices)
    name = models.CharField(_("name"), max_length=100)
    overrides = models.JSONField(_("overrides"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["club_id", "game_kind", "name", "id"]
        verbose_name = _("rule profile")
        verbose_name_plural = _("rule profiles")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "game_kind", "name"], name="clubs_ruleprofile_unique_name"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_game_kind_display()})"


class ApiToken(models.Model):
    """An API token of one device or app, stored as the SHA-256 digest of its key.

    The key itself is shown once, when the token is made (``clubs.services
    .api_token_create``); the database holds only the digest, so a copy of it
    logs no one in. A key is 32 random bytes, so a plain (unsalted, fast) digest
    is safe: nobody can guess keys to match one. A token ends when it expires, when
    its user revokes it (the row is deleted) or when his password changes.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("device"), max_length=100)
    digest = models.CharField(_("key digest"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    expires_at = models.DateTimeField(_("expires at"))

    class Meta:
        ordering = ["user_id", "-created_at", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        constraints = [
            models.UniqueConstraint(fields=["user", "name"], name="clubs_apitoken_one_per_device")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.user_id})"

    @staticmethod
    def digest_of(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()
