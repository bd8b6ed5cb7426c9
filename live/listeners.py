"""The live app's listener to the games app (``games.listeners``, the one seam upwards).

Registered in ``LiveConfig.ready``: an evening that changed is pushed to its live
views once the transaction commits; a close or reopen is put on record as well.
"""

from __future__ import annotations

from typing import Any

from games.listeners import GamesListener
from games.models import Evening
from live.push import evening_changed_push
from live.services import evening_changed


class LiveListener(GamesListener):
    """Tells an evening's live views that it changed."""

    def evening_changed(self, *, evening_id: int) -> None:
        evening_changed_push(evening_id)

    def evening_closed_or_reopened(self, *, evening: Evening, kind: str, user: Any) -> None:
        evening_changed(evening=evening, kind=kind, user=user)
