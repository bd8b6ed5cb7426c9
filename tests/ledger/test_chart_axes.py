"""The charts' axes have round marks, 0 among them, that bound every value drawn."""

from __future__ import annotations

import itertools
import math

from hypothesis import given
from hypothesis import strategies as st

from ledger.pages import line_chart, round_ticks

# What the charts draw: cents, and ratings to a tenth.
values = st.integers(min_value=-(10**7), max_value=10**7).map(lambda n: n / 10)


def _is_round(step: float) -> bool:
    power = 10.0 ** math.floor(math.log10(step))
    return any(math.isclose(step, f * power) for f in (1, 2, 5, 10))


@given(values, values)
def test_the_marks_are_round_steps_that_hold_zero_and_bound_the_values(a: float, b: float) -> None:
    low, high = min(a, b), max(a, b)
    marks = round_ticks(low, high)
    assert 0 in marks
    assert marks[0] <= low and marks[-1] >= high
    assert 2 <= len(marks) <= 6
    steps = {round(y - x, 6) for x, y in itertools.pairwise(marks)}
    assert len(steps) == 1
    step = steps.pop()
    assert step >= 0.1 and _is_round(step)


def test_a_running_net_from_minus_37_to_112_is_marked_every_50_from_minus_50() -> None:
    assert round_ticks(-37, 112) == [-50, 0, 50, 100, 150]


def test_the_chart_draws_its_marks_with_local_labels_and_zero_on_the_axis() -> None:
    chart = line_chart({"a": [0.0, 0.3, 0.7]}, labels={"a": "Anna"})
    assert chart is not None
    labels = [t["label"] for t in chart["ticks"]]
    assert labels[0] == "0"
    assert set(labels) & {"0,4", "0.4"}
    assert chart["ticks"][0]["y"] == chart["zero"]
