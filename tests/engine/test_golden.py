"""Golden "perft" files: fixed deals with the number of legal moves at each step.

Each file in ``golden/`` holds a record, the count of legal cards (or bids, in the
auction) before every event and the final result. A change in the rules' reading
shows up here as a changed count. Regenerate (after checking the change is intended)
with ``STICHBUCH_REGEN_GOLDEN=1 pytest tests/engine/test_golden.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from engine import replay, table_view
from engine.generate import random_game

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "fuchsen-4-partner": dict(seed=11, game="fuchsen", seats=4, contract="partner"),
    "fuchsen-5-partner": dict(seed=12, game="fuchsen", seats=5, contract="partner"),
    "fuchsen-5-alone": dict(seed=13, game="fuchsen", seats=5, contract="alone"),
    "fuchsen-6-partner": dict(seed=14, game="fuchsen", seats=6, contract="partner"),
    "fuchsen-5-no-hands": dict(seed=15, game="fuchsen", seats=5, hands=False),
    "koenigrufen-zehnermord": dict(seed=21, game="koenigrufen", seats=4, contract="zehnermord"),
    "koenigrufen-bettler": dict(seed=22, game="koenigrufen", seats=4, contract="bettler"),
    "koenigrufen-durchmarsch": dict(seed=23, game="koenigrufen", seats=4, contract="durchmarsch"),
    "koenigrufen-schurln": dict(seed=24, game="koenigrufen", seats=4, contract="schurln"),
    "koenigrufen-no-hands": dict(seed=25, game="koenigrufen", seats=4, hands=False),
}


def _counts(record: dict[str, Any]) -> list[list[int]]:
    """[event index, legal cards or bids before it] for every play and auction event."""
    out = []
    for i, event in enumerate(record["events"]):
        if event["type"] in ("play", "bid", "pass", "join"):
            view = table_view({**record, "events": record["events"][:i]})
            legal = view.legal
            count = len(legal.cards) if event["type"] == "play" else len(legal.bids)
            out.append([i, count])
    return out


def _build(name: str) -> dict[str, Any]:
    params = dict(CASES[name])
    seed = params.pop("seed")
    record = random_game(seed, **params)  # type: ignore[arg-type]
    return {"record": record, "legal": _counts(record), "result": replay(record).to_dict()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_legal_move_counts_and_result_match_the_golden_file(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    if os.environ.get("STICHBUCH_REGEN_GOLDEN") == "1":
        path.write_text(json.dumps(_build(name), indent=1, ensure_ascii=False) + "\n")
    golden = json.loads(path.read_text(encoding="utf-8"))
    assert _counts(golden["record"]) == golden["legal"]
    assert replay(golden["record"]).to_dict() == golden["result"]
