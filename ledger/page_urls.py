"""URLs of the season table and the player pages (the HTML side of the ledger)."""

from __future__ import annotations

from django.urls import path

from ledger import pages

urlpatterns = [
    path("evenings/<int:evening_id>/settle/", pages.evening_settle, name="evening-settle"),
    path(
        "evenings/<int:evening_id>/transfers/<int:transfer_id>/paid/",
        pages.evening_transfer_paid,
        name="transfer-paid",
    ),
    path("clubs/<slug:slug>/table/", pages.season_current, name="season-current"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/table/",
        pages.season_standings,
        name="standings-page",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/settle/",
        pages.season_settle,
        name="season-settle",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/payments/new/",
        pages.season_payment_new,
        name="season-payment-new-page",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/transfers/<int:transfer_id>/paid/",
        pages.season_transfer_paid,
        name="season-transfer-paid",
    ),
    path("clubs/<slug:slug>/players/<int:player_id>/", pages.player_page, name="player-page"),
    path("clubs/<slug:slug>/all-time/", pages.all_time_page, name="all-time-page"),
    path(
        "clubs/<slug:slug>/payments/<int:payment_id>/reverse/",
        pages.payment_reverse,
        name="payment-reverse-page",
    ),
]
