"""The draw of a series: seeded and reproducible, table sizes from the rules, every
participant seated or given a bye exactly once, no repeated tablemates where avoidable."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draw import (
    DrawError,
    Leftover,
    Seeding,
    count_repeats,
    draw_series,
    table_sizes,
)

GAMES = st.sampled_from(["fuchsen", "koenigrufen"])
LEFTOVERS = st.sampled_from(list(Leftover))
SEEDINGS = st.sampled_from(list(Seeding))


@settings(max_examples=150, deadline=None)
@given(count=st.integers(4, 80), game=GAMES, leftover=LEFTOVERS, seeding=SEEDINGS)
def test_every_participant_is_seated_or_has_a_bye_exactly_once(
    count: int, game: str, leftover: Leftover, seeding: Seeding
) -> None:
    players = list(range(1, count + 1))
    draw = draw_series(
        players=players,
        game=game,
        seed="s",
        series=2,
        leftover=leftover,
        seeding=seeding,
        standing=players[::-1],
    )
    placed = [p for table in draw.tables for p in table] + list(draw.byes)
    assert sorted(placed) == players
    low, high = {"fuchsen": (4, 6), "koenigrufen": (4, 4)}[game]
    assert all(low <= len(table) <= high for table in draw.tables)
    # A bye only where no table can take the player.
    assert len(draw.byes) < low or leftover is Leftover.LARGER_TABLES
    if leftover is Leftover.LARGER_TABLES and game == "fuchsen" and count >= 8:
        assert draw.byes == ()


@settings(max_examples=60, deadline=None)
@given(count=st.integers(4, 60), game=GAMES, seed=st.text(max_size=20))
def test_the_same_seed_draws_the_same_series_and_another_series_draws_afresh(
    count: int, game: str, seed: str
) -> None:
    players = list(range(1, count + 1))
    first = draw_series(players=players, game=game, seed=seed, series=1)
    again = draw_series(players=list(reversed(players)), game=game, seed=seed, series=1)
    assert first == again


def test_a_different_seed_gives_a_different_draw() -> None:
    players = list(range(1, 25))
    draws = {draw_series(players=players, game="fuchsen", seed=str(s), series=1) for s in range(5)}
    assert len(draws) > 1


def test_eleven_fuchsen_players_with_larger_tables_sit_at_a_six_and_a_five() -> None:
    assert table_sizes(11, "fuchsen", Leftover.LARGER_TABLES) == [6, 5]
    assert table_sizes(11, "fuchsen", Leftover.BYE) == [4, 4]
    assert table_sizes(11, "koenigrufen", Leftover.LARGER_TABLES) == [4, 4]
    assert table_sizes(7, "fuchsen", Leftover.LARGER_TABLES) == [6]


def test_too_few_for_one_table_is_refused() -> None:
    with pytest.raises(DrawError):
        draw_series(players=[1, 2, 3], game="fuchsen", seed="x", series=1)


@settings(max_examples=40, deadline=None)
@given(tables=st.integers(4, 12), seed=st.text(max_size=8))
def test_no_two_players_meet_again_in_the_second_series_when_it_can_be_avoided(
    tables: int, seed: str
) -> None:
    # With 4 or more tables of 4 a second series without any repeat exists (each
    # old table's four players go to four different tables); with 3 it cannot.
    players = list(range(1, 4 * tables + 1))
    first = draw_series(players=players, game="koenigrufen", seed=seed, series=1)
    met = {frozenset(pair) for table in first.tables for pair in itertools.combinations(table, 2)}
    second = draw_series(
        players=players, game="koenigrufen", seed=seed, series=2, seeding=Seeding.SPREAD, met=met
    )
    assert count_repeats(second.tables, met) == 0


def test_the_best_sit_together_or_are_spread_as_the_organiser_chose() -> None:
    players = list(range(1, 13))
    standing = [5, 9, 1, 12, 2, 3, 4, 6, 7, 8, 10, 11]
    together = draw_series(
        players=players,
        game="koenigrufen",
        seed="a",
        series=2,
        seeding=Seeding.BEST_TOGETHER,
        standing=standing,
    )
    assert set(together.tables[0]) == {5, 9, 1, 12}
    spread = draw_series(
        players=players,
        game="koenigrufen",
        seed="a",
        series=2,
        seeding=Seeding.SPREAD,
        standing=standing,
    )
    assert [len(set(table) & {5, 9, 1}) for table in spread.tables] == [1, 1, 1]


def test_byes_go_to_those_who_have_had_the_fewest() -> None:
    players = list(range(1, 10))  # 2 tables of 4, one bye
    draw = draw_series(
        players=players,
        game="koenigrufen",
        seed="b",
        series=3,
        byes_so_far={p: 1 for p in players if p != 7},
    )
    assert draw.byes == (7,)


def test_sixty_fuchsen_players_at_tables_of_five_make_twelve_tables() -> None:
    assert table_sizes(60, "fuchsen", Leftover.BYE, 5) == [5] * 12
    assert table_sizes(62, "fuchsen", Leftover.LARGER_TABLES, 5) == [6, 6] + [5] * 10
    assert table_sizes(62, "fuchsen", Leftover.BYE, 5) == [5] * 12
    with pytest.raises(DrawError):
        table_sizes(20, "koenigrufen", Leftover.BYE, 5)
