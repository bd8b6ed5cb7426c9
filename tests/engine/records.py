"""Small builders for hand-written records, so each test states only what matters."""

from __future__ import annotations

from typing import Any

from engine import Result, replay

FIVE = ["anna", "bert", "carl", "dora", "emil"]
FOUR = ["anna", "bert", "carl", "dora"]

# Example 01's deal: bert holds EO (the Macher), carl E10, nobody but bert GO.
HANDS5 = {
    "bert": ["EO", "GO", "EU", "GU", "SU", "EA"],
    "carl": ["RU", "RA", "E10", "GA", "G10", "GK"],
    "dora": ["R10", "RK", "EK", "SA", "S10", "SK"],
    "emil": ["RO", "R9", "E9", "G9", "G8", "SO"],
    "anna": ["R8", "R7", "E8", "E7", "S9", "S8"],
}
# Example 22's Königrufen deal: bert leads the aces and kings.
HANDS4 = {
    "bert": ["EA", "EK", "GA", "GK", "RA", "RK"],
    "carl": ["EO", "EU", "GO", "GU", "SA", "SK"],
    "dora": ["E10", "E9", "G10", "G9", "SO", "SU"],
    "anna": ["RO", "RU", "R10", "R9", "S10", "S9"],
}


def deal(
    players: list[str] | None = None,
    dealer: str = "anna",
    hands: dict[str, list[str]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "deal", "dealer": dealer, "players": players or FIVE}
    if hands is not None:
        event["hands"] = hands
    event.update(extra)
    return event


def plays(text: str) -> list[dict[str, Any]]:
    """``"bert:EO carl:RA"`` -> two play events."""
    out = []
    for item in text.split():
        player, card = item.split(":")
        out.append({"type": "play", "player": player, "card": card})
    return out


def play(player: str, card: str, **extra: Any) -> dict[str, Any]:
    return {"type": "play", "player": player, "card": card, **extra}


def call(player: str, card: str | None = None, **extra: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "call", "player": player}
    if card is not None:
        event["card"] = card
    event.update(extra)
    return event


def raise_(player: str, level: str) -> dict[str, Any]:
    return {"type": "raise", "player": player, "level": level}


END = {"type": "end_raising"}
UNDO = {"type": "undo"}


def bid(player: str, contract: str, **extra: Any) -> dict[str, Any]:
    return {"type": "bid", "player": player, "contract": contract, **extra}


def pass_(player: str) -> dict[str, Any]:
    return {"type": "pass", "player": player}


def join(player: str, **extra: Any) -> dict[str, Any]:
    return {"type": "join", "player": player, **extra}


def show(player: str, *cards: str) -> dict[str, Any]:
    return {"type": "show", "player": player, "cards": list(cards)}


def forfeit(player: str) -> dict[str, Any]:
    return {"type": "forfeit", "player": player}


def record(game: str, *events: Any, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    flat: list[Any] = []
    for event in events:
        if isinstance(event, list):
            flat.extend(event)
        else:
            flat.append(event)
    out: dict[str, Any] = {"game": game, "events": flat}
    if rules is not None:
        out["rules"] = rules
    return out


def fuchsen(*events: Any, rules: dict[str, Any] | None = None) -> Result:
    return replay(record("fuchsen", *events, rules=rules))


def koenig(*events: Any, rules: dict[str, Any] | None = None) -> Result:
    return replay(record("koenigrufen", *events, rules=rules))


def error_of(result: Result) -> tuple[int, str]:
    assert result.status == "invalid", result.to_dict()
    assert result.error is not None
    return result.error.index, result.error.code


# The first trick of example 01 (bert leads EO; everyone follows with a trump).
TRICK1 = plays("bert:EO carl:RA dora:R10 emil:R9 anna:R7")
# Tricks 2-6 of example 04/07, after bert won trick 1 (requires kontra and re).
REST = plays(
    "bert:GO carl:RU dora:RK emil:RO anna:R8 "
    "bert:EU carl:GK dora:SK emil:G8 anna:S8 "
    "bert:GU carl:G10 dora:S10 emil:G9 anna:S9 "
    "bert:SU carl:GA dora:SA emil:SO anna:E7 "
    "bert:EA carl:E10 dora:EK emil:E9 anna:E8"
)
