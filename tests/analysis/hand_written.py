"""Analyses written by hand in the spec's format, for the pages' and the API's tests
(the task's tests use the engine itself).

``fuchsen_figures`` lays out shared example 04 as if the engine had found that
carl's ``GK`` in trick 3 cost his side 7 Augen (64 → 57, ``G10`` best) and every
card of the last trick was forced.
"""

from __future__ import annotations

from typing import Any

from analysis.models import GameAnalysis, PlayerCardFigures
from clubs.models import Player
from games.models import Game
from tests.games import records


def _plays() -> list[tuple[int, str, str]]:
    return [
        (index, event["player"], event["card"])
        for index, event in enumerate(records.RE_PLAYED_OUT["events"])
        if event["type"] == "play"
    ]


def fuchsen_figures(players: dict[str, Player]) -> dict[str, Any]:
    pid = {name: str(p.pk) for name, p in players.items()}
    cards: list[dict[str, Any]] = []
    value, lost_at = 64, None
    for position, (index, player, card) in enumerate(_plays()):
        trick = position // 5 + 1
        before = value
        entry: dict[str, Any] = {
            "index": index,
            "player": pid[player],
            "card": card,
            "trick": trick,
            "before": before,
            "after": before,
            "best": [card],
            "forced": trick == 6,
            "is_best": True,
            "cost": 0,
            "own_side": player in ("bert", "carl"),
            "turning": False,
        }
        if player == "carl" and card == "GK":
            value = 57
            lost_at = position
            entry.update(after=57, best=["G10"], is_best=False, cost=7, turning=True)
        cards.append(entry)
    return {
        "game": "fuchsen",
        "side": sorted([pid["bert"], pid["carl"]]),
        "contract": "partner",
        "start": 64,
        "total": 121,
        "goal": 61,
        "cards": cards,
        "lost_at": lost_at,
        "raising": {
            "value": 52,
            "raises": [
                {"player": pid["dora"], "level": "kontra", "right": True},
                {"player": pid["carl"], "level": "re", "right": False},
            ],
        },
        "higher_contracts": None,
    }


def store(game: Game, figures: dict[str, Any] | None = None, **fields: Any) -> GameAnalysis:
    """A stored analysis of ``game`` at its last seq (status analysed unless given)."""
    defaults: dict[str, Any] = {
        "seq": game.last_seq,
        "status": GameAnalysis.Status.ANALYSED,
        "answer": {"status": "analysed", "cards": []},
        "figures": figures or {},
        "duration_ms": 420,
    }
    defaults.update(fields)
    return GameAnalysis.objects.create(game=game, **defaults)


def store_player_rows(analysis: GameAnalysis, rows: dict[Player, tuple[int, int, int]]) -> None:
    PlayerCardFigures.objects.bulk_create(
        PlayerCardFigures(analysis=analysis, player=p, cards=c, best=b, augen_given=a)
        for p, (c, b, a) in rows.items()
    )
