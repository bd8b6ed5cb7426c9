"""Fixtures of the live tests: the games tests' Fuchsen table of five."""

from __future__ import annotations

from tests.games.conftest import as_ids, dealt_game, evening, players  # noqa: F401
