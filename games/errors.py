"""What the games services raise besides Django's ``ValidationError`` (a 400).

They know nothing of HTTP; ``games.apis`` turns each into its answer:
``StaleSequence``, ``EveningClosed``, ``EveningOpen`` and ``EveningNotEmpty`` into
a 409, ``EngineRejected`` and ``IdempotencyKeyReused`` into a 422.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


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
