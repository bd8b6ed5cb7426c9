"""Writes of the tournaments app: keyword-only functions, each one transaction.

They raise Django's ``ValidationError`` for input a user can get wrong (400) and
``TournamentConflict`` for a step out of order (409): a draw while a series is
still played, a change to a closed tournament. Permission is checked by the
caller (organisers are the club's admins; see ``tournaments.access``).

Each table of a confirmed series is opened through ``games.services.evening_create``
and its sheet closed through ``games.services.evening_close``: the recording
itself is the games app's, written once.

One module per use case: ``setup`` (a tournament's settings and prizes, participants
joining and leaving), ``draws`` (a series drawn and confirmed, its tables opened),
``sheets`` (a table's sheet agreed to and closed), ``closing`` (the final ranking and
its prizes, booked), ``links`` (ranking links for a screen); what they share (the
409, the tournament's lock, the series in play) is in ``common``. This package
re-exports their public names.
"""

from tournaments.services.closing import tournament_close
from tournaments.services.common import TournamentConflict
from tournaments.services.draws import series_confirm, series_draw
from tournaments.services.links import ranking_link_create, ranking_link_revoke
from tournaments.services.setup import (
    MAX_DEALS,
    MAX_SERIES,
    participant_join,
    participant_leave,
    tournament_create,
)
from tournaments.services.sheets import sheet_confirm

__all__ = [
    "MAX_DEALS",
    "MAX_SERIES",
    "TournamentConflict",
    "participant_join",
    "participant_leave",
    "ranking_link_create",
    "ranking_link_revoke",
    "series_confirm",
    "series_draw",
    "sheet_confirm",
    "tournament_close",
    "tournament_create",
]
