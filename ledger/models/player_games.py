"""Projections per game: each player's contribution, the game's facts, the all-time rows."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player, Season


class PlayerGame(models.Model):
    """One player's part in one finished game of a season, as projected.

    The game's contribution to every projection, per player: his payout and role
    (what the standings add up), the running net after it (the chart's point) and
    his rating after it (the rating's step; unchanged where the game could not be
    rated). Games are in ``(played_at, game_id)`` order; a game finished or changed
    out of that order rewrites the rows from it on (``ledger.services``). Every
    player in the game's payouts or among its active players has a row.
    """

    class Role(models.TextChoices):
        MACHER = "macher", _("Macher")
        PARTNER = "partner", _("partner")
        OPPONENT = "opponent", _("opponent")
        ALONE = "alone", _("every man for himself")
        OUT = "out", _("sat out")

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="+", verbose_name=_("season")
    )
    evening = models.ForeignKey(
        "games.Evening", on_delete=models.CASCADE, related_name="+", verbose_name=_("evening")
    )
    # No constraint: inserting a row must not take a share lock on the game's row,
    # which a recording transaction holds for update (the season's row is locked
    # by ``SeasonSeries`` anyway, and a finished game is never deleted).
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
        verbose_name=_("game"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    played_at = models.DateTimeField(_("played at"))
    payout = models.BigIntegerField(_("payout"))
    role = models.CharField(_("role"), max_length=8, choices=Role.choices)
    # The game's ``won`` as its result says (did the declaring side win; null: no
    # declaring side, or the result does not say): with the roles and payouts, what
    # the rating step needs, so games after a changed one are folded from their rows.
    won = models.BooleanField(_("declarers won"), null=True, blank=True)
    # The engine's contract and the game's value, as its result says (the statistics').
    contract = models.CharField(_("contract"), max_length=20, blank=True, default="")
    value = models.IntegerField(_("value"), null=True, blank=True)
    # Why the game ended, as its result says (``played_out``, ``fuchs_forgotten``, …),
    # and what ``engine.game_facts`` says of its record (``GameFacts``): Stilles Spiel
    # (the game's; null where it cannot apply), the player's chances to raise and the
    # raises he said (null where the raising was not recorded, or for one who sat out).
    reason = models.CharField(_("reason"), max_length=20, blank=True, default="")
    silent = models.BooleanField(_("Stilles Spiel"), null=True, blank=True)
    raise_chances = models.PositiveSmallIntegerField(_("chances to raise"), null=True, blank=True)
    raises = models.PositiveSmallIntegerField(_("raises said"), null=True, blank=True)
    rated = models.BooleanField(_("rated"))
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    ordinal = models.FloatField(_("ordinal"))
    net_after = models.BigIntegerField(_("net after the game"))

    class Meta:
        ordering = ["season_id", "played_at", "game_id", "player_id"]
        verbose_name = _("player's game")
        verbose_name_plural = _("players' games")
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="ledger_playergame_unique")
        ]
        indexes = [
            models.Index(fields=["season", "played_at", "game"], name="ledger_pg_season_order"),
            models.Index(
                fields=["season", "player", "played_at", "game"], name="ledger_pg_player_order"
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id}, player {self.player_id}: {self.payout:+d}"


class GameFacts(models.Model):
    """What ``engine.game_facts`` says of a finished game's record (``facts``: its
    ``to_dict()``, players as ids; null if the record is not a finished game), at the
    game's ``last_seq`` ``seq``.

    A cache of the events, as ``Game.result`` is: a game's events are append-only,
    so the same ``seq`` is the same record, and the projections read the facts here
    instead of replaying every game's events on a rebuild. A game whose ``seq`` moved
    on (or that has no row) is replayed once and its row replaced
    (``ledger.services``). ``rebuild_projections --refresh-facts`` replays them all.
    """

    # No constraint, as ``PlayerGame.game``: writing a row must not share-lock the
    # game's row a recording transaction holds for update.
    game = models.OneToOneField(
        "games.Game",
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        primary_key=True,
        related_name="+",
        verbose_name=_("game"),
    )
    evening = models.ForeignKey(
        "games.Evening", on_delete=models.CASCADE, related_name="+", verbose_name=_("evening")
    )
    seq = models.PositiveIntegerField(_("sequence number"))
    facts = models.JSONField(_("facts"), null=True, blank=True)

    class Meta:
        verbose_name = _("game's facts")
        verbose_name_plural = _("games' facts")

    def __str__(self) -> str:
        return f"game {self.game_id} at seq {self.seq}"


class AllTimeRow(models.Model):
    """One player's line in the club's all-time table of one game ("ewige Tabelle"):
    his season lines summed over every season of that game, kept as a projection
    (each change of a season table adds its difference here), so the table is read,
    not summed over every season on request. ``seasons``: those he played games in."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", verbose_name=_("club")
    )
    game_kind = models.CharField(_("game"), max_length=20)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    seasons = models.IntegerField(_("seasons"), default=0)
    net = models.BigIntegerField(_("net"), default=0)
    games = models.IntegerField(_("games"), default=0)
    wins = models.IntegerField(_("wins"), default=0)
    macher_games = models.IntegerField(_("games as Macher"), default=0)
    macher_wins = models.IntegerField(_("wins as Macher"), default=0)
    partner_games = models.IntegerField(_("games as partner"), default=0)
    # The all-time rating: openskill over every game of every season of the game, in
    # game order (his latest ``AllTimeGame`` row's); null until a game rated him.
    mu = models.FloatField(_("mu"), null=True, blank=True)
    sigma = models.FloatField(_("sigma"), null=True, blank=True)
    ordinal = models.FloatField(_("ordinal"), null=True, blank=True)
    rated = models.IntegerField(_("rated games"), default=0)

    class Meta:
        verbose_name = _("all-time line")
        verbose_name_plural = _("all-time lines")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "game_kind", "player"], name="ledger_all_time_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.club_id}/{self.game_kind}/{self.player_id}: {self.net}"


class AllTimeGame(models.Model):
    """A player's all-time rating right after one game that rated him: the step of
    the club's all-time rating of the game (``AllTimeRow``), kept per game so that a
    game changed out of order folds the games from it on only, as ``PlayerGame``
    does within a season. Folded from the seasons' ``PlayerGame`` rows, in
    ``(played_at, game_id)`` order over every season of the club's game."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", verbose_name=_("club")
    )
    game_kind = models.CharField(_("game"), max_length=20)
    # No constraint, as for ``PlayerGame.game``.
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
        verbose_name=_("game"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    played_at = models.DateTimeField(_("played at"))
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    ordinal = models.FloatField(_("ordinal"))

    class Meta:
        ordering = ["club_id", "game_kind", "played_at", "game_id", "player_id"]
        verbose_name = _("all-time rating step")
        verbose_name_plural = _("all-time rating steps")
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="ledger_alltimegame_unique")
        ]
        indexes = [
            models.Index(
                fields=["club", "game_kind", "played_at", "game"], name="ledger_atg_order"
            ),
            models.Index(
                fields=["club", "game_kind", "player", "played_at", "game"],
                name="ledger_atg_player_order",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id}, player {self.player_id}: {self.ordinal:.2f}"
