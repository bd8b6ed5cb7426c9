"""Limits on what the API and the import page accept, checked before anything is judged
or stored: sizes of events and records, ids, sequence numbers, NUL characters."""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from stichbuch.parsers import json_problem

MAX_EVENTS_PER_REQUEST = 200
MAX_EVENT_BYTES = 4096
MAX_IDEMPOTENCY_KEY = 255
# Ids beyond a signed 64-bit integer are no ids of ours (and SQLite cannot even compare them).
MAX_ID = 2**63 - 1
MAX_SEQ = 2**31 - 1


def json_size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str).encode())


def has_nul(value: Any) -> bool:
    """True if a NUL character hides in any string or key (PostgreSQL's jsonb refuses it)."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(has_nul(k) or has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_nul(v) for v in value)
    return False


def check_import_records(records: list[Any]) -> None:
    """The limits of imported records, the API's and the import page's: no deeper
    than ``MAX_JSON_DEPTH``, valid Unicode, no NUL character, each of bounded size.

    Raises ``ValidationError`` (``records``: the first problem) before anything is
    judged or stored.
    """
    problem = json_problem(records)
    if problem is not None:
        raise ValidationError({"records": [problem]})
    for i, record in enumerate(records):
        if has_nul(record):
            raise ValidationError(
                {"records": [_("Record %(i)d contains a NUL character.") % {"i": i}]}
            )
        if json_size(record) > MAX_EVENT_BYTES * (MAX_EVENTS_PER_REQUEST // 4):
            raise ValidationError({"records": [_("Record %(i)d is too large.") % {"i": i}]})
