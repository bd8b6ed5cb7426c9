"""The books: a payment between two players, and its reversal."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player, Season


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
