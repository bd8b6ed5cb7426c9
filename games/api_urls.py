"""URLs of the games API, included under /api/."""

from __future__ import annotations

from django.urls import path

from games import apis

urlpatterns = [
    path(
        "clubs/<slug:slug>/evenings/",
        apis.EveningListCreateApi.as_view(),
        name="evening-list",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/records/",
        apis.SeasonRecordsApi.as_view(),
        name="season-records",
    ),
    path("evenings/<int:evening_id>/", apis.EveningDetailApi.as_view(), name="evening-detail"),
    path("evenings/<int:evening_id>/close/", apis.EveningCloseApi.as_view(), name="evening-close"),
    path(
        "evenings/<int:evening_id>/reopen/", apis.EveningReopenApi.as_view(), name="evening-reopen"
    ),
    path(
        "evenings/<int:evening_id>/delete/", apis.EveningDeleteApi.as_view(), name="evening-delete"
    ),
    path(
        "evenings/<int:evening_id>/seats/",
        apis.EveningSeatAddApi.as_view(),
        name="evening-seat-add",
    ),
    path(
        "evenings/<int:evening_id>/seats/<int:player_id>/",
        apis.EveningSeatRemoveApi.as_view(),
        name="evening-seat-remove",
    ),
    path("evenings/<int:evening_id>/games/", apis.GameStartApi.as_view(), name="game-start"),
    path(
        "evenings/<int:evening_id>/records/",
        apis.EveningRecordsApi.as_view(),
        name="evening-records",
    ),
    path(
        "evenings/<int:evening_id>/import/",
        apis.EveningImportApi.as_view(),
        name="evening-import",
    ),
    path("games/<int:game_id>/", apis.GameDetailApi.as_view(), name="game-detail"),
    path(
        "games/<int:game_id>/events/",
        apis.GameEventAppendApi.as_view(),
        name="game-event-append",
    ),
    path("games/<int:game_id>/record/", apis.GameRecordApi.as_view(), name="game-record"),
]
