"""Correcting an entry found wrong in hindsight: the events that undo back to it, then redo it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.errors import (
    GamesError,
)


def corrected_events(
    *, stored: list[dict[str, Any]], index: int, replacement: dict[str, Any]
) -> list[dict[str, Any]]:
    """The events that put ``replacement`` in place of the record's event ``index``.

    ``stored``: the record's events as stored (undos included); ``index`` a position
    in it, as the engine's errors name them. Appended to the record, the answer undoes
    every standing event back to and including that one, appends ``replacement`` and
    then the later standing events again, in their order: the same record with that
    one entry corrected, each step on record. Raises ``GamesError`` if ``index`` is no
    standing event (out of range, an undo, or one an undo took back) or is the deal.
    """
    standing: list[int] = []  # positions of the standing events, as ``undo`` leaves them
    for i, event in enumerate(stored):
        if event.get("type") == "undo":
            if standing:
                standing.pop()
        else:
            standing.append(i)
    if index not in standing:
        raise GamesError(
            _("That entry is not part of the game as it stands: it cannot be corrected.")
        )
    if stored[index].get("type") == "deal" or replacement.get("type") == "deal":
        raise GamesError(_("The deal is not corrected this way: undo back to it instead."))
    at = standing.index(index)
    later = [dict(stored[i]) for i in standing[at + 1 :]]
    undos: list[dict[str, Any]] = [{"type": "undo"} for _i in standing[at:]]
    return [*undos, dict(replacement), *later]
