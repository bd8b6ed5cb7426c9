"""URLs of the evening and game pages (the HTML side; the API lives in games.api_urls)."""

from __future__ import annotations

from django.urls import path

from games import change_pages, rule_profile_pages, rules_pages, tally_pages
from games.pages import evenings, recording, replay

urlpatterns = [
    path(
        "clubs/<slug:slug>/rules/new/<str:game_kind>/",
        rule_profile_pages.rule_profile_new,
        name="rule-profile-new-page",
    ),
    path(
        "clubs/<slug:slug>/rules/<int:profile_id>/",
        rule_profile_pages.rule_profile_page,
        name="rule-profile-page",
    ),
    path("clubs/<slug:slug>/rules/<slug:game>/", rules_pages.club_rules, name="club-rules"),
    path("evenings/<int:evening_id>/rules/", rules_pages.evening_rules, name="evening-rules"),
    path("games/<int:game_id>/rules/", rules_pages.game_rules, name="game-rules"),
    path("clubs/<slug:slug>/evenings/", evenings.evening_archive, name="evening-archive"),
    path("clubs/<slug:slug>/evenings/new/", evenings.evening_new, name="evening-new"),
    path("evenings/<int:evening_id>/close/", evenings.evening_close, name="evening-close-page"),
    path("evenings/<int:evening_id>/reopen/", evenings.evening_reopen, name="evening-reopen-page"),
    path("evenings/<int:evening_id>/delete/", evenings.evening_delete, name="evening-delete-page"),
    path(
        "evenings/<int:evening_id>/seats/<int:player_id>/leave/",
        evenings.seat_leave,
        name="seat-leave-page",
    ),
    path("evenings/<int:evening_id>/import/", evenings.evening_import, name="evening-import-page"),
    path("evenings/<int:evening_id>/new-game/", recording.game_new, name="game-new"),
    path("evenings/<int:evening_id>/tally/", tally_pages.evening_tally, name="evening-tally"),
    path("games/<int:game_id>/", recording.game_page, name="game-page"),
    path("games/<int:game_id>/tally/", tally_pages.game_tally, name="game-tally"),
    path(
        "games/<int:game_id>/change/",
        change_pages.game_result_change,
        name="game-result-change",
    ),
    path("games/<int:game_id>/replay/", replay.game_replay, name="game-replay"),
]
