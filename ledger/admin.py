"""Django admin for the ledger: read-only books, so the admin cannot bypass append-only.

Money changes only through ``ledger.services`` (a correction is a payment or
a re-synced game, never an edit); the projections are rebuilt, not edited.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ledger.models import (
    LedgerEntry,
    Payment,
    ProjectionState,
    SettlementPlan,
    SettlementTransfer,
    StandingsConfig,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ["id", "club", "player", "amount", "kind", "game", "payment", "created_at"]
    list_filter = ["kind"]
    list_select_related = ["club", "player"]
    raw_id_fields = ["club", "season", "evening", "game", "player", "payment"]


@admin.register(Payment)
class PaymentAdmin(ReadOnlyAdmin):
    list_display = ["id", "club", "payer", "payee", "amount", "recorded_by", "created_at"]
    list_select_related = ["club", "payer", "payee", "recorded_by"]


class SettlementTransferInline(admin.TabularInline):
    model = SettlementTransfer
    extra = 0
    can_delete = False
    readonly_fields = ["payer", "payee", "amount", "paid_at", "paid_by", "payment"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(SettlementPlan)
class SettlementPlanAdmin(ReadOnlyAdmin):
    list_display = ["id", "club", "evening", "season", "created_at"]
    inlines = [SettlementTransferInline]


@admin.register(ProjectionState)
class ProjectionStateAdmin(ReadOnlyAdmin):
    list_display = ["season", "version", "computed_from", "computed_at", "games", "runs"]


@admin.register(StandingsConfig)
class StandingsConfigAdmin(ReadOnlyAdmin):
    # Changed through the API: its service bumps the seasons' versions so the tables follow.
    list_display = ["club", "min_games", "tie_break", "updated_at"]
