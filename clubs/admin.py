"""Django admin for the clubs models: a repair tool, not the way clubs are run.

The admin writes models directly, past the services' checks; the database
constraints (one open season, unique names) still hold.
"""

from __future__ import annotations

from django.contrib import admin

from clubs.models import Club, Invitation, Membership, Player, RuleProfile, Season


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "time_zone", "currency_unit", "card_face", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "joined_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    raw_id_fields = ["user"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "club", "user", "is_active"]
    list_filter = ["is_active", "club"]
    search_fields = ["display_name", "user__username"]
    raw_id_fields = ["user"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["club", "role", "created_by", "expires_at", "accepted_by", "accepted_at"]
    list_filter = ["role", "club"]
    raw_id_fields = ["created_by", "accepted_by", "player"]
    readonly_fields = ["token"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "game_kind", "start", "end", "status"]
    list_filter = ["game_kind", "status", "club"]


@admin.register(RuleProfile)
class RuleProfileAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "game_kind", "updated_at"]
    list_filter = ["game_kind", "club"]
