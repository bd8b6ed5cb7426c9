"""The ranking of a tournament and its prizes: pure Python, no Django.

Points are the games' payouts (integers in the club's unit: cents or points),
summed per participant. The order and the tie-break (``TIE_BREAK``, shown on the
pages):

1. more points in all;
2. then the better best single series;
3. equal on both: the same place (shown by start number).

Prizes follow the places. Participants who share a place share the prizes of the
places they cover, evenly; a cent that does not divide goes to the lower start
number first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

TIE_BREAK = (
    "Punkte gesamt; bei Gleichstand die bessere beste Serie; "
    "sonst derselbe Platz (nach Startnummer gelistet)."
)


@dataclass(frozen=True)
class Row:
    """One participant's line: place (shared places repeat), start number, points per
    series (series number → points), the total and the best series."""

    place: int
    start_number: int
    total: int
    best_series: int
    by_series: dict[int, int]


def rank(start_numbers: Sequence[int], points: Mapping[int, Mapping[int, int]]) -> list[Row]:
    """Rank ``start_numbers``; ``points[start_number][series]`` are their points (missing: 0).

    A participant who has played no series has 0 in all and 0 as best series.
    """
    rows = []
    for number in start_numbers:
        by_series = dict(sorted(points.get(number, {}).items()))
        total = sum(by_series.values())
        best = max(by_series.values(), default=0)
        rows.append((number, total, best, by_series))
    rows.sort(key=lambda r: (-r[1], -r[2], r[0]))
    ranked: list[Row] = []
    for index, (number, total, best, by_series) in enumerate(rows):
        if ranked and (ranked[-1].total, ranked[-1].best_series) == (total, best):
            place = ranked[-1].place
        else:
            place = index + 1
        ranked.append(Row(place, number, total, best, by_series))
    return ranked


@dataclass(frozen=True)
class Prize:
    """One entry of the prize list: a fixed amount, or a share of the pot in percent."""

    amount: int | None = None
    percent: int | None = None

    def value(self, pot: int) -> int:
        if self.amount is not None:
            return self.amount
        assert self.percent is not None
        return pot * self.percent // 100


def prize_values(prizes: Sequence[Prize], pot: int) -> list[int]:
    """What each place of the list pays (place 1 first), from the pot."""
    return [prize.value(pot) for prize in prizes]


def award(rows: Sequence[Row], prizes: Sequence[Prize], pot: int) -> dict[int, int]:
    """{start number: prize} for those who win one (places from ``rank``).

    Those sharing a place share the values of the places they cover.
    """
    values = prize_values(prizes, pot)
    won: dict[int, int] = {}
    index = 0
    while index < len(rows):
        place = rows[index].place
        group = [row for row in rows[index:] if row.place == place]
        covered = values[index : index + len(group)]
        total = sum(covered)
        if total > 0:
            share, rest = divmod(total, len(group))
            for k, row in enumerate(sorted(group, key=lambda r: r.start_number)):
                won[row.start_number] = share + (1 if k < rest else 0)
        index += len(group)
    return won
