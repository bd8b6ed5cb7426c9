"""Putting a saved game right in one request: a result typed in again, an entry replaced.

(Beside ``correction``, not in it: these append, and the append imports ``correction``.)

Both are one append (``services.game_events_append``): undos back to the entry, the
new entries, and (for an entry replaced) the later ones again. The engine judges the
whole; a refusal writes nothing. Every step stays on record, and a finished game's
money is booked again in the same transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from games import selectors
from games.errors import EngineRejected, StaleSequence
from games.events import to_event
from games.models import Game
from games.services.append import Appended, game_events_append, game_events_judge
from games.services.correction import corrected_events


def standing_events(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The record's events as they stand after its undos, as the engine resolves them
    (its table view's ``effective`` positions)."""
    events = record["events"]
    state = selectors.table_state(record=record)
    return [events[i] for i in state.get("effective") or [] if 0 <= i < len(events)]


def game_result_reenter(
    *,
    game: Game,
    user: Any,
    expected_seq: int,
    events: list[dict[str, Any]],
    dry_run: bool = False,
) -> Appended:
    """Replace the game's standing entries by ``events`` (a whole result as typed in: the
    deal, the call or auction, the tally) in ONE append: an ``undo`` for each standing
    entry, then ``events``. The deal stays and is not undone when ``events`` starts with
    the same deal. ``expected_seq``: the seq the form was drawn at.

    Raises ``StaleSequence`` if the game moved on since, and the append's errors
    (nothing written); ``dry_run``: judged only (``game_events_judge``), nothing written.
    """
    with transaction.atomic():
        record = selectors.game_record(game=game)
        if len(record["events"]) != expected_seq:
            raise StaleSequence(current_seq=len(record["events"]), expected_seq=expected_seq)
        standing = standing_events(record)
        new = list(events)
        if standing and new and new[0] == standing[0]:
            standing, new = standing[1:], new[1:]
        undos: list[dict[str, Any]] = [{"type": "undo"} for _event in standing]
        append = game_events_judge if dry_run else game_events_append
        return append(game=game, user=user, expected_seq=expected_seq, events=[*undos, *new])


@dataclass
class Replaced:
    """``game_entry_replace``'s answer: the append, and the later entries it could not
    enter again (``misfit``: the first of them, which the engine refused; ``left_out``:
    it and every entry after it, in order)."""

    appended: Appended
    misfit: dict[str, Any] | None = None
    left_out: list[dict[str, Any]] = field(default_factory=list)
    error: dict[str, Any] | None = None


def game_entry_replace(
    *,
    game: Game | int,
    user: Any,
    expected_seq: int,
    index: int,
    replacement: dict[str, Any],
    min_role: str | None = None,
    idempotency_key: str | None = None,
    on_written: Callable[[Replaced], object] | None = None,
) -> Replaced:
    """Replace the record's entry ``index`` by ``replacement`` and enter the later entries
    again, in one append (``services.corrected_events``). Where a later entry no longer
    fits the corrected game (the engine refuses it), the append stops before it: the
    entries before it stand, it and the ones after are left out (``Replaced.misfit``,
    ``left_out``, the engine's ``error``) for the scorer to enter as they really were.

    ``min_role``, ``idempotency_key``: as for ``game_events_append``; ``on_written``:
    called with the whole answer (the append and what was left out) inside the
    transaction, once everything is written.

    Raises what ``game_events_append`` raises with ``correct=index``: ``ValidationError``
    (``index`` names no entry that can be replaced), ``StaleSequence`` (the game moved
    on, or a retry of a stored request, which its caller answers from its key), and
    ``EngineRejected`` if the replacement itself is refused. Nothing is written then.
    """

    def append(
        events: list[dict[str, Any]],
        correct: int | None,
        misfit: dict[str, Any] | None = None,
        error: dict[str, Any] | None = None,
        left_out: list[dict[str, Any]] | None = None,
    ) -> Replaced:
        def written(appended: Appended) -> None:
            if on_written is not None:
                on_written(replaced(appended))

        def replaced(appended: Appended) -> Replaced:
            return Replaced(appended=appended, misfit=misfit, left_out=left_out or [], error=error)

        return replaced(
            game_events_append(
                game=game,
                user=user,
                expected_seq=expected_seq,
                events=events,
                correct=correct,
                min_role=min_role,
                idempotency_key=idempotency_key,
                on_written=written,
            )
        )

    with transaction.atomic():
        game_id = game if isinstance(game, int) else game.pk
        stored = selectors.game_event_rows(game_id=game_id)
        if len(stored) != expected_seq:
            # Moved on (or a retry of a stored request): the append refuses it, as any.
            return append([replacement], index)
        try:
            # The append's own transaction is a savepoint here: refused, this one goes on.
            return append([replacement], index)
        except EngineRejected as error:
            at = int(error.error.get("index", -1))
            # The corrected record: the stored events, the undos, the replacement, then
            # the later entries again. Refused at one of those later entries: stop there.
            recorded = [to_event(row.type, row.payload, row.schema_version) for row in stored]
            events = corrected_events(stored=recorded, index=index, replacement=replacement)
            undos = next(i for i, event in enumerate(events) if event.get("type") != "undo")
            first_later = expected_seq + undos + 1
            if at < first_later:
                raise  # the replacement itself (or an undo) is refused
            cut = at - expected_seq
            return append(
                events[:cut], None, misfit=events[cut], error=error.error, left_out=events[cut:]
            )
