"""Settlement: the fewest transfers that clear an evening's or a season's balances."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.settlement import EXACT_LIMIT, Transfer, settle

NAMES = [f"player{i:02d}" for i in range(80)]


@st.composite
def zero_sum_balances(
    draw: st.DrawFn, max_players: int, amounts: st.SearchStrategy[int], min_players: int = 1
) -> dict[str, int]:
    """Balances of ``min_players`` to ``max_players`` players summing to zero (some may be 0)."""
    names = draw(
        st.lists(st.sampled_from(NAMES), min_size=min_players, max_size=max_players, unique=True)
    )
    values = [draw(amounts) for _ in names[1:]]
    return dict(zip(names, [-sum(values), *values], strict=True))


def applied(balances: Mapping[str, int], plan: list[Transfer]) -> dict[str, int]:
    after = dict(balances)
    for transfer in plan:
        after[transfer.payer] += transfer.amount
        after[transfer.payee] -= transfer.amount
    return after


def non_zero(balances: Mapping[str, int]) -> list[int]:
    return [amount for amount in balances.values() if amount]


def partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every set partition of ``items`` (Bell(n) of them: fine up to 8)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in partitions(rest):
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]
        yield [[first], *partition]


def brute_force_minimum(amounts: list[int]) -> int:
    """Fewest transfers by trying every partition into zero-sum groups."""
    most_groups = max(
        len(partition)
        for partition in partitions(amounts)
        if all(sum(group) == 0 for group in partition)
    )
    return len(amounts) - most_groups


def textbook_minimum(amounts: list[int]) -> int:
    """Fewest transfers by the classic n·2^n subset DP (a second, independent oracle)."""
    n = len(amounts)
    sums = [0] * (1 << n)
    best = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + amounts[low]
        best[mask] = max(best[mask ^ (1 << i)] for i in range(n) if mask >> i & 1) + (
            sums[mask] == 0
        )
    return n - best[(1 << n) - 1]


small_amounts = st.integers(min_value=-6, max_value=6)
cent_amounts = st.integers(min_value=-50_000, max_value=50_000)


@given(zero_sum_balances(EXACT_LIMIT, cent_amounts))
def test_the_plan_clears_every_balance(balances: dict[str, int]) -> None:
    assert set(applied(balances, settle(balances)).values()) <= {0}


@given(zero_sum_balances(40, small_amounts) | zero_sum_balances(40, cent_amounts))
def test_it_never_needs_more_than_n_minus_one_transfers(balances: dict[str, int]) -> None:
    plan = settle(balances)
    assert len(plan) <= max(len(non_zero(balances)) - 1, 0)
    assert set(applied(balances, plan).values()) <= {0}


@given(zero_sum_balances(30, small_amounts))
def test_every_player_only_pays_or_only_receives(balances: dict[str, int]) -> None:
    plan = settle(balances)
    payers = {t.payer for t in plan}
    payees = {t.payee for t in plan}
    assert not payers & payees
    assert all(balances[p] < 0 for p in payers)
    assert all(balances[p] > 0 for p in payees)
    assert len({(t.payer, t.payee) for t in plan}) == len(plan)


@settings(max_examples=300)
@given(zero_sum_balances(8, small_amounts))
def test_it_needs_exactly_the_brute_force_minimum_of_transfers(
    balances: dict[str, int],
) -> None:
    amounts = non_zero(balances)
    expected = brute_force_minimum(amounts) if amounts else 0
    assert len(settle(balances)) == expected


@pytest.mark.parametrize("seed", range(6))
def test_it_matches_the_textbook_subset_dp_up_to_fourteen_players(seed: int) -> None:
    rng = random.Random(seed)
    amounts = [rng.choice([-4, -3, -2, -1, 1, 2, 3, 4]) for _ in range(13)]
    balances = dict(zip(NAMES, [*amounts, -sum(amounts)], strict=False))
    assert len(settle(balances)) == textbook_minimum(non_zero(balances))


def test_it_finds_ten_hidden_pairs_among_twenty_players() -> None:
    rng = random.Random(7)
    amounts = [x for value in rng.sample(range(100, 10_000), 10) for x in (value, -value)]
    rng.shuffle(amounts)
    balances = dict(zip(NAMES, amounts, strict=False))
    assert len(settle(balances)) == 10


def test_it_finds_groups_of_different_sizes_among_twenty_players() -> None:
    # Groups of 2, 3, 4, 5 and 6 players whose amounts are powers of two per group,
    # so no smaller zero-sum subset exists and the minimum is exactly 20 - 5.
    balances: dict[str, int] = {}
    names = iter(NAMES)
    for size, unit in zip((2, 3, 4, 5, 6), (1, 100, 10_000, 1_000_000, 100_000_000), strict=True):
        amounts = [unit * 2**i for i in range(size - 1)]
        for amount in [*amounts, -sum(amounts)]:
            balances[next(names)] = amount
    assert len(balances) == 20
    plan = settle(balances)
    assert len(plan) == 15
    assert set(applied(balances, plan).values()) == {0}


def test_the_same_balances_give_the_same_plan_whatever_their_order() -> None:
    rng = random.Random(3)
    amounts = [rng.randint(-300, 300) for _ in range(17)]
    balances = dict(zip(NAMES, [*amounts, -sum(amounts)], strict=False))
    shuffled = list(balances.items())
    rng.shuffle(shuffled)
    assert settle(balances) == settle(dict(shuffled)) == settle(balances)


def test_ties_are_broken_by_name() -> None:
    plan = settle({"dora": 5, "carl": 5, "bert": -5, "anna": -5})
    assert plan == [Transfer("anna", "carl", 5), Transfer("bert", "dora", 5)]


def test_players_with_a_zero_balance_are_left_out() -> None:
    assert settle({"anna": 0, "bert": -7, "carl": 7}) == [Transfer("bert", "carl", 7)]


def test_nothing_to_settle_gives_an_empty_plan() -> None:
    assert settle({}) == []
    assert settle({"anna": 0, "bert": 0}) == []


def test_it_rejects_balances_that_do_not_sum_to_zero() -> None:
    with pytest.raises(ValueError, match="sum to 3"):
        settle({"anna": 5, "bert": -2})


@pytest.mark.parametrize("bad", [2.0, Decimal(2), True, "2"])
def test_it_rejects_amounts_that_are_not_integers(bad: Any) -> None:
    with pytest.raises(TypeError, match="must be an int"):
        settle({"anna": bad, "bert": -2})


@settings(max_examples=50)
@given(zero_sum_balances(80, cent_amounts, min_players=EXACT_LIMIT + 2))
def test_beyond_twenty_players_the_greedy_plan_still_clears_everything(
    balances: dict[str, int],
) -> None:
    plan = settle(balances)
    assert len(plan) <= max(len(non_zero(balances)) - 1, 0)
    assert set(applied(balances, plan).values()) <= {0}


def test_beyond_twenty_players_the_largest_debtor_pays_the_largest_creditor_first() -> None:
    balances = {name: 1 for name in NAMES[:22]} | {"whale": -30, "minnow": 8}
    plan = settle(balances)
    # The whale owes 30 and pays the largest creditor (the minnow, owed 8) in full.
    assert Transfer("whale", "minnow", 8) in plan
    assert len(plan) == 23


@pytest.mark.parametrize("amount", [0, -1])
def test_a_transfer_moves_a_positive_amount(amount: int) -> None:
    with pytest.raises(ValueError, match="positive"):
        Transfer("anna", "bert", amount)
