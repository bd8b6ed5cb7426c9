"""The 1,989 generated records of shared/corpus agree with the reference results.

Status always, payouts when finished, error.index when invalid, error.code where
``compare_code`` is true; the other fields are compared as well.
"""

from __future__ import annotations

from typing import Any

from engine import replay
from tests.engine._shared import CORPUS, load, need, without_message


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


def test_the_whole_corpus_agrees_with_the_reference() -> None:
    need(CORPUS)
    cases = load(CORPUS)
    disagreements = []
    for n, case in enumerate(cases):
        got = without_message(replay(case["record"]).to_dict())
        why = _disagreement(case, got)
        if why is not None:
            disagreements.append(f"case {n}: {why}: expected {case['expected']}, got {got}")
    agreed = len(cases) - len(disagreements)
    assert not disagreements, f"{agreed}/{len(cases)} agree\n" + "\n".join(disagreements[:20])
