"""The ledger (money: append-only entries, payments, settlement plans) and its projections.

Models hold data and constraints only; every write goes through
``ledger.services`` and every read used by views through ``ledger.selectors``.

Two kinds of tables live here:

- **The books** — ``LedgerEntry``, ``Payment``, ``SettlementPlan`` and
  ``SettlementTransfer``. Ledger entries are double-entry bookkeeping in
  integers (the club's unit: cents or points): every group of entries written
  together sums to zero, and an entry is never changed or deleted. A
  correction is a new entry (a reversal). So every balance — of an evening, a
  season, a club — is a plain ``SUM`` and always sums to zero across players.
- **Projections** — ``PlayerGame`` (each finished game's contribution, per
  player), ``StandingRow``, ``PlayerRating``, ``SeasonSeries``, their checkpoint
  ``ProjectionState`` and the outbox of changes not yet applied,
  ``ProjectionChange``. They are derived from the games' stored results by the
  Celery task in ``ledger.tasks``, game by game, and can be rebuilt at any time
  from the results alone (``manage.py rebuild_projections``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player, Season
from ledger.standings import DEFAULT_TIE_BREAK
from stichbuch.append_only import AppendOnlyModel, AppendOnlyQuerySet

# --- The books -----------------------------------------------------------------------


class Payment(models.Model):
    """Money handed from one player to another to settle a debt.

    The payer's balance goes up by ``amount`` (he owes less), the payee's down
    (he is owed less); the two ``LedgerEntry`` rows of kind ``payment`` say so.
    """

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="payments", verbose_name=_("club")
    )
    season = models.ForeignKey(
        Season,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="payments",
        verbose_name=_("season"),
    )
    evening = models.ForeignKey(
        "games.Evening",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="payments",
        verbose_name=_("evening"),
    )
    payer = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="payments_made", verbose_name=_("payer")
    )
    payee = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="payments_received",
        verbose_name=_("payee"),
    )
    amount = models.BigIntegerField(_("amount"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="payments_recorded",
        verbose_name=_("recorded by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    # A reversal ("Storno") is a payment of the same amount back, naming the payment it
    # undoes: one reversal per payment at most (one-to-one), and nothing is deleted.
    reverses = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversed_by",
        verbose_name=_("reverses"),
    )

    class Meta:
        ordering = ["club_id", "-created_at", "-id"]
        verbose_name = _("payment")
        verbose_name_plural = _("payments")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount__gt=0), name="ledger_payment_positive"
            ),
            models.CheckConstraint(
                condition=~models.Q(payer=models.F("payee")), name="ledger_payment_not_to_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.payer_id} → {self.payee_id}: {self.amount}"


class LedgerEntryQuerySet(AppendOnlyQuerySet["LedgerEntry"]):
    """Entries are appended, never changed: a change is a reversal entry."""

    noun = "ledger entries"


class LedgerEntry(AppendOnlyModel):
    """One line of the books: ``amount`` (integer, the club's unit) for ``player``.

    Positive means the player won / is owed, negative that he lost / owes.

    - ``result``: a game's payout to the player (``game`` set).
    - ``reversal``: cancels earlier result entries of ``game`` (an undo took the
      game back into play, an annulment, or a changed result).
    - ``payment``: one side of a ``Payment`` (``payment`` set).
    - ``prize``: a tournament's entry fee or prize (neither ``game`` nor ``payment``):
      written at the tournament's close by ``ledger.services.ledger_book_prizes``.

    ``season`` and ``evening`` are copied from the game (or the payment) so a
    balance is a single indexed ``SUM``.
    """

    class Kind(models.TextChoices):
        RESULT = "result", _("result")
        REVERSAL = "reversal", _("reversal")
        PAYMENT = "payment", _("payment")
        PRIZE = "prize", _("entry fee or prize")

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="ledger_entries", verbose_name=_("club")
    )
    season = models.ForeignKey(
        Season,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ledger_entries",
        verbose_name=_("season"),
    )
    evening = models.ForeignKey(
        "games.Evening",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ledger_entries",
        verbose_name=_("evening"),
    )
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ledger_entries",
        verbose_name=_("game"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="ledger_entries", verbose_name=_("player")
    )
    amount = models.BigIntegerField(_("amount"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    payment = models.ForeignKey(
        Payment,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("payment"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    objects = LedgerEntryQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        indexes = [
            models.Index(fields=["game", "player"], name="ledger_entry_game_player"),
            models.Index(fields=["club", "player"], name="ledger_entry_club_player"),
            models.Index(fields=["season", "player"], name="ledger_entry_season_player"),
            models.Index(fields=["evening", "player"], name="ledger_entry_evening_player"),
        ]
        constraints = [
            # A game entry belongs to a game and no payment; a payment entry the reverse;
            # a prize entry (a tournament's fee or prize) to neither.
            models.CheckConstraint(
                condition=(
                    models.Q(
                        kind__in=["result", "reversal"],
                        game__isnull=False,
                        payment__isnull=True,
                    )
                    | models.Q(kind="payment", game__isnull=True, payment__isnull=False)
                    | models.Q(kind="prize", game__isnull=True, payment__isnull=True)
                ),
                name="ledger_entry_kind_matches_source",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.player_id}: {self.amount:+d}"

    append_only_noun = "ledger entries"
    append_only_one = "entry"


class SettlementPlan(models.Model):
    """Who pays whom to clear an evening's or a season's open balances.

    ``balances`` is the snapshot the plan was made from ({player id: amount});
    the transfers are the fewest that clear it (``ledger.settlement.settle``).
    """

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="settlement_plans", verbose_name=_("club")
    )
    season = models.ForeignKey(
        Season,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="settlement_plans",
        verbose_name=_("season"),
    )
    evening = models.ForeignKey(
        "games.Evening",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="settlement_plans",
        verbose_name=_("evening"),
    )
    balances = models.JSONField(_("balances"), default=dict)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="settlement_plans_created",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["club_id", "-created_at", "-id"]
        verbose_name = _("settlement plan")
        verbose_name_plural = _("settlement plans")
        constraints = [
            # A plan settles an evening or a season, never both or neither.
            models.CheckConstraint(
                condition=(
                    models.Q(evening__isnull=False, season__isnull=True)
                    | models.Q(evening__isnull=True, season__isnull=False)
                ),
                name="ledger_plan_evening_xor_season",
            ),
        ]

    def __str__(self) -> str:
        scope = f"evening {self.evening_id}" if self.evening_id else f"season {self.season_id}"
        return f"plan {self.pk} ({scope})"


class SettlementTransfer(models.Model):
    """One transfer of a plan; ``payment`` is set once it has been marked paid."""

    plan = models.ForeignKey(
        SettlementPlan, on_delete=models.CASCADE, related_name="transfers", verbose_name=_("plan")
    )
    payer = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("payer")
    )
    payee = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("payee")
    )
    amount = models.BigIntegerField(_("amount"))
    paid_at = models.DateTimeField(_("paid at"), null=True, blank=True)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("marked paid by"),
    )
    payment = models.OneToOneField(
        Payment,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="settlement_transfer",
        verbose_name=_("payment"),
    )

    class Meta:
        ordering = ["plan_id", "id"]
        verbose_name = _("settlement transfer")
        verbose_name_plural = _("settlement transfers")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount__gt=0), name="ledger_transfer_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.payer_id} → {self.payee_id}: {self.amount}"

    @property
    def is_paid(self) -> bool:
        return self.paid_at is not None


# --- Projections -----------------------------------------------------------------------


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
