"""The hand-checked examples in tests/reference/examples (1–60, and the tallies 61–70
in its folder ``tally``) replay to their expected results."""

from __future__ import annotations

import pytest

from engine import replay
from tests.engine._shared import EXAMPLES, example_names, load, without_message

# Paths relative to ``EXAMPLES``: the tallies sit in its folder ``tally``.
NAMES = example_names()


@pytest.mark.parametrize("name", NAMES)
def test_each_example_replays_to_its_expected_result(name: str) -> None:
    example = load(EXAMPLES / name)
    got = without_message(replay(example["record"]).to_dict())
    assert got == example["expected"], example["description"]


def test_every_error_message_names_what_went_wrong() -> None:
    errors = 0
    for name in NAMES:
        example = load(EXAMPLES / name)
        result = replay(example["record"])
        if result.error is not None:
            errors += 1
            assert result.error.message.strip(), name
    # 41–60 and 70 are invalid records, one per error code.
    assert errors == 21
