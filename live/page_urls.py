"""URLs of the live app's pages."""

from __future__ import annotations

from django.urls import path

from live import pages

link = "evenings/<int:evening_id>/live-links/<int:link_id>"

urlpatterns = [
    path("games/<int:game_id>/history/", pages.game_history, name="game-history-page"),
    path("evenings/<int:evening_id>/log/", pages.evening_log, name="evening-log-page"),
    path("live/<str:token>/", pages.live_page, name="live-page"),
    path("live/<str:token>/state/", pages.live_state, name="live-state"),
    path("live/<str:token>/events/", pages.live_events, name="live-events"),
    path(
        "evenings/<int:evening_id>/live/state/",
        pages.evening_live_state,
        name="evening-live-state",
    ),
    path(
        "evenings/<int:evening_id>/live/events/",
        pages.evening_live_events,
        name="evening-live-events",
    ),
    path("evenings/<int:evening_id>/live-links/new/", pages.live_link_new, name="live-link-new"),
    path(f"{link}/revoke/", pages.live_link_revoke, name="live-link-revoke"),
    path(f"{link}/qr.svg", pages.live_link_qr, name="live-link-qr"),
    path("sw.js", pages.service_worker, name="service-worker"),
    path("favicon.ico", pages.favicon, name="favicon"),
    path("manifest.webmanifest", pages.web_manifest, name="web-manifest"),
]
