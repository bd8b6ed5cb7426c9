"""URLs of the tournaments' pages."""

from __future__ import annotations

from django.urls import path

from tournaments import pages

T = "clubs/<slug:slug>/tournaments/<int:tournament_id>/"
TABLE = T + "series/<int:series>/tables/<int:table>/"

urlpatterns = [
    path("clubs/<slug:slug>/tournaments/", pages.tournament_list, name="tournament-list-page"),
    path(T, pages.tournament_page, name="tournament-page"),
    path(T + "join/", pages.participant_join, name="tournament-join-page"),
    path(
        T + "participants/<int:number>/leave/",
        pages.participant_leave,
        name="tournament-leave-page",
    ),
    path(T + "draw/", pages.series_draw, name="tournament-draw-page"),
    path(T + "series/<int:series>/confirm/", pages.series_confirm, name="tournament-confirm-page"),
    path(T + "close/", pages.tournament_close, name="tournament-close-page"),
    path(T + "links/new/", pages.link_new, name="tournament-link-new"),
    path(T + "links/<int:link_id>/revoke/", pages.link_revoke, name="tournament-link-revoke-page"),
    path(TABLE, pages.sheet_page, name="tournament-sheet-page"),
    path(T + "ranking/", pages.ranking_page, name="tournament-ranking-page"),
    path(T + "ranking/state/", pages.ranking_state, name="tournament-ranking-state"),
    path(T + "ranking/events/", pages.ranking_events, name="tournament-ranking-events"),
    path(T + "ranking.csv", pages.ranking_csv_page, name="tournament-ranking-csv-page"),
    path(T + "print/series/<int:series>/", pages.print_seating, name="tournament-print-seating"),
    path(TABLE + "print/", pages.print_sheet, name="tournament-print-sheet"),
    path(T + "print/ranking/", pages.print_ranking, name="tournament-print-ranking"),
    path("turnier/<str:key>/", pages.link_page, name="tournament-link-page"),
    path("turnier/<str:key>/state/", pages.link_state, name="tournament-link-state"),
    path("turnier/<str:key>/events/", pages.link_events, name="tournament-link-events"),
]
