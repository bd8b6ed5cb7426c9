"""The analysis of a game, stored at the game's last seq.

The engine computes it (``engine.analyse``, spec ``analysis.md``); this app only
stores its answer, the figures the engine's functions derive from it, and one row
per player with what the player's cards cost (for the player's page). A row whose
``seq`` is not the game's ``last_seq`` is out of date: the game changed after it
was analysed, and a new analysis is on its way.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from games.models import Game


class GameAnalysis(models.Model):
    """The engine's analysis of one game (at most one row per game)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("being computed")
        ANALYSED = "analysed", _("analysed")
        NOT_ANALYSABLE = "not_analysable", _("not analysable")
        TOO_COSTLY = "too_costly", _("too costly")

    game = models.OneToOneField(
        Game,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="analysis",
        verbose_name=_("game"),
    )
    # The game's last_seq this row was computed for (or is being computed for).
    seq = models.PositiveIntegerField(_("sequence number"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices)
    # The engine's reason when not analysable: invalid, hands_unknown, no_play, schurln.
    reason = models.CharField(_("reason"), max_length=20, blank=True, default="")
    # The engine's answer as it gave it (spec analysis.md, "The answer").
    answer = models.JSONField(_("answer"), default=dict, blank=True)
    # What the engine's functions derive from the answer (``analysis.derive.figures``).
    figures = models.JSONField(_("figures"), default=dict, blank=True)
    duration_ms = models.PositiveIntegerField(_("duration (ms)"), null=True, blank=True)
    # When the computation started (a pending row older than the time limit was lost).
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    analysed_at = models.DateTimeField(_("analysed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("analysis")
        verbose_name_plural = _("analyses")

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} at seq {self.seq}: {self.status}"


class PlayerCardFigures(models.Model):
    """What one player's cards of one analysed game were worth: how many he played
    with a choice, how many of those were best, and the Augen they gave away
    (Fuchsen; 0 in Königrufen). Written with the analysis, replaced with it."""

    analysis = models.ForeignKey(
        GameAnalysis, on_delete=models.CASCADE, related_name="players", verbose_name=_("analysis")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    cards = models.PositiveSmallIntegerField(_("cards with a choice"))
    best = models.PositiveSmallIntegerField(_("best cards"))
    augen_given = models.PositiveSmallIntegerField(_("Augen given away"))

    class Meta:
        verbose_name = _("player's cards in an analysis")
        verbose_name_plural = _("players' cards in analyses")
        constraints = [
            models.UniqueConstraint(
                fields=["analysis", "player"], name="analysis_player_once_per_game"
            )
        ]
        indexes = [models.Index(fields=["player"], name="analysis_player_idx")]

    def __str__(self) -> str:
        return f"player {self.player_id} in {self.analysis_id}: {self.best}/{self.cards} best"
