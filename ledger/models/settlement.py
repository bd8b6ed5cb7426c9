"""The books: settlement plans and their transfers, each marked paid as it is paid."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player, Season
from ledger.models.payments import Payment


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
