"""``Idempotency-Key`` at the API's edge: a retried request gets the first answer back.

The services write; whether a request was already answered, what its answer is and
when it is stored are decided here, around them. Two shapes:

- ``answered_once`` for the append (``game_events_append``), which takes the game's
  lock itself: the answer is stored by the service's ``on_written`` callback, in the
  append's own transaction, and a refusal is answered from the key if the original
  committed meanwhile;
- ``idempotent_call`` for a start or an import, which lock the evening: the key is
  looked up under that lock, in one transaction around the work.

Only successful answers are stored: an error wrote nothing, so a retry may simply try
again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from games import services
from games.errors import GamesError

T = TypeVar("T")


@dataclass(frozen=True)
class IdempotentAnswer:
    """An answer (status and JSON body); ``replayed``: the one stored for the key."""

    status: int
    body: Any
    replayed: bool


def request_fingerprint(*, method: str, path: str, body: Any) -> str:
    """sha256 of the method, the path and the body (canonical JSON)."""
    canonical = json.dumps(
        body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    )
    return hashlib.sha256(f"{method.upper()}\n{path}\n{canonical}".encode()).hexdigest()


def _stored_answer(*, user: Any, key: str, fingerprint: str) -> IdempotentAnswer | None:
    """The answer stored for this request's key (replayed), or None if the key is new.
    Raises ``IdempotencyKeyReused`` if it answered a different request."""
    stored = services.idempotency_lookup(user=user, key=key, fingerprint=fingerprint)
    if stored is None:
        return None
    return IdempotentAnswer(status=stored.response_status, body=stored.response_body, replayed=True)


def answered_once(
    *,
    user: Any,
    key: str | None,
    fingerprint: str,
    write: Callable[[Callable[[T], object] | None], T],
    answer: Callable[[T], Any],
    status: int,
) -> IdempotentAnswer:
    """Run ``write`` (a service taking an ``on_written`` callback) and answer it once per
    (user, key): ``answer`` turns what it wrote into the body.

    With a key, ``write`` gets a callback that stores the answer inside the service's
    transaction, under its lock: the answer commits with what it says or not at all.
    A retry of a committed request finds the game moved on (the service refuses it:
    a conflict, a closed evening, bad input); the refusal came after the service's
    lock, which waited for the original if it was still running, so its answer is
    committed now and is given instead. A key stored meanwhile by a different request
    is refused by its unique (user, key): everything rolls back,
    ``IdempotencyKeyReused``. No statement is spent on the key before the write: a
    first request (nearly all) costs the answer's insert alone.
    """
    if key is None:
        return IdempotentAnswer(status=status, body=answer(write(None)), replayed=False)
    bodies: list[Any] = []

    def store(written: T) -> None:
        body = answer(written)
        services.idempotency_answer_store(
            user=user, key=key, fingerprint=fingerprint, status=status, body=body
        )
        bodies.append(body)

    try:
        write(store)
    except (GamesError, ValidationError):
        replayed = _stored_answer(user=user, key=key, fingerprint=fingerprint)
        if replayed is not None:
            return replayed
        raise
    except IntegrityError as error:
        if services.is_key_conflict(error):
            raise services.key_reused() from None
        raise
    return IdempotentAnswer(status=status, body=bodies[0], replayed=False)


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

    ``lock`` takes the row lock ``work`` will take anyway (e.g. the evening's row);
    the key is looked up again under it, so a retry racing its original waits for it
    and then gets its answer instead of a 409.

    ``look_before_lock=False`` skips the first look (one query less) where ``lock``
    never refuses (so a retry only waits for the lock, whatever it finds) and
    ``work`` runs right after it in the same transaction.

    Without a key there is nothing to store: ``work`` runs as it is, in the
    transactions of its own services (no enclosing transaction, so their ``atomic``
    blocks are not savepoints). With a key, in one transaction.
    """
    if key is None:
        status, body = work()
        return IdempotentAnswer(status=status, body=body, replayed=False)
    with transaction.atomic():
        stored = (
            _stored_answer(user=user, key=key, fingerprint=fingerprint)
            if look_before_lock
            else None
        )
        if stored is None:
            lock()
            stored = _stored_answer(user=user, key=key, fingerprint=fingerprint)
        if stored is not None:
            return stored
        status, body = work()
        services.idempotency_answer_store(
            user=user, key=key, fingerprint=fingerprint, status=status, body=body
        )
        return IdempotentAnswer(status=status, body=body, replayed=False)
