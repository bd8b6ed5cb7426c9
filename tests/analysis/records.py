"""A played-out deal with a turning point, for the analysis tests: shared example 05's
cards at a table of five (no one sits out). The Macher's side (dora, carl) loses 43 : 78;
under best play it would have made 69 until dora's ``EU`` in trick 2 (best: ``S9``)."""

from __future__ import annotations

from typing import Any

LOST_IN_TRICK_2: dict[str, Any] = {
    "game": "fuchsen",
    "events": [
        {
            "type": "deal",
            "dealer": "anna",
            "players": ["anna", "bert", "carl", "dora", "emil"],
            "hands": {
                "dora": ["EO", "EU", "GU", "SA", "S9", "E7"],
                "carl": ["GO", "S10", "SU", "RU", "EA", "E10"],
                "bert": ["RA", "R10", "RK", "GA", "G10", "GK"],
                "emil": ["RO", "R9", "R8", "EK", "E9", "E8"],
                "anna": ["R7", "SK", "SO", "S8", "G9", "G8"],
            },
        },
        {"type": "call", "player": "dora", "card": "S10"},
        {"type": "play", "player": "bert", "card": "GA"},
        {"type": "raise", "player": "bert", "level": "kontra"},
        {"type": "play", "player": "carl", "card": "GO", "fuchs": True},
        {"type": "raise", "player": "carl", "level": "re"},
        {"type": "play", "player": "dora", "card": "EO"},
        {"type": "play", "player": "emil", "card": "R8"},
        {"type": "play", "player": "anna", "card": "G8"},
        {"type": "end_raising"},
        {"type": "play", "player": "dora", "card": "EU"},
        {"type": "play", "player": "emil", "card": "R9"},
        {"type": "play", "player": "anna", "card": "R7"},
        {"type": "play", "player": "bert", "card": "RK"},
        {"type": "play", "player": "carl", "card": "RU"},
        {"type": "play", "player": "dora", "card": "GU"},
        {"type": "play", "player": "emil", "card": "RO"},
        {"type": "play", "player": "anna", "card": "S8"},
        {"type": "play", "player": "bert", "card": "R10"},
        {"type": "play", "player": "carl", "card": "SU"},
        {"type": "play", "player": "dora", "card": "SA"},
        {"type": "play", "player": "emil", "card": "E8"},
        {"type": "play", "player": "anna", "card": "SO"},
        {"type": "play", "player": "bert", "card": "RA"},
        {"type": "play", "player": "carl", "card": "S10"},
        {"type": "play", "player": "bert", "card": "G10"},
        {"type": "play", "player": "carl", "card": "E10"},
        {"type": "play", "player": "dora", "card": "S9"},
        {"type": "play", "player": "emil", "card": "E9"},
        {"type": "play", "player": "anna", "card": "G9"},
        {"type": "play", "player": "bert", "card": "GK"},
        {"type": "play", "player": "carl", "card": "EA"},
        {"type": "play", "player": "dora", "card": "E7"},
        {"type": "play", "player": "emil", "card": "EK"},
        {"type": "play", "player": "anna", "card": "SK"},
    ],
}
