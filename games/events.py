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
