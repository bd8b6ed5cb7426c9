"""Stored event payloads: their schema version and the upcasters for old ones.

A ``GameEvent`` stores an event as ``type`` + ``payload`` (the event object
without its ``type``) + ``schema_version``. The engine only ever sees the
current shape: reading an event runs it through every upcaster from its
stored version up to ``CURRENT_SCHEMA_VERSION``. Stored rows are never
rewritten (the store is append-only), so an upcaster must stay here for as
long as rows of its version exist.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

CURRENT_SCHEMA_VERSION = 1

# UPCASTERS[n] turns a payload of version n into one of version n + 1:
# ``(event_type, payload) -> payload``. Version 1 is the first; nothing to upcast yet.
Upcaster = Callable[[str, dict[str, Any]], dict[str, Any]]
UPCASTERS: dict[int, Upcaster] = {}


def upcast(event_type: str, payload: dict[str, Any], schema_version: int) -> dict[str, Any]:
    """Return ``payload`` in the current schema version (a new dict; the input is untouched)."""
    current = dict(payload)
    for version in range(schema_version, CURRENT_SCHEMA_VERSION):
        current = UPCASTERS[version](event_type, current)
    return current


def to_event(event_type: str, payload: dict[str, Any], schema_version: int) -> dict[str, Any]:
    """The record's event object: ``{"type": ..., **payload}`` in the current version."""
    return {"type": event_type, **upcast(event_type, payload, schema_version)}


def split_event(event: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Split a record's event object into the stored ``type`` and ``payload``."""
    payload = {key: value for key, value in event.items() if key != "type"}
    event_type = event.get("type")
    return (event_type if isinstance(event_type, str) else ""), payload


def _renamed(value: Any, names: dict[str, str], key: str) -> Any:
    if key in ("player", "dealer", "sitting_out", "partner") and isinstance(value, str):
        return names.get(value, value)
    if key in ("players", "losers") and isinstance(value, list):
        return [names.get(v, v) if isinstance(v, str) else v for v in value]
    if key == "hands" and isinstance(value, dict):
        return {names.get(k, k): v for k, v in value.items()}
    return value


def renamed_events(events: list[Any], names: dict[str, str]) -> list[Any]:
    """``events`` with the players renamed by ``names`` in every field that names one
    (``player``, ``dealer``, ``sitting_out``, ``players``, the keys of ``hands``, a
    tally's ``partner`` and ``losers``).

    Names not in ``names`` and anything that is not an event object stay as they
    are (the engine judges them later); the input is untouched.
    """
    return [
        {k: _renamed(v, names, k) for k, v in event.items()} if isinstance(event, dict) else event
        for event in events
    ]
