"""URLs of the live app's API, included under /api/."""

from __future__ import annotations

from django.urls import path

from live import apis

urlpatterns = [
    path("games/<int:game_id>/history/", apis.GameHistoryApi.as_view(), name="game-history"),
    path("evenings/<int:evening_id>/log/", apis.EveningLogApi.as_view(), name="evening-log"),
    path(
        "evenings/<int:evening_id>/live-links/",
        apis.LiveLinkListCreateApi.as_view(),
        name="live-link-list",
    ),
    path(
        "evenings/<int:evening_id>/live-links/<int:link_id>/revoke/",
        apis.LiveLinkRevokeApi.as_view(),
        name="live-link-revoke-api",
    ),
    path("live/<str:token>/", apis.LiveStateApi.as_view(), name="live-state-api"),
]
