"""URLs of the live app's pages."""

from __future__ import annotations

from django.urls import path

from live import pages

urlpatterns = [
    path("games/<int:game_id>/history/", pages.game_history, name="game-history-page"),
    path("evenings/<int:evening_id>/log/", pages.evening_log, name="evening-log-page"),
]
