"""The tournaments' pages (German first, phone-friendly): the list and the set-up, a
tournament's page (participants, the draw and its confirmation, the tables, the
close), a table's sheet, the live ranking (members, and behind a link for a screen
in the room), the print pages (Aushang, Spielliste, final ranking) and the CSV.

Writes go through ``tournaments.services``; a refusal comes back on the page in
plain words, with nothing written.

One module per use case: ``setup`` (the list and the set-up), ``tournament`` (a
tournament's page and the organiser's actions on it), ``sheets`` (a table's sheet),
``ranking`` (the live ranking, for members and behind a link), ``printing`` (the
print pages and the CSV); what they share (a refusal as a message, the ranking's
rows) is in ``common``. This package re-exports the views.
"""

from tournaments.pages.printing import print_ranking, print_seating, print_sheet, ranking_csv_page
from tournaments.pages.ranking import (
    link_events,
    link_page,
    link_state,
    ranking_events,
    ranking_page,
    ranking_state,
)
from tournaments.pages.setup import tournament_list
from tournaments.pages.sheets import sheet_page
from tournaments.pages.tournament import (
    link_new,
    link_revoke,
    participant_join,
    participant_leave,
    series_confirm,
    series_draw,
    tournament_close,
    tournament_page,
)

__all__ = [
    "link_events",
    "link_new",
    "link_page",
    "link_revoke",
    "link_state",
    "participant_join",
    "participant_leave",
    "print_ranking",
    "print_seating",
    "print_sheet",
    "ranking_csv_page",
    "ranking_events",
    "ranking_page",
    "ranking_state",
    "series_confirm",
    "series_draw",
    "sheet_page",
    "tournament_close",
    "tournament_list",
    "tournament_page",
]
