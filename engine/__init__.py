"""Stichbuch's rules engine for Fuchsen and Gradener Königrufen (pure standard library).

See ``engine/README.md`` for the API and ``shared/spec/`` for the rules.
"""

from __future__ import annotations

from engine.rules import GAMES, HouseRule, InvalidRules, house_rules, validate_rules

__all__ = [
    "GAMES",
    "HouseRule",
    "InvalidRules",
    "house_rules",
    "validate_rules",
]
