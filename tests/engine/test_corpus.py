"""The generated records of tests/reference/corpus (1,989 in cases.json, 600 ending in a tally in
tally.json) agree with the reference results.

Status always, payouts when finished, error.index when invalid, error.code where
``compare_code`` is true; the other fields are compared as well.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import replay
from tests.engine._shared import CORPORA, load, without_message


def _disagreement(case: dict[str, Any], got: dict[str, Any]) -> str | None:
    expected = case["expected"]
    if got["status"] != expected["status"]:
        return "status"
    if expected["status"] == "finished" and got.get("payouts") != expected.get("payouts"):
        return "payouts"
    if expected["status"] == "invalid":
        if got["error"]["index"] != expected["error"]["index"]:
            return "error.index"
        if case["compare_code"] and got["error"]["code"] != expected["error"]["code"]:
            return "error.code"
        return None
    if got != expected:
        return "fields"
    return None


@pytest.mark.parametrize("corpus", CORPORA, ids=lambda path: path.name)
def test_the_whole_corpus_agrees_with_the_reference(corpus: Path) -> None:
    cases = load(corpus)
    disagreements = []
    for n, case in enumerate(cases):
        got = without_message(replay(case["record"]).to_dict())
        why = _disagreement(case, got)
        if why is not None:
            disagreements.append(f"case {n}: {why}: expected {case['expected']}, got {got}")
    agreed = len(cases) - len(disagreements)
    assert not disagreements, f"{agreed}/{len(cases)} agree\n" + "\n".join(disagreements[:20])
