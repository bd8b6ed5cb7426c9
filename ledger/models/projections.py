"""Projections: how a club ranks; a season's standings, ratings, series, checkpoint, outbox."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player, Season
from ledger.standings import DEFAULT_TIE_BREAK


def default_tie_break() -> list[str]:
    return list(DEFAULT_TIE_BREAK)


class StandingsConfig(models.Model):
    """How a club ranks its tables (see ``ledger.standings.StandingsConfig``)."""

    club = models.OneToOneField(
        Club, on_delete=models.CASCADE, related_name="standings_config", verbose_name=_("club")
    )
    min_games = models.PositiveIntegerField(
        _("minimum games"),
        default=0,
        help_text=_("Players with fewer games in a season stay unranked."),
    )
    tie_break = models.JSONField(
        _("tie-break order"),
        default=default_tie_break,
        help_text=_('Sort keys, most important first: "net", "per_game", "wins".'),
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("standings configuration")
        verbose_name_plural = _("standings configurations")

    def __str__(self) -> str:
        return f"{self.club_id}: min {self.min_games}, {'/'.join(self.tie_break)}"


class ProjectionState(models.Model):
    """The checkpoint of a season's projections, and the row their writes lock.

    ``version`` counts the changes to the season's inputs: every ledger sync
    that writes entries for one of its games (a game finished, taken back into
    play, annulled) and every change of the club's standings configuration
    adds one, in the same transaction as the change. ``computed_from`` is the
    version the stored projections were computed from (``None``: never).
    A season is *behind* while ``computed_from`` is not ``version``.

    Why a counter and not the newest entry id: ids are handed out at insert,
    not at commit, so a slower transaction can commit an entry with a smaller
    id after a projection already saw a larger one; the counter is bumped
    under this row's lock, so its committed value always covers exactly the
    committed changes.
    """

    season = models.OneToOneField(
        Season, on_delete=models.CASCADE, related_name="projection_state", verbose_name=_("season")
    )
    version = models.BigIntegerField(_("version"), default=0)
    computed_from = models.BigIntegerField(_("computed from version"), null=True, blank=True)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    games = models.PositiveIntegerField(_("finished games"), default=0)
    runs = models.PositiveIntegerField(_("recomputations"), default=0)

    class Meta:
        verbose_name = _("projection state")
        verbose_name_plural = _("projection states")

    def __str__(self) -> str:
        return f"season {self.season_id}: v{self.version}, computed from {self.computed_from}"

    @property
    def is_behind(self) -> bool:
        return self.computed_from != self.version


class StandingRow(models.Model):
    """One player's line in a season table (``evening`` null) or an evening table."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="standing_rows", verbose_name=_("season")
    )
    evening = models.ForeignKey(
        "games.Evening",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="standing_rows",
        verbose_name=_("evening"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="standing_rows", verbose_name=_("player")
    )
    position = models.PositiveIntegerField(_("position"))
    rank = models.PositiveIntegerField(_("rank"), null=True, blank=True)
    net = models.BigIntegerField(_("net"), default=0)
    games = models.PositiveIntegerField(_("games"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    win_pct = models.FloatField(_("win %"), default=0.0)
    per_game = models.FloatField(_("per game"), default=0.0)
    macher_games = models.PositiveIntegerField(_("games as Macher"), default=0)
    macher_wins = models.PositiveIntegerField(_("wins as Macher"), default=0)
    partner_games = models.PositiveIntegerField(_("games as partner"), default=0)

    class Meta:
        ordering = ["season_id", "evening_id", "position"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "player"],
                condition=models.Q(evening__isnull=True),
                name="ledger_standing_unique_season_player",
            ),
            models.UniqueConstraint(
                fields=["evening", "player"],
                condition=models.Q(evening__isnull=False),
                name="ledger_standing_unique_evening_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rank or '-'}. {self.player_id}: {self.net}"


class PlayerRating(models.Model):
    """A player's openskill rating after a season's games (his latest ``PlayerGame``
    row's), and how many games rated it."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("season")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("player")
    )
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    ordinal = models.FloatField(_("ordinal"))
    games = models.PositiveIntegerField(_("rated games"), default=0)

    # The history is not stored here (rewriting it would cost a game per game played):
    # ``ledger.selectors.rating_get`` sets it from the player's ``PlayerGame`` rows,
    # a list of ``[game_id, mu, sigma, ordinal]``, one per rated game, in game order.
    history: list[list[Any]]

    class Meta:
        ordering = ["season_id", "-ordinal", "player_id"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "player"], name="ledger_rating_unique_season_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.ordinal:.2f}"


class SeasonSeries(models.Model):
    """A season's head-to-head balances, and the row one projection run locks.

    ``head_to_head`` is ``ledger.series.head_to_head`` rounded for JSON;
    ``h2h_numerators`` keeps it exact as sums: ``{"a,b": {"total": n}}`` is the sum
    of the numerators of what ``a`` took from ``b`` over the games whose winnings
    came to ``total`` (``ledger.projections``), so a game changes it by adding or
    subtracting its own numerators. The running net per player (the chart) is not
    stored here: ``ledger.selectors.season_series_get`` sets ``cumulative`` from
    the ``PlayerGame`` rows.
    """

    season = models.OneToOneField(
        Season, on_delete=models.CASCADE, related_name="series", verbose_name=_("season")
    )
    head_to_head = models.JSONField(_("head to head"), default=dict)
    h2h_numerators = models.JSONField(_("head-to-head numerators"), default=dict)

    cumulative: dict[str, Any]

    class Meta:
        verbose_name = _("season series")
        verbose_name_plural = _("season series")

    def __str__(self) -> str:
        return f"series of season {self.season_id}"


class ProjectionChange(models.Model):
    """A change the season's projections have not taken in yet (an outbox row).

    Written in the transaction that changes the input: ``game_id`` for a game that
    finished, was taken back, annulled or changed its result (the ledger's sync),
    ``None`` for a change of the whole season (the club's ranking rules). A
    projection run takes the rows it finds, applies them and deletes them in one
    transaction, so every change is applied once.
    """

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="+", verbose_name=_("season")
    )
    game_id = models.BigIntegerField(_("game"), null=True, blank=True)

    class Meta:
        verbose_name = _("projection change")
        verbose_name_plural = _("projection changes")
        indexes = [models.Index(fields=["season"], name="ledger_change_season")]

    def __str__(self) -> str:
        return f"season {self.season_id}: game {self.game_id}"
