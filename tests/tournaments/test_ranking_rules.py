"""The ranking's order and the prizes' split, over random standings (hypothesis)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.ranking import Prize, award, prize_values, rank

POINTS = st.dictionaries(
    st.integers(1, 40),
    st.dictionaries(st.integers(1, 3), st.integers(-3, 3).map(lambda v: v * 10), max_size=3),
    max_size=40,
)
PRIZES = st.lists(
    st.one_of(
        st.builds(Prize, amount=st.integers(1, 5000)),
        st.builds(Prize, percent=st.integers(1, 30)),
    ),
    max_size=6,
)


@settings(max_examples=200, deadline=None)
@given(points=POINTS, prizes=PRIZES, pot=st.integers(0, 100_000))
def test_places_follow_points_then_best_series_and_prizes_are_paid_out_whole(
    points: dict[int, dict[int, int]], prizes: list[Prize], pot: int
) -> None:
    numbers = sorted(points)
    rows = rank(numbers, points)
    assert sorted(r.start_number for r in rows) == numbers
    for index, (a, b) in enumerate(itertools.pairwise(rows)):
        assert (a.total, a.best_series) >= (b.total, b.best_series)
        if (a.total, a.best_series) == (b.total, b.best_series):
            assert a.place == b.place and a.start_number < b.start_number
        else:
            assert b.place == index + 2
    won = award(rows, prizes, pot)
    values = prize_values(prizes, pot)
    # Every place covered by the list pays out in full, split among those sharing it.
    assert sum(won.values()) == sum(values[: len(rows)])
    for row in rows:
        sharing = [r for r in rows if r.place == row.place]
        if row.start_number in won and len(sharing) == 1:
            assert won[row.start_number] == values[row.place - 1]
