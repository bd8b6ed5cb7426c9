"""The books: the ledger's entries, append-only and zero-sum."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player, Season
from ledger.models.payments import Payment
from stichbuch.append_only import AppendOnlyModel, AppendOnlyQuerySet


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
