"""The clubs app's seam upwards: listeners to what it changes that the apps above keep.

The same pattern as ``games.listeners`` (see there and ``docs/DESIGN.md``): ``clubs``
imports no app above it, so the apps above register a ``ClubsListener`` subclass in
their ``AppConfig.ready`` and the clubs services call them inside their transaction
(an exception rolls the whole write back).
"""

from __future__ import annotations

from typing import Any

from clubs.models import Season


class ClubsListener:
    """What an app above ``clubs`` does when a club's things change; nothing unless
    overridden."""

    def season_closing(self, *, season: Season, user: Any) -> None:
        """``season`` is being closed by ``user``: its row is locked, its status not yet
        written. The games app closes the season's open evenings here."""


_listeners: list[ClubsListener] = []


def register(listener: ClubsListener) -> None:
    """Add ``listener`` (once: registering the same object again changes nothing)."""
    if not any(known is listener for known in _listeners):
        _listeners.append(listener)


def registered() -> tuple[ClubsListener, ...]:
    """The listeners, in the order they are called."""
    return tuple(_listeners)


def season_closing(*, season: Season, user: Any) -> None:
    """Tell every listener (see ``ClubsListener.season_closing``)."""
    for listener in _listeners:
        listener.season_closing(season=season, user=user)
