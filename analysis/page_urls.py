"""URLs of the analysis pages."""

from __future__ import annotations

from django.urls import path

from analysis import pages

urlpatterns = [
    path("games/<int:game_id>/analysis/", pages.game_analysis_page, name="game-analysis-page"),
]
