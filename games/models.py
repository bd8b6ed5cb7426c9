"""Evenings, their seats, games (one deal each) and the append-only event store.

Models hold data and constraints only; every write goes through
``games.services`` and every read used by views through ``games.selectors``.

A game's state is never stored: it is the replay of its events through the
engine. ``Game.status``/``result``/``last_seq`` are a cache the recording
service refreshes in the same transaction that appends events, and
``manage.py replay_all`` checks that cache against a fresh replay.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, GameKind, Player, RuleProfile, Season
from games.events import CURRENT_SCHEMA_VERSION, to_event
from stichbuch.append_only import AppendOnlyModel, AppendOnlyQuerySet


class Evening(models.Model):
    """One night of play at one table (Spielabend)."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="evenings", verbose_name=_("club")
    )
    # Same club and game kind as the evening: checked by the service.
    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, related_name="evenings", verbose_name=_("season")
    )
    game_kind = models.CharField(_("game"), max_length=12, choices=GameKind.choices)
    date = models.DateField(_("date"), help_text=_("The club's local date."))
    place = models.CharField(_("place"), max_length=100, blank=True, default="")
    rule_profile = models.ForeignKey(
        RuleProfile,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="evenings",
        verbose_name=_("house rules"),
    )
    status = models.CharField(
        _("status"), max_length=6, choices=Status.choices, default=Status.OPEN
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="evenings_created",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        ordering = ["club_id", "-date", "-id"]
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")

    def __str__(self) -> str:
        place = f", {self.place}" if self.place else ""
        return f"{self.date:%Y-%m-%d}{place} ({self.get_game_kind_display()})"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class EveningSeat(models.Model):
    """A player's seat at an evening's table; ``position`` orders seats clockwise.

    A player who leaves between games keeps his row with ``left_at`` set; if he
    comes back he gets a new row. Only active seats (``left_at`` null) must have
    distinct positions and players.
    """

    evening = models.ForeignKey(
        Evening, on_delete=models.CASCADE, related_name="seats", verbose_name=_("evening")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="evening_seats", verbose_name=_("player")
    )
    position = models.PositiveSmallIntegerField(_("position"))
    joined_at = models.DateTimeField(_("joined at"), default=timezone.now)
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)

    class Meta:
        ordering = ["evening_id", "position", "id"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "position"],
                condition=models.Q(left_at__isnull=True),
                name="games_seat_unique_active_position",
            ),
            models.UniqueConstraint(
                fields=["evening", "player"],
                condition=models.Q(left_at__isnull=True),
                name="games_seat_unique_active_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.evening_id}:{self.position}"

    @property
    def is_active(self) -> bool:
        return self.left_at is None


class Game(models.Model):
    """One deal (Spiel). Its house rules are a copy taken when it was started."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("in progress")
        FINISHED = "finished", _("finished")
        ANNULLED = "annulled", _("annulled")

    # PROTECT: a game's events are history; an evening with games is closed, not deleted.
    # No index of its own: the unique (evening, number) index leads with the evening.
    evening = models.ForeignKey(
        Evening,
        on_delete=models.PROTECT,
        related_name="games",
        verbose_name=_("evening"),
        db_index=False,
    )
    number = models.PositiveIntegerField(_("number"))
    game_kind = models.CharField(_("game"), max_length=12, choices=GameKind.choices)
    house_rules = models.JSONField(_("house rules"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.IN_PROGRESS
    )
    # The engine's result JSON for the stored events (a cache; replay_all checks it).
    result = models.JSONField(_("result"), default=dict, blank=True)
    # seq of the latest event; 0 while there is none. Compared with the client's
    # expected_seq under a row lock, so two scorers never append on the same state.
    last_seq = models.PositiveIntegerField(_("last sequence number"), default=0)
    # The effective deal's dealer (a cache of the events, for proposing the next dealer).
    dealer = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="games_dealt",
        verbose_name=_("dealer"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="games_created",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["evening_id", "number", "id"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "number"], name="games_game_unique_number_in_evening"
            )
        ]

    def __str__(self) -> str:
        return f"#{self.number} ({self.get_game_kind_display()}, {self.evening_id})"


class GameEventQuerySet(AppendOnlyQuerySet["GameEvent"]):
    noun = "game events"


class GameEvent(AppendOnlyModel):
    """One recorded event of a game's stream; unique ``(game, seq)``, append-only.

    Corrections are new events (``undo``, ``annul``, ``forfeit``), never edits.
    ``payload`` is the event object without its ``type``, in the shape of
    ``schema_version``; read it through ``as_event()``, which upcasts.
    """

    # No index of its own: the unique (game, seq) index leads with the game and serves
    # every lookup by game, and one index fewer is one insert fewer on every card.
    game = models.ForeignKey(
        Game,
        on_delete=models.PROTECT,
        related_name="events",
        verbose_name=_("game"),
        db_index=False,
    )
    seq = models.PositiveIntegerField(_("sequence number"))
    type = models.CharField(_("type"), max_length=32)
    payload = models.JSONField(_("payload"), default=dict, blank=True)
    schema_version = models.PositiveSmallIntegerField(
        _("schema version"), default=CURRENT_SCHEMA_VERSION
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="game_events_recorded",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now, editable=False)
    # NULL, not "": most events come without a key, and the ledger engineer's and the
    # API's contract is "nullable" (None = sent without an Idempotency-Key).
    idempotency_key = models.CharField(  # noqa: DJ001
        _("idempotency key"), max_length=255, null=True, blank=True
    )

    objects = GameEventQuerySet.as_manager()
    append_only_noun = "game events"
    append_only_one = "event"

    class Meta:
        ordering = ["game_id", "seq"]
        verbose_name = _("game event")
        verbose_name_plural = _("game events")
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="games_event_unique_game_seq"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="games_event_seq_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.seq} {self.type}"

    def as_event(self) -> dict[str, Any]:
        """The event object as the engine reads it (upcast to the current schema)."""
        return to_event(self.type, self.payload, self.schema_version)


class IdempotencyRecord(models.Model):
    """The first successful answer to a request sent with an ``Idempotency-Key``.

    A retry with the same user, key and request (``fingerprint``: sha256 of method,
    path and body) gets this answer back instead of doing the work twice.
    """

    # No index of its own: the unique (user, key) index leads with the user (an append
    # with a key stores one of these: one index fewer is one insert fewer).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="idempotency_records",
        verbose_name=_("user"),
        db_index=False,
    )
    key = models.CharField(_("key"), max_length=255)
    fingerprint = models.CharField(_("request fingerprint"), max_length=64)
    response_status = models.PositiveSmallIntegerField(_("response status"))
    response_body = models.JSONField(_("response body"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("idempotency record")
        verbose_name_plural = _("idempotency records")
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="games_idempotency_unique_key")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"
