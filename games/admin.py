"""Django admin for the games models: a repair and inspection tool.

Game events are append-only: the admin shows them read-only and cannot add,
change or delete them (corrections are new events, recorded through the API).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Evening, EveningSeat, Game, GameEvent, IdempotencyRecord


class EveningSeatInline(admin.TabularInline):
    model = EveningSeat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ["date", "club", "game_kind", "place", "status", "season"]
    list_filter = ["game_kind", "status"]
    search_fields = ["place", "club__name", "club__slug"]
    raw_id_fields = ["club", "season", "rule_profile", "created_by"]
    inlines = [EveningSeatInline]


class GameEventInline(admin.TabularInline):
    model = GameEvent
    extra = 0
    fields = ("seq", "type", "payload", "schema_version", "recorded_by", "recorded_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "evening", "number", "game_kind", "status", "last_seq", "finished_at"]
    list_filter = ["game_kind", "status"]
    raw_id_fields = ["evening", "dealer", "created_by"]
    readonly_fields = ["house_rules", "result", "last_seq", "status", "finished_at"]
    inlines = [GameEventInline]


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ["game", "seq", "type", "recorded_by", "recorded_at"]
    list_filter = ["type"]
    raw_id_fields = ["game", "recorded_by"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["user", "key", "response_status", "created_at"]
    search_fields = ["key", "user__username"]
    raw_id_fields = ["user"]
