"""URLs of the live app's API, included under /api/."""

from __future__ import annotations

from django.urls import path

from live import apis

urlpatterns = [
    path("games/<int:game_id>/history/", apis.GameHistoryApi.as_view(), name="game-history"),
    path("evenings/<int:evening_id>/log/", apis.EveningLogApi.as_view(), name="evening-log"),
]
