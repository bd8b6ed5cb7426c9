"""The games tests' table (five players, an evening, a dealt game), for the security tests."""

from __future__ import annotations

from tests.games.conftest import as_ids, dealt_game, evening, players

__all__ = ["as_ids", "dealt_game", "evening", "players"]
