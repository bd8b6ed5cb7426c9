"""What the games services raise besides Django's ``ValidationError`` (a 400).

They know nothing of HTTP; ``games.apis`` turns each into its answer:
``StaleSequence``, ``EveningClosed``, ``EveningOpen`` and ``EveningNotEmpty`` into
a 409, ``EngineRejected`` and ``IdempotencyKeyReused`` into a 422.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

# The cap's sentence as a template, as the engine's are (``games.engine_text``).
TOO_MANY_EVENTS = gettext_noop("a game holds at most {n} events")


class GamesError(Exception):
    """Base of the games app's own errors; ``message`` is plain words for the user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleSequence(GamesError):
    """The client's ``expected_seq`` is not the game's latest seq: someone recorded first."""

    def __init__(self, *, current_seq: int, expected_seq: int) -> None:
        super().__init__(
            _(
                "The game has moved on: its latest event is number %(current)d, "
                "not %(expected)d. Reload it and record again."
            )
            % {"current": current_seq, "expected": expected_seq}
        )
        self.current_seq = current_seq
        self.expected_seq = expected_seq


class EveningClosed(GamesError):
    """The evening is closed: no new games, seats or events."""


class EveningOpen(GamesError):
    """The evening is open: there is nothing to open again."""


class EveningNotEmpty(GamesError):
    """Something was recorded in the evening: it cannot be deleted."""


class EngineRejected(GamesError):
    """The engine judged the record invalid; nothing was written.

    ``error`` is the engine's ``{"index", "code", "message"}``; ``index`` counts
    positions in the *combined* record (the stored events followed by the new
    ones), and ``event_offset`` is the number of stored events, so the client's
    own event is ``index - event_offset``.
    """

    def __init__(self, *, error: dict[str, Any], event_offset: int) -> None:
        super().__init__(str(error.get("message", "")))
        self.error = error
        self.event_offset = event_offset


class IdempotencyKeyReused(GamesError):
    """An Idempotency-Key already answered a *different* request of this user."""


# A deal is some forty events (Fuchsen with six seated: the deal, the call, thirty
# cards, a few raises and Fuchs). Ten times that leaves room for every correction a
# table makes; a stream beyond it is a client looping ``[event, undo]`` (one grew to
# 8,037 events: a 1.1 MB game that every read of it replays).
MAX_GAME_EVENTS = 400


class TooManyEvents(EngineRejected):
    """The game would hold more than ``MAX_GAME_EVENTS`` events; nothing was written.

    An engine-shaped refusal (a 422 like the engine's own) with the code
    ``too_many_events`` and the index of the first event beyond the cap, so a
    client shows it as it shows any refused entry.
    """

    def __init__(self, *, total: int, event_offset: int) -> None:
        super().__init__(
            error={
                "index": MAX_GAME_EVENTS,
                "code": "too_many_events",
                # English, as the engine's own sentences; ``engine_text`` translates it.
                "message": f"a game holds at most {MAX_GAME_EVENTS} events",
                "template": TOO_MANY_EVENTS,
                "params": {"n": MAX_GAME_EVENTS},
            },
            event_offset=event_offset,
        )
