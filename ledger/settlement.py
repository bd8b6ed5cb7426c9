"""Who owes whom: turn balances into the fewest transfers that clear them.

Pure Python, no Django import: the ledger's services read the balances of an
evening or a season and call :func:`settle`; nothing here touches a database.

A group of ``k`` players whose balances sum to zero can always be cleared with
``k - 1`` transfers, and never with fewer unless it splits into smaller
zero-sum groups. So the fewest transfers for ``n`` players with non-zero
balances is ``n - g``, where ``g`` is the largest number of disjoint zero-sum
groups the players can be split into. Finding ``g`` is NP-hard in general; for
up to :data:`EXACT_LIMIT` players :func:`settle` finds it exactly with a
dynamic programme over subsets, beyond that it falls back to a greedy plan
that is never worse than ``n - 1`` transfers.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["EXACT_LIMIT", "Transfer", "settle"]

EXACT_LIMIT = 20
"""Up to this many players with a non-zero balance the plan is provably minimal."""


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment of the plan: ``payer`` gives ``amount`` (> 0) to ``payee``."""

    payer: str
    payee: str
    amount: int

    def __post_init__(self) -> None:
        if self.amount <= 0:
            raise ValueError(f"a transfer must move a positive amount, not {self.amount}")
        if self.payer == self.payee:
            raise ValueError(f"{self.payer!r} cannot pay himself")


def settle(balances: Mapping[str, int]) -> list[Transfer]:
    """Return a plan of transfers that brings every balance to zero.

    ``balances`` maps a player to his integer balance (cents or points): positive
    means the player is owed money and receives, negative means he owes and pays.
    Zero balances may be present and are ignored.

    Contract:

    - Raises ``TypeError`` if a balance is not an ``int`` (``bool`` and integral
      floats are rejected too: money is never a float) and ``ValueError`` if the
      balances do not sum to zero.
    - Applying the plan clears every balance exactly.
    - Every player only pays or only receives, never both, and every transfer
      moves a positive amount between two different players.
    - With at most :data:`EXACT_LIMIT` non-zero balances the number of transfers
      is the minimum possible; with more it is at most ``n - 1``.
    - The same balances always give the same plan (ties are broken by name),
      sorted by payer then payee; a pair appears at most once.
    """
    _check(balances)
    # Sorting by name first makes every later tie-break, and so the plan, a
    # function of the balances alone, not of the mapping's insertion order.
    players = sorted((name, amount) for name, amount in balances.items() if amount != 0)
    if not players:
        return []
    if len(players) <= EXACT_LIMIT:
        groups = _zero_sum_groups([amount for _, amount in players])
        transfers = [
            transfer
            for group in groups
            for transfer in _greedy({players[i][0]: players[i][1] for i in group})
        ]
    else:
        transfers = _greedy(dict(players))
    transfers.sort(key=lambda t: (t.payer, t.payee))
    return transfers


def _check(balances: Mapping[str, int]) -> None:
    for name, amount in balances.items():
        # bool is an int subclass; True as "one cent" is a bug upstream, not data.
        if type(amount) is not int:
            raise TypeError(
                f"balance of {name!r} must be an int (cents or points), "
                f"not {type(amount).__name__} {amount!r}"
            )
    total = sum(balances.values())
    if total != 0:
        raise ValueError(
            f"balances must sum to zero to be settled, but they sum to {total}: "
            "a ledger entry is missing or was counted twice"
        )


def _greedy(balances: Mapping[str, int]) -> list[Transfer]:
    """Settle a zero-sum group: the largest debtor pays the largest creditor.

    Each transfer clears at least one of the two and the last clears both, so a
    group of ``k`` players needs at most ``k - 1`` transfers; neither side ever
    changes sign, so nobody both pays and receives. Ties go to the smaller name.
    """
    # Heaps of (-remaining, name): largest remaining amount first, then name.
    debtors = [(amount, name) for name, amount in balances.items() if amount < 0]
    creditors = [(-amount, name) for name, amount in balances.items() if amount > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    transfers: list[Transfer] = []
    while debtors and creditors:
        owed, payer = heapq.heappop(debtors)
        due, payee = heapq.heappop(creditors)
        amount = min(-owed, -due)
        transfers.append(Transfer(payer, payee, amount))
        if owed + amount:
            heapq.heappush(debtors, (owed + amount, payer))
        if due + amount:
            heapq.heappush(creditors, (due + amount, payee))
    # Zero-sum input guarantees both heaps run out together.
    assert not debtors and not creditors, "greedy settlement left a balance open"
    return transfers


def _zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    """Split indices of ``amounts`` (zero-sum, none zero) into the most zero-sum groups.

    Let ``dp[m]`` be the largest number of disjoint non-empty zero-sum subsets of
    the set ``m``. A zero-sum ``m`` reaches ``t`` groups exactly when one of its
    proper subsets reaches ``t - 1`` (the rest is then zero-sum as well), and any
    ``m`` reaches ``t`` when one of its zero-sum subsets does. So the level sets
    ``S_t = {m : dp[m] >= t}`` satisfy

        S_t = Up(Z ∩ StrictUp(S_{t-1})),   S_0 = all sets,

    where ``Z`` are the non-empty zero-sum sets and ``Up`` closes upwards. Each
    ``S_t`` is a bitset of ``2**n`` bits held in one Python int, so a closure is
    ``n`` shift/and/or operations on 128 KiB integers instead of ``n * 2**n``
    interpreted steps: about ten levels of that is far below a second for n = 20.
    """
    n = len(amounts)
    full = (1 << n) - 1
    zero_masks = _zero_sum_masks(amounts)
    zero_bits = _bitset(zero_masks, n)
    without_bit = _masks_without_bit(n)

    levels: list[bytes] = []  # levels[t - 1] holds S_t as little-endian bytes
    level = (1 << (1 << n)) - 1  # S_0: every set reaches zero groups
    while True:
        # S is closed upwards, so its strict supersets are just its one-bit
        # extensions: one pass instead of a second closure.
        strictly_above = 0
        for i in range(n):
            strictly_above |= (level & without_bit[i]) << (1 << i)
        level = zero_bits & strictly_above
        # Every set lies inside the full set, so it reaches t groups as soon as
        # any zero-sum set does.
        if not level:
            break
        for i in range(n):
            level |= (level & without_bit[i]) << (1 << i)
        levels.append(level.to_bytes(((1 << n) + 7) // 8, "little"))

    # Walk back down: peel off the group that holds the lowest remaining player,
    # choosing the smallest such zero-sum set whose rest still reaches t - 1.
    groups: list[list[int]] = []
    remaining = full
    for t in range(len(levels), 0, -1):
        lowest = remaining & -remaining
        if t == 1:
            group = remaining
        else:
            below = levels[t - 2]
            group = next(
                m
                for m in zero_masks
                if m & lowest
                and m & remaining == m
                and m != remaining
                and (below[(remaining ^ m) >> 3] >> ((remaining ^ m) & 7)) & 1
            )
        groups.append([i for i in range(n) if group >> i & 1])
        remaining ^= group
    return groups


def _zero_sum_masks(amounts: list[int]) -> list[int]:
    """All non-empty subsets (as bitmasks) of ``amounts`` that sum to zero, ascending.

    Meet in the middle: the sums of each half's ``2**(n/2)`` subsets, matched by a
    dictionary, so the cost is the halves plus the number of zero-sum sets rather
    than ``2**n``.
    """
    half = len(amounts) // 2
    low, high = amounts[:half], amounts[half:]
    low_sums = _subset_sums(low)
    by_sum: dict[int, list[int]] = {}
    for mask, total in enumerate(_subset_sums(high)):
        by_sum.setdefault(-total, []).append(mask << half)
    masks = [
        low_mask | high_mask
        for low_mask, total in enumerate(low_sums)
        for high_mask in by_sum.get(total, ())
    ]
    masks.remove(0)
    masks.sort()
    return masks


def _subset_sums(amounts: list[int]) -> list[int]:
    """``sums[m]`` is the total of the subset ``m`` of ``amounts`` (bit i = amounts[i])."""
    sums = [0]
    for amount in amounts:
        sums += [total + amount for total in sums]
    return sums


def _bitset(masks: list[int], n: int) -> int:
    bits = bytearray(((1 << n) + 7) // 8)
    for mask in masks:
        bits[mask >> 3] |= 1 << (mask & 7)
    return int.from_bytes(bits, "little")


@lru_cache(maxsize=EXACT_LIMIT + 1)
def _masks_without_bit(n: int) -> tuple[int, ...]:
    """For each bit ``i < n``: the bitset of all sets of ``n`` players that lack player ``i``."""
    size = 1 << n
    result = []
    for i in range(n):
        period = 2 << i
        pattern = (1 << (1 << i)) - 1  # the first half of each period lacks bit i
        length = period
        while length < size:
            pattern |= pattern << length
            length *= 2
        result.append(pattern)
    return tuple(result)
