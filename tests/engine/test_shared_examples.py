"""The hand-checked examples in shared/examples (1–60, and the tallies 61–70 in
shared/examples/tally) replay to their expected results."""

from __future__ import annotations

import pytest

from engine import replay
from tests.engine._shared import EXAMPLES, load, need, without_message

# Paths relative to ``EXAMPLES``: the tallies sit in its folder ``tally``.
NAMES = (
    sorted(str(p.relative_to(EXAMPLES)) for p in EXAMPLES.glob("**/*.json"))
    if EXAMPLES.exists()
    else []
)


@pytest.mark.parametrize("name", NAMES or ["(no examples)"])
def test_each_example_replays_to_its_expected_result(name: str) -> None:
    need(EXAMPLES)
    example = load(EXAMPLES / name)
    got = without_message(replay(example["record"]).to_dict())
    assert got == example["expected"], example["description"]


def test_every_error_message_names_what_went_wrong() -> None:
    need(EXAMPLES)
    for name in NAMES:
        example = load(EXAMPLES / name)
        result = replay(example["record"])
        if result.error is not None:
            assert result.error.message.strip(), name
