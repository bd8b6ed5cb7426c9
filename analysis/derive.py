"""The figures the pages show, derived from the engine's answer by the engine's functions.

``figures(record, answer)`` returns (stored in ``GameAnalysis.figures``)::

    {
      "game": "fuchsen" | "koenigrufen",
      "side": [player ids],               # whose goal the value measures
      "contract": str | None,             # the contract (Königrufen) or partner/alone
      "start": value before the first analysed card,
      "total", "goal": Fuchsen: the Augen of a deal and the Augen that win it (121, 61),
      "cards": [{"index", "player", "card", "before", "after", "best",   # the answer's
                 "trick": int,            # the trick the card was played to (1-6)
                 "forced": bool,          # it was the player's only legal card
                 "is_best": bool,         # the card is among ``best``
                 "cost": int,             # Augen his side gave away with it (Fuchsen; else 0)
                 "own_side": bool,        # the player is on ``side``
                 "turning": bool}],       # the outcome under best play changed with it
      "lost_at": position in ``cards`` where the game was lost, or None,
      "raising": {"value": int, "raises": [{"player", "level", "right": bool}]} | None,
      "higher_contracts": [contract, ...] | None,   # Königrufen: made alone as well
      "players": {player: {"cards", "best", "given_away"}},  # the engine's player_figures
    }

Nothing here judges a card: every figure is the engine's.
"""

from __future__ import annotations

from typing import Any

from engine import analysis as engine_analysis
from engine.fuchsen import AUGEN


def figures(
    record: dict[str, Any], answer: dict[str, Any], *, contract: str | None = None
) -> dict[str, Any]:
    """The figures of an analysed record (``answer["status"] == "analysed"``);
    ``contract``: the game's contract as its result says (named on the page)."""
    fuchsen = answer["game"] == "fuchsen"
    side = set(answer["side"])
    turning = {entry["index"] for entry in engine_analysis.turning_points(answer)}
    cards = [
        {
            "index": entry["index"],
            "player": entry["player"],
            "card": entry["card"],
            "before": entry["before"],
            "after": entry["after"],
            "best": list(entry["best"]),
            "trick": entry["trick"],
            "forced": entry["forced"],
            "is_best": entry["card"] in entry["best"],
            "cost": engine_analysis.card_cost(answer, entry),
            "own_side": entry["player"] in side,
            "turning": entry["index"] in turning,
        }
        for entry in answer["cards"]
    ]
    lost = engine_analysis.lost_at(answer)
    lost_at = next(
        (k for k, card in enumerate(cards) if lost is not None and card["index"] == lost["index"]),
        None,
    )
    raising = None
    value = engine_analysis.value_after_raising(answer) if fuchsen else None
    if value is not None:
        raising = {
            "value": value,
            "raises": [
                {"player": said["player"], "level": said["level"], "right": said["right"]}
                for said in engine_analysis.raises_judged(answer, record)
            ],
        }
    return {
        "game": answer["game"],
        "side": sorted(side),
        "contract": contract,
        "start": cards[0]["before"] if cards else None,
        "total": sum(AUGEN) if fuchsen else None,
        "goal": engine_analysis.WINNING_AUGEN if fuchsen else None,
        "cards": cards,
        "lost_at": lost_at,
        "raising": raising,
        "higher_contracts": (
            engine_analysis.higher_contracts(answer) if "higher_contracts" in answer else None
        ),
        "players": engine_analysis.player_figures(answer),
    }
