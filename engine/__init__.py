"""Stichbuch's rules engine for Fuchsen and Gradener Königrufen (pure standard library).

``replay(record)`` judges a game record and returns a ``Result``; ``table_view(record)``
describes the table after it (whose turn, what is legal); ``analyse(record)`` gives the
double-dummy analysis of its card play. See ``engine/README.md``.
"""

from __future__ import annotations

from engine.analysis import TooCostly, analyse
from engine.errors import Code, Msg
from engine.replay import replay
from engine.result import ERROR_CODES, EngineError, Result
from engine.rules import GAMES, HouseRule, InvalidRules, house_rules, validate_rules
from engine.statistics import GameFacts, Raises, game_facts
from engine.view import CallOptions, Legal, TableView, TrickView, table_view

__all__ = [
    "ERROR_CODES",
    "GAMES",
    "CallOptions",
    "Code",
    "EngineError",
    "GameFacts",
    "HouseRule",
    "InvalidRules",
    "Legal",
    "Msg",
    "Raises",
    "Result",
    "TableView",
    "TooCostly",
    "TrickView",
    "analyse",
    "game_facts",
    "house_rules",
    "replay",
    "table_view",
    "validate_rules",
]
