"""Small legal records for the recording tests (from shared/examples 01 and 18).

Names are lower-case display names; ``tests.games.factories.ids`` turns them into
the player ids the service stores.
"""

from __future__ import annotations

from typing import Any

HANDS = {
    "bert": ["EO", "GO", "EU", "GU", "SU", "EA"],
    "carl": ["RU", "RA", "E10", "GA", "G10", "GK"],
    "dora": ["R10", "RK", "EK", "SA", "S10", "SK"],
    "emil": ["RO", "R9", "E9", "G9", "G8", "SO"],
    "anna": ["R8", "R7", "E8", "E7", "S9", "S8"],
}

DEAL: dict[str, Any] = {
    "type": "deal",
    "dealer": "anna",
    "players": ["anna", "bert", "carl", "dora", "emil"],
    "hands": HANDS,
}

# After the deal: bert calls E10, the first trick, nobody says kontra -> bert's side wins 10.
NO_KONTRA: list[dict[str, Any]] = [
    {"type": "call", "player": "bert", "card": "E10"},
    {"type": "play", "player": "bert", "card": "EO"},
    {"type": "play", "player": "carl", "card": "RA"},
    {"type": "play", "player": "dora", "card": "R10"},
    {"type": "play", "player": "emil", "card": "R9"},
    {"type": "play", "player": "anna", "card": "R7"},
    {"type": "end_raising"},
]
NO_KONTRA_PAYOUTS = {"anna": -10, "bert": 20, "carl": 10, "dora": -10, "emil": -10}

# carl plays RK, which the deal gave to dora: card_not_in_hand at index 3 of the record.
ILLEGAL_PLAY: list[dict[str, Any]] = [
    {"type": "call", "player": "bert", "card": "E10"},
    {"type": "play", "player": "bert", "card": "EO"},
    {"type": "play", "player": "carl", "card": "RK"},
]


def record(events: list[dict[str, Any]], game: str = "fuchsen") -> dict[str, Any]:
    return {"game": game, "events": [DEAL, *events]}


# shared/examples/04: kontra (dora) and re (carl), played out; bert's side wins 96 : 25.
RE_PLAYED_OUT: dict[str, Any] = {
    "game": "fuchsen",
    "events": [
        {
            "type": "deal",
            "dealer": "anna",
            "players": ["anna", "bert", "carl", "dora", "emil"],
            "hands": {
                "bert": ["EO", "GO", "EU", "GU", "SU", "E7"],
                "carl": ["RU", "RA", "E10", "GA", "G10", "GK"],
                "dora": ["R10", "RK", "EK", "SA", "S10", "SK"],
                "emil": ["RO", "R9", "E9", "G9", "G8", "SO"],
                "anna": ["R8", "R7", "E8", "EA", "S9", "S8"],
            },
        },
        {"type": "call", "player": "bert", "card": "E10"},
        {"type": "play", "player": "bert", "card": "EO"},
        {"type": "play", "player": "carl", "card": "RA"},
        {"type": "play", "player": "dora", "card": "R10"},
        {"type": "raise", "player": "dora", "level": "kontra"},
        {"type": "raise", "player": "carl", "level": "re"},
        {"type": "play", "player": "emil", "card": "R9"},
        {"type": "play", "player": "anna", "card": "R7"},
        {"type": "end_raising"},
        *[
            {"type": "play", "player": p, "card": c}
            for p, c in [
                ("bert", "GO"),
                ("carl", "RU"),
                ("dora", "RK"),
                ("emil", "RO"),
                ("anna", "R8"),
                ("bert", "EU"),
                ("carl", "GK"),
                ("dora", "SK"),
                ("emil", "G8"),
                ("anna", "S8"),
                ("bert", "GU"),
                ("carl", "G10"),
                ("dora", "S10"),
                ("emil", "G9"),
                ("anna", "S9"),
                ("bert", "SU"),
                ("carl", "GA"),
                ("dora", "SA"),
                ("emil", "SO"),
                ("anna", "E8"),
                ("bert", "E7"),
                ("carl", "E10"),
                ("dora", "EK"),
                ("emil", "E9"),
                ("anna", "EA"),
            ]
        ],
    ],
}
RE_PLAYED_OUT_PAYOUTS = {"anna": -20, "bert": 40, "carl": 20, "dora": -20, "emil": -20}
