"""Idempotency keys' stored answers: the two statements the API's retries need.

When a request is answered from its key and when its answer is stored is decided at
the API's edge (``games.apis.idempotency``); here are only the reads and the write
of ``IdempotencyRecord``, and the error a reused key is.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.errors import IdempotencyKeyReused
from games.models import IdempotencyRecord


def key_reused() -> IdempotencyKeyReused:
    """The error for a key that answered a different request (a 422)."""
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
        raise key_reused()
    return stored


def idempotency_answer_store(
    *, user: Any, key: str, fingerprint: str, status: int, body: Any
) -> None:
    """Store the answer to the request ``fingerprint`` under ``user``'s ``key``, inside the
    caller's transaction (the one that wrote what the answer says).

    A key stored meanwhile by another request breaks its unique (user, key): an
    ``IntegrityError`` that ``is_key_conflict`` recognises, and the caller's
    transaction rolls back.
    """
    IdempotencyRecord.objects.create(
        user_id=user.pk,
        key=key,
        fingerprint=fingerprint,
        response_status=status,
        response_body=body,
    )


def is_key_conflict(error: Exception) -> bool:
    """True if ``error`` is the (user, key) unique constraint of the idempotency records."""
    text = str(error)
    return "games_idempotency_unique_key" in text or IdempotencyRecord._meta.db_table in text
