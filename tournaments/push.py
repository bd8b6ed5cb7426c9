"""A tournament's own live messages, through the live app's hub (``live.push.HUB``).

A table's games already push "evening N changed" for its evening. Draws,
confirmations, joins and the close are pushed on the tournament's own channel,
its id negated: a number no evening has, carried by the same hub (and Redis).
"""

from __future__ import annotations

from django.db import transaction

from live.push import HUB


def channel(tournament_id: int) -> int:
    """The hub's number for a tournament's own messages (evenings have positive ids)."""
    return -tournament_id


def tournament_changed_push(tournament_id: int) -> None:
    """Tell the tournament's ranking streams to read anew once the transaction commits."""
    transaction.on_commit(lambda: HUB.publish(channel(tournament_id)))
