"""The draw of a series (Auslosung): who sits at which table, in which seat, and who has a bye.

Pure Python, no Django: the service hands in start numbers, the standing and the
pairs who have shared a table before, and stores what comes back. The same input
with the same seed gives the same draw, so anyone holding the seed can check it.

Table sizes come from the game (``TABLE_SIZES``): Fuchsen is played by 4, 5 or 6
seated (with 6 one sits out each deal), Königrufen by exactly 4. Players left
over when everyone is put at tables of the smallest size are handled as the
organiser chose (``Leftover``): a bye (Freilos) for each, or larger tables.
"""

from __future__ import annotations

import enum
import hashlib
import itertools
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

# Per game: the smallest and the largest number seated at one table.
TABLE_SIZES: dict[str, tuple[int, int]] = {"fuchsen": (4, 6), "koenigrufen": (4, 4)}


class Leftover(enum.StrEnum):
    """What happens to the players left over at tables of the smallest size."""

    #: Each of them sits this series out (a Freilos); every table has the smallest size.
    BYE = "bye"
    #: They join the tables (Fuchsen: tables of 5 or 6); a bye only where even that is full.
    LARGER_TABLES = "larger_tables"


class Seeding(enum.StrEnum):
    """How a series after the first puts the standing to tables."""

    #: At random, as the first series.
    RANDOM = "random"
    #: The best together: table 1 the top of the standing, table 2 the next, ...
    BEST_TOGETHER = "best_together"
    #: Spread: the best are dealt to the tables in turn (snake order), one per table.
    SPREAD = "spread"


class DrawError(ValueError):
    """The draw cannot be made (too few players for one table)."""


@dataclass(frozen=True)
class Draw:
    """A series' tables (each a list of start numbers, seat 1 first) and its byes."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]

    def repeats(self, met: Collection[frozenset[int]]) -> int:
        """How many pairs at a table have shared a table before."""
        return count_repeats(self.tables, met)


def table_sizes(count: int, game: str, leftover: Leftover, size: int | None = None) -> list[int]:
    """The table sizes for ``count`` players (largest first); their sum is those seated.

    ``size``: the organiser's table size (Fuchsen 4, 5 or 6; default the smallest the
    game allows); those left over get a bye or make tables larger, up to the game's
    largest. Raises ``DrawError`` for a size the game does not allow, or when fewer
    players than one table needs are left.
    """
    low, high = TABLE_SIZES[game]
    if size is not None:
        if not low <= size <= high:
            raise DrawError(f"{game} is not played {size} at a table.")
        low = size
    tables = count // low
    if tables == 0:
        raise DrawError(f"{count} players are too few for one table of {low}.")
    if leftover is Leftover.BYE or low == high:
        return [low] * tables
    seated = min(count, tables * high)
    base, extra = divmod(seated, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def seed_rng(seed: str, series: int) -> random.Random:
    """The random source of one series: a hash of the tournament's seed and the series'
    number, so each series draws afresh and every draw can be repeated."""
    digest = hashlib.sha256(f"{seed}:{series}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def count_repeats(tables: Sequence[Sequence[int]], met: Collection[frozenset[int]]) -> int:
    return sum(
        1 for table in tables for pair in itertools.combinations(table, 2) if frozenset(pair) in met
    )


def draw_series(
    *,
    players: Sequence[int],
    game: str,
    seed: str,
    series: int,
    leftover: Leftover = Leftover.BYE,
    table_size: int | None = None,
    seeding: Seeding = Seeding.RANDOM,
    standing: Sequence[int] = (),
    byes_so_far: dict[int, int] | None = None,
    met: Collection[frozenset[int]] = (),
) -> Draw:
    """Draw one series of ``players`` (start numbers).

    - ``standing``: start numbers best first (later series); players missing from it
      (joined since) rank after it, by start number. Ignored for ``Seeding.RANDOM``.
    - ``table_size``: as for ``table_sizes``.
    - ``byes_so_far``: the byes each player has had; a bye goes to those with the
      fewest, chosen at random among equals (so nobody sits out twice while another
      never has).
    - ``met``: pairs that have shared a table in an earlier series; players are then
      swapped between tables while that lowers the number of such pairs, so no two
      meet again where it can be avoided within the seeding's groups.

    Every player is seated exactly once or given a bye exactly once.
    """
    if len(set(players)) != len(players):
        raise DrawError("A start number appears twice.")
    rng = seed_rng(seed, series)
    sizes = table_sizes(len(players), game, leftover, table_size)
    seated_count = sum(sizes)
    byes_so_far = byes_so_far or {}

    pool = sorted(players)
    rng.shuffle(pool)
    # Fewest byes first get one; the shuffle above breaks ties at random.
    by_byes = sorted(pool, key=lambda p: -byes_so_far.get(p, 0))
    byes = tuple(sorted(by_byes[seated_count:]))
    seated = [p for p in pool if p not in set(byes)]

    if seeding is Seeding.RANDOM:
        order = seated
    else:
        place = {p: i for i, p in enumerate(standing)}
        order = sorted(seated, key=lambda p: (place.get(p, len(place)), p))

    tables: list[list[int]] = [[] for _ in sizes]
    if seeding is Seeding.BEST_TOGETHER:
        start = 0
        for index, size in enumerate(sizes):
            tables[index] = order[start : start + size]
            start += size
    else:
        # At random: the shuffled order dealt round the tables; spread: the standing
        # dealt in snake order (1, 2, ..., T, T, ..., 1). Each player goes to his
        # turn's table unless another free one adds fewer pairs who met before.
        lanes = list(range(len(sizes)))
        turn = itertools.cycle(lanes + lanes[::-1])
        for player in order:
            index = next(turn)
            while len(tables[index]) >= sizes[index]:
                index = next(turn)
            if met:
                free = [i for i in lanes if len(tables[i]) < sizes[i]]
                index = min(
                    free,
                    key=lambda i: (
                        sum(frozenset((player, other)) in met for other in tables[i]),
                        i != index,
                    ),
                )
            tables[index].append(player)

    if met:
        _avoid_repeats(tables, met, groups=_swap_groups(seeding, len(tables)))
    for table in tables:
        rng.shuffle(table)  # the seats
    return Draw(tables=tuple(tuple(table) for table in tables), byes=byes)


def _swap_groups(seeding: Seeding, count: int) -> list[tuple[int, int]]:
    """Pairs of tables that may swap players: any two when the draw is at random or
    spread, neighbours only when the best sit together (so the seeding holds)."""
    if seeding is Seeding.BEST_TOGETHER:
        return [(i, i + 1) for i in range(count - 1)]
    return list(itertools.combinations(range(count), 2))


def _avoid_repeats(
    tables: list[list[int]], met: Collection[frozenset[int]], *, groups: list[tuple[int, int]]
) -> None:
    """Swap players between tables (first improvement, deterministic order) while a
    swap lowers the repeated pairs; stops at a local minimum."""

    def clashes(table: list[int]) -> int:
        return count_repeats([table], met)

    improved = True
    rounds = 0
    while improved and rounds < 50:
        improved = False
        rounds += 1
        for a, b in groups:
            before = clashes(tables[a]) + clashes(tables[b])
            if before == 0:
                continue
            for i, j in itertools.product(range(len(tables[a])), range(len(tables[b]))):
                tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
                after = clashes(tables[a]) + clashes(tables[b])
                if after < before:
                    improved = True
                    before = after
                    if before == 0:
                        break
                else:
                    tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
