"""Tournaments (Turnier): participants, series, the tables of a series and their prizes.

Models hold data and constraints only; every write goes through
``tournaments.services`` and every read used by views through
``tournaments.selectors``.

Nothing of the recording lives here: each table of a series is an ordinary
``games.Evening`` (the tournament's season and rules, the table's players seated),
which ``TournamentTable.evening`` links to. Points are that evening's ledger entries.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, GameKind, Player, RuleProfile, Season
from games.models import Evening


class Tournament(models.Model):
    """A tournament of a club: several tables at once, played in series, one ranking."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="tournaments", verbose_name=_("club")
    )
    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, related_name="tournaments", verbose_name=_("season")
    )
    name = models.CharField(_("name"), max_length=100)
    game_kind = models.CharField(_("game"), max_length=12, choices=GameKind.choices)
    date = models.DateField(_("date"))
    series_count = models.PositiveSmallIntegerField(_("series"))
    deals_per_series = models.PositiveSmallIntegerField(_("deals per table and series"))
    rule_profile = models.ForeignKey(
        RuleProfile,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("house rules"),
    )
    entry_fee = models.BigIntegerField(_("entry fee"), default=0)
    # [{"amount": 2500} | {"percent": 50}, ...]: place 1 first (``ranking.Prize``).
    prizes = models.JSONField(_("prize list"), default=list, blank=True)
    # The draw's seed, shown on the pages: anyone can repeat every draw with it.
    seed = models.CharField(_("seed"), max_length=64)
    # Who holds the pot: entry fees are owed to him and prizes paid by him.
    cashier = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments_cashed",
        verbose_name=_("cashier"),
    )
    status = models.CharField(
        _("status"), max_length=6, choices=Status.choices, default=Status.OPEN
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments_created",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    # The final ranking as it stood at the close (``selectors.ranking`` rows): prizes
    # follow it, so a correction after the close changes no prize.
    final_ranking = models.JSONField(_("final ranking"), null=True, blank=True)

    class Meta:
        ordering = ["club_id", "-date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(entry_fee__gte=0), name="tournaments_fee_not_negative"
            ),
            models.CheckConstraint(
                condition=models.Q(series_count__gte=1, deals_per_series__gte=1),
                name="tournaments_at_least_one_series_and_deal",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class Participant(models.Model):
    """A player in a tournament with his start number, which never changes.

    A participant who leaves keeps his row (``left_at``) and his number; coming back
    he gets the same number again.
    """

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="participants",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
        verbose_name=_("player"),
    )
    start_number = models.PositiveSmallIntegerField(_("start number"))
    joined_at = models.DateTimeField(_("joined at"), default=timezone.now)
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "start_number"]
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "start_number"], name="tournaments_unique_start_number"
            ),
            models.UniqueConstraint(
                fields=["tournament", "player"], name="tournaments_unique_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.start_number}: {self.player_id}"

    @property
    def is_active(self) -> bool:
        return self.left_at is None


class Series(models.Model):
    """One series (Serie): a draw, then a fixed number of deals at each table.

    Drawn as a proposal (``DRAWN``: tables and byes shown, nothing to play yet), then
    confirmed (``CONFIRMED``: each table's evening opened).
    """

    class Status(models.TextChoices):
        DRAWN = "drawn", _("drawn")
        CONFIRMED = "confirmed", _("confirmed")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="series", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAWN
    )
    seeding = models.CharField(_("seeding"), max_length=16)
    leftover = models.CharField(_("players left over"), max_length=16)
    # The organiser's table size (None: the smallest the game allows).
    table_size = models.PositiveSmallIntegerField(_("table size"), null=True, blank=True)
    # Start numbers of those sitting this series out (Freilos).
    byes = models.JSONField(_("byes"), default=list, blank=True)
    drawn_at = models.DateTimeField(_("drawn at"), default=timezone.now)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournaments_unique_series_number"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} / {self.number}"


class TournamentTable(models.Model):
    """A table of a series: its seats (start numbers, seat 1 first) and, once the
    series is confirmed, the ordinary evening its deals are recorded in."""

    series = models.ForeignKey(
        Series, on_delete=models.CASCADE, related_name="tables", verbose_name=_("series")
    )
    number = models.PositiveSmallIntegerField(_("table"))
    seats = models.JSONField(_("seats"), default=list)
    evening = models.OneToOneField(
        Evening,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_table",
        verbose_name=_("evening"),
    )
    closed_at = models.DateTimeField(_("sheet closed at"), null=True, blank=True)

    class Meta:
        ordering = ["series_id", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(
                fields=["series", "number"], name="tournaments_unique_table_number"
            )
        ]

    def __str__(self) -> str:
        return f"{self.series} / {self.number}"


class SheetConfirmation(models.Model):
    """A participant at a table agreeing to its sheet; when all have, the sheet closes."""

    table = models.ForeignKey(
        TournamentTable,
        on_delete=models.CASCADE,
        related_name="confirmations",
        verbose_name=_("table"),
    )
    participant = models.ForeignKey(
        Participant,
        on_delete=models.CASCADE,
        related_name="confirmations",
        verbose_name=_("participant"),
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), default=timezone.now)

    class Meta:
        ordering = ["table_id", "participant_id"]
        verbose_name = _("sheet confirmation")
        verbose_name_plural = _("sheet confirmations")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "participant"], name="tournaments_confirm_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table_id}: {self.participant_id}"


class TournamentLink(models.Model):
    """A read-only link to the live ranking, for a screen in the room (no login)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="links", verbose_name=_("tournament")
    )
    key = models.CharField(_("key"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "-created_at"]
        verbose_name = _("ranking link")
        verbose_name_plural = _("ranking links")

    def __str__(self) -> str:
        return f"{self.tournament_id} ({'revoked' if self.revoked_at else 'open'})"
