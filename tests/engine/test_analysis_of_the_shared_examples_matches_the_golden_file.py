"""The shared examples analysed, with the values written down in
``tests/engine/golden/analysis-examples.json`` (the late positions of examples 4, 24
and 26 are counted by hand in ``test_analysis_values_of_hand_checked_positions.py``).

To write the file again after a deliberate change, run this module with
``STICHBUCH_WRITE_GOLDEN=1`` and read the difference before committing it.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import pytest

from engine import analyse, replay
from tests.engine._shared import EXAMPLES, load

GOLDEN = Path(__file__).parent / "golden" / "analysis-examples.json"


@functools.cache
def _analysed(path: Path) -> dict[str, Any]:
    return analyse(load(path)["record"])


def _examples() -> list[Path]:
    return sorted([*EXAMPLES.glob("*.json"), *EXAMPLES.glob("tally/*.json")])


def _write(out: dict[str, Any]) -> None:
    lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in out.items()]
    GOLDEN.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


def test_every_shared_example_is_analysed_as_the_golden_file_says() -> None:
    got = {str(p.relative_to(EXAMPLES)): _analysed(p) for p in _examples()}
    if os.environ.get("STICHBUCH_WRITE_GOLDEN") == "1":
        _write(got)
    assert got == json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", _examples(), ids=lambda p: p.name)
def test_a_played_out_fuchsen_example_ends_with_the_augen_the_replay_counts(path: Path) -> None:
    record = load(path)["record"]
    result = replay(record)
    analysis = _analysed(path)
    if analysis["status"] != "analysed" or analysis["game"] != "fuchsen":
        return
    cards = analysis["cards"]
    assert cards[0]["index"] == next(
        i for i, e in enumerate(record["events"]) if e.get("type") == "play"
    )
    if result.augen is not None and result.tricks == 6 and result.reason != "tally":
        # After the last card the value is what the Macher's side took.
        assert cards[-1]["after"] == result.augen[0]
        assert len(cards) == 6 * len(analysis["players"])
