"""The games tests' table (five players, an evening, a dealt game), and a clean cache.

The cache holds DRF's throttle counts and axes' nothing (axes uses the database);
it is cleared after every test here, so the login requests these tests send
never throttle another test.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache

from tests.games.conftest import as_ids, dealt_game, evening, players

__all__ = ["as_ids", "dealt_game", "evening", "players"]


@pytest.fixture(autouse=True)
def _clear_the_cache() -> Iterator[None]:
    yield
    cache.clear()
