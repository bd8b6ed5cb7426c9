"""A service's refusal on the page: the one way the evening, recording and tally pages
(and ``web.pages``) tell the user why something was not done."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext as _

from clubs.models import Club
from games.access import player_names
from games.engine_text import explain
from games.errors import EngineRejected, GamesError
from games.vocabulary import error_titles


def report_refusal(
    request: HttpRequest, error: Exception, club: Club | None = None, at: str = ""
) -> None:
    """Put a service's refusal on the page as a message, in plain words.

    An engine refusal reads as its heading and the engine's sentence in the page's
    language, with the names of ``club``'s players for their ids. ``at`` (an
    "at-<form>" tag) shows it next to that form instead of at the top.
    """
    if isinstance(error, EngineRejected):
        code = str(error.error.get("code", ""))
        title = error_titles().get(code, _("Not accepted"))
        sentence = explain(
            error.error,
            player_names(club) if club is not None else None,
            face=club.card_face if club is not None else None,
        )
        # An unknown sentence comes with its heading already.
        messages.error(
            request,
            sentence if sentence.startswith(title) else f"{title}: {sentence}",
            extra_tags=at,
        )
    elif isinstance(error, GamesError):
        messages.error(request, error.message, extra_tags=at)
    elif isinstance(error, ValidationError):
        for message in error.messages:
            messages.error(request, message, extra_tags=at)
