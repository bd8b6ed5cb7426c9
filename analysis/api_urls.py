"""URLs of the analysis API, included under /api/."""

from __future__ import annotations

from django.urls import path

from analysis import apis

urlpatterns = [
    path("games/<int:game_id>/analysis/", apis.GameAnalysisApi.as_view(), name="game-analysis"),
]
