"""URLs of the tournaments' API, included under /api/."""

from __future__ import annotations

from django.urls import path

from tournaments import apis

T = "clubs/<slug:slug>/tournaments/<int:tournament_id>/"
TABLE = T + "series/<int:series>/tables/<int:table>/"

urlpatterns = [
    path(
        "clubs/<slug:slug>/tournaments/", apis.TournamentListApi.as_view(), name="tournament-list"
    ),
    path(
        "clubs/<slug:slug>/tournaments/create/",
        apis.TournamentCreateApi.as_view(),
        name="tournament-create",
    ),
    path(T, apis.TournamentDetailApi.as_view(), name="tournament-detail"),
    path(T + "participants/", apis.ParticipantJoinApi.as_view(), name="tournament-join"),
    path(
        T + "participants/<int:number>/leave/",
        apis.ParticipantLeaveApi.as_view(),
        name="tournament-leave",
    ),
    path(T + "draw/", apis.SeriesDrawApi.as_view(), name="tournament-draw"),
    path(
        T + "series/<int:series>/confirm/",
        apis.SeriesConfirmApi.as_view(),
        name="tournament-series-confirm",
    ),
    path(TABLE, apis.SheetApi.as_view(), name="tournament-sheet"),
    path(TABLE + "confirm/", apis.SheetConfirmApi.as_view(), name="tournament-sheet-confirm"),
    path(T + "ranking/", apis.RankingApi.as_view(), name="tournament-ranking"),
    path(T + "ranking/csv/", apis.RankingCsvApi.as_view(), name="tournament-ranking-csv"),
    path(T + "close/", apis.TournamentCloseApi.as_view(), name="tournament-close"),
    path(T + "settlement/", apis.SettlementApi.as_view(), name="tournament-settlement"),
    path(T + "links/", apis.LinkListCreateApi.as_view(), name="tournament-links"),
    path(
        T + "links/<int:link_id>/revoke/",
        apis.LinkRevokeApi.as_view(),
        name="tournament-link-revoke",
    ),
    path("tournament-links/<str:key>/", apis.LinkRankingApi.as_view(), name="tournament-link-api"),
]
