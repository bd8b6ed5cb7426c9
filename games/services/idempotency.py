"""Idempotency keys: a retried request gets the stored answer instead of a second write."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import (
    IdempotencyKeyReused,
)
from games.models import IdempotencyRecord

# --- Idempotency ----------------------------------------------------------------------------


def request_fingerprint(*, method: str, path: str, body: Any) -> str:
    """sha256 of the method, the path and the body (canonical JSON)."""
    canonical = json.dumps(
        body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    )
    return hashlib.sha256(f"{method.upper()}\n{path}\n{canonical}".encode()).hexdigest()


def _key_reused() -> IdempotencyKeyReused:
    return IdempotencyKeyReused(
        _(
            "This Idempotency-Key was already used for a different request; "
            "use a new key for a new request."
        )
    )


def idempotency_lookup(*, user: Any, key: str, fingerprint: str) -> IdempotencyRecord | None:
    """The stored answer to this request, or None if the key is new.

    Raises ``IdempotencyKeyReused`` if the key answered a different request.
    """
    stored = IdempotencyRecord.objects.filter(user_id=user.pk, key=key).order_by().first()
    if stored is not None and stored.fingerprint != fingerprint:
        raise _key_reused()
    return stored


@dataclass(frozen=True)
class IdempotentAnswer:
    status: int
    body: Any
    replayed: bool


def idempotent_call(
    *,
    user: Any,
    key: str | None,
    fingerprint: str,
    lock: Callable[[], object],
    work: Callable[[], tuple[int, Any]],
    look_before_lock: bool = True,
) -> IdempotentAnswer:
    """Run ``work`` once per (user, key): a retry gets the first answer back.

    ``lock`` takes the row lock ``work`` will take anyway (e.g. the game row);
    the key is looked up again under it, so a retry racing its original waits
    for it and then gets its answer instead of a 409. Only successful answers
    are stored: an error wrote nothing, so a retry may simply try again.

    ``look_before_lock=False`` skips the first look (one query less) where
    ``lock`` never refuses (so a retry only waits for the lock, whatever it
    finds) and ``work`` runs right after it in the same transaction.

    Without a key there is nothing to store: ``work`` runs as it is, in the
    transactions of its own services (no enclosing transaction, so their
    ``atomic`` blocks are not savepoints). With a key, in one transaction.
    """
    if key is None:
        status, body = work()
        return IdempotentAnswer(status=status, body=body, replayed=False)
    with transaction.atomic():
        return _idempotent_call_keyed(
            user=user,
            key=key,
            fingerprint=fingerprint,
            lock=lock,
            work=work,
            look_before_lock=look_before_lock,
        )


def _idempotent_call_keyed(
    *,
    user: Any,
    key: str,
    fingerprint: str,
    lock: Callable[[], object],
    work: Callable[[], tuple[int, Any]],
    look_before_lock: bool,
) -> IdempotentAnswer:
    stored = (
        idempotency_lookup(user=user, key=key, fingerprint=fingerprint)
        if look_before_lock
        else None
    )
    if stored is None:
        lock()
        stored = idempotency_lookup(user=user, key=key, fingerprint=fingerprint)
    if stored is not None:
        return IdempotentAnswer(
            status=stored.response_status, body=stored.response_body, replayed=True
        )
    status, body = work()
    IdempotencyRecord.objects.create(
        user_id=user.pk,
        key=key,
        fingerprint=fingerprint,
        response_status=status,
        response_body=body,
    )
    return IdempotentAnswer(status=status, body=body, replayed=False)


def _stored_answer(*, user: Any, key: str, fingerprint: str) -> IdempotentAnswer | None:
    """The answer stored for this request's key (replayed), or None if the key is new."""
    stored = idempotency_lookup(user=user, key=key, fingerprint=fingerprint)
    if stored is None:
        return None
    return IdempotentAnswer(status=stored.response_status, body=stored.response_body, replayed=True)


def _is_key_conflict(error: Exception) -> bool:
    """True if ``error`` is the (user, key) unique constraint of the idempotency records."""
    text = str(error)
    return "games_idempotency_unique_key" in text or IdempotencyRecord._meta.db_table in text
