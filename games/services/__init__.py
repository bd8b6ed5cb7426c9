"""Writes of the games app: keyword-only functions, each one transaction.

They raise Django's ``ValidationError`` for input a user can get wrong (400) and
the errors of ``games.errors`` for conflicts (409) and engine rejections (422).
Permission to call them is checked by the caller (``clubs.permissions``), but for the
append, which reads the role with its lock and decides with ``require_role``. What a
request's answer is, and a retry's (``Idempotency-Key``), is the API's
(``games.apis``); the append only takes a callback to store it in its transaction.

The engine decides what is legal: the services never judge an event
themselves, they replay the stored events plus the new ones and store the new
ones only if the whole record is still valid.
"""

from games.services.append import (
    Appended,
    Judged,
    game_append_check,
    game_events_append,
    game_events_judge,
)
from games.services.correction import corrected_events
from games.services.evenings import (
    evening_close,
    evening_create,
    evening_delete,
    evening_lock,
    evening_reopen,
    evening_seat_add,
    evening_seat_remove,
)
from games.services.idempotency import (
    idempotency_answer_store,
    idempotency_lookup,
    is_key_conflict,
    key_reused,
)
from games.services.import_judging import ImportOutcome, _renamed_record
from games.services.importing import IMPORT_BATCH, MAX_IMPORT_RECORDS, games_import
from games.services.recording import DONE_STATUSES, EVENT_FIELDS
from games.services.result_change import Replaced, game_entry_replace, game_result_reenter
from games.services.start import Started, game_start, game_started

__all__ = [
    "DONE_STATUSES",
    "EVENT_FIELDS",
    "IMPORT_BATCH",
    "MAX_IMPORT_RECORDS",
    "Appended",
    "ImportOutcome",
    "Judged",
    "Replaced",
    "Started",
    "_renamed_record",
    "corrected_events",
    "evening_close",
    "evening_create",
    "evening_delete",
    "evening_lock",
    "evening_reopen",
    "evening_seat_add",
    "evening_seat_remove",
    "game_append_check",
    "game_entry_replace",
    "game_events_append",
    "game_events_judge",
    "game_result_reenter",
    "game_start",
    "game_started",
    "games_import",
    "idempotency_answer_store",
    "idempotency_lookup",
    "is_key_conflict",
    "key_reused",
]
