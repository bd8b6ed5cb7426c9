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
    }

Nothing here judges a card: every figure is the engine's.
"""

from __future__ import annotations

from typing import Any


def figures(record: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    """The figures of an analysed record (``answer["status"] == "analysed"``)."""
    from engine import analysis as engine_analysis

    return dict(engine_analysis.figures(record, answer))
