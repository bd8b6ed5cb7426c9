"""Who removed what: the ``undo`` stack of a record, event by event (for a game's history).

The rule is written here once: ``prepare`` (``engine.replay``) keeps the events it
does not remove as the effective events, and a history marks each removed event with
the ``undo`` that removed it.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["undo_targets"]


def undo_targets(events: Sequence[object]) -> tuple[dict[int, int], int]:
    """``({removed index: index of the undo that removed it}, failing undo index or -1)``.

    Each ``undo`` removes the latest earlier event that is not an ``undo`` and not
    removed yet; an ``undo`` with nothing left to remove is the record's
    ``nothing_to_undo`` error, and the events from it on are not read (as the
    replay stops there).
    """
    kept: list[int] = []
    removed: dict[int, int] = {}
    for index, event in enumerate(events):
        if isinstance(event, dict) and event.get("type") == "undo":
            if not kept:
                return removed, index
            removed[kept.pop()] = index
        else:
            kept.append(index)
    return removed, -1
