"""The one seam where the games app reaches the apps above it: listeners to what it records.

The apps depend one way (``docs/DESIGN.md``): ``ledger``, ``live``, ``analysis`` and
``tournaments`` import ``games``, never the other way round. Yet recording a game
must book its money in the same transaction, push the change to the evening's live
views and tell whoever else keeps something per game. So the games services call
the listeners registered here, and each app above registers its own in its
``AppConfig.ready``::

    class LedgerConfig(AppConfig):
        def ready(self) -> None:
            from games import listeners
            from ledger.listeners import LedgerListener

            listeners.register(LedgerListener())

A listener subclasses ``GamesListener`` and overrides what it cares about; the rest
do nothing. Listeners run in the order they were registered (``INSTALLED_APPS``),
synchronously, **inside the writing transaction**: what a listener writes commits
or rolls back with the game, and an exception rolls the whole write back (that is
how money is never booked for a game that was not stored, and the other way round).
Work that must wait for the commit (a push, a task) uses ``transaction.on_commit``.

This is the only place the games app calls upwards (the clubs app has its own,
``clubs.listeners``, on the same pattern: a closing season closes its evenings); any
other call from a lower app into a higher one is a wrong import, and
``tests/test_app_graph.py`` refuses it. The ledger, one app higher, calls
``evening_changed`` here too (a payment changes what an evening shows), so ``live``
hears of it without the ledger importing ``live``.
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games.models import Evening, Game


@dataclass(frozen=True, slots=True)
class LockedGame:
    """A game whose row the current transaction holds (``FOR UPDATE``, or created in it),
    with ``game.evening`` loaded.

    Made only right after the lock was taken or the row created (``game_lock``, the
    games services); a listener that gets one writes what hangs on the game without
    locking it again or reading its evening.
    """

    game: Game
    evening: Evening


def game_lock(*, game: Game) -> LockedGame:
    """Lock ``game``'s row inside the caller's transaction and read its evening.

    Raises ``RuntimeError`` outside a transaction (a lock that ends with the
    statement locks nothing).
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("game_lock needs the caller's transaction")
    Game.objects.select_for_update(of=("self",)).filter(pk=game.pk).values_list("pk").first()
    evening = Evening.objects.only("pk", "club_id", "season_id").get(pk=game.evening_id)
    return LockedGame(game=game, evening=evening)


class GamesListener:
    """What an app above ``games`` does when games change. Every method is called
    inside the writing transaction and does nothing unless overridden."""

    def game_changed(
        self, *, locked: LockedGame, previous_status: str, club_players: Collection[int]
    ) -> None:
        """``locked.game`` was started or had events appended (a correction too), and
        its ``status`` and ``result`` are as they now stand (saved or about to be).

        ``previous_status``: the status before this write (``in_progress`` for a new
        game). ``club_players``: ids read in this transaction as players of the game's
        club (its evening's seats), so that a listener needs no look at the players'
        table for them.
        """

    def games_added(
        self,
        *,
        evening: Evening,
        games: Sequence[tuple[Game, datetime.datetime]],
        club_players: Collection[int],
    ) -> None:
        """Whole games were created in this transaction (an import), each saved with
        its events: ``(game, at)``, ``at`` the time its own write would have had.
        Called once per batch, for the games that are over, instead of
        ``game_changed`` per game, so that a listener can write them in bulk."""

    def bulk(self) -> contextlib.AbstractContextManager[None]:
        """A context the games services enter around a bulk write (an import), outside
        its transaction: a listener may gather its on-commit work there and do it once."""
        return contextlib.nullcontext()

    def evening_changed(self, *, evening_id: int) -> None:
        """Something the evening shows changed (a game, a seat, a payment)."""

    def evening_closed_or_reopened(self, *, evening: Evening, kind: str, user: Any) -> None:
        """The evening was closed (``kind`` "closed") or reopened ("reopened") by ``user``."""


_listeners: list[GamesListener] = []


def register(listener: GamesListener) -> None:
    """Add ``listener`` (once: registering the same object again changes nothing)."""
    if not any(known is listener for known in _listeners):
        _listeners.append(listener)


def registered() -> tuple[GamesListener, ...]:
    """The listeners, in the order they are called."""
    return tuple(_listeners)


@contextlib.contextmanager
def only(*listeners: GamesListener) -> Iterator[None]:
    """Within the block, exactly ``listeners`` are registered (for tests that record a
    game with no app above listening, or with one of their own)."""
    saved = _listeners[:]
    _listeners[:] = list(listeners)
    try:
        yield
    finally:
        _listeners[:] = saved


def game_changed(
    *, locked: LockedGame, previous_status: str, club_players: Collection[int] = ()
) -> None:
    """Tell every listener (see ``GamesListener.game_changed``)."""
    for listener in _listeners:
        listener.game_changed(
            locked=locked, previous_status=previous_status, club_players=club_players
        )


def games_added(
    *,
    evening: Evening,
    games: Sequence[tuple[Game, datetime.datetime]],
    club_players: Collection[int] = (),
) -> None:
    """Tell every listener (see ``GamesListener.games_added``)."""
    for listener in _listeners:
        listener.games_added(evening=evening, games=games, club_players=club_players)


@contextlib.contextmanager
def bulk() -> Iterator[None]:
    """Every listener's ``bulk`` context, entered in order."""
    with contextlib.ExitStack() as stack:
        for listener in _listeners:
            stack.enter_context(listener.bulk())
        yield


def evening_changed(*, evening_id: int) -> None:
    """Tell every listener (see ``GamesListener.evening_changed``)."""
    for listener in _listeners:
        listener.evening_changed(evening_id=evening_id)


def evening_closed_or_reopened(*, evening: Evening, kind: str, user: Any) -> None:
    """Tell every listener (see ``GamesListener.evening_closed_or_reopened``)."""
    for listener in _listeners:
        listener.evening_closed_or_reopened(evening=evening, kind=kind, user=user)
