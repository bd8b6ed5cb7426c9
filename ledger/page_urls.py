"""URLs of the season table and the player pages (the HTML side of the ledger)."""

from __future__ import annotations

from django.urls import path

from ledger import pages

urlpatterns = [
    path("clubs/<slug:slug>/table/", pages.season_current, name="season-current"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/table/",
        pages.season_standings,
        name="standings-page",
    ),
    path("clubs/<slug:slug>/players/<int:player_id>/", pages.player_page, name="player-page"),
]
