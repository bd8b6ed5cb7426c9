"""Card codes and their small-integer form.

Every card of the 32-card German pack has an index ``suit * 8 + rank``; a set of
cards is an ``int`` bitmask over those indexes. Card codes (``"EO"``) appear only
at the edges (parsing events, messages, views).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

__all__ = [
    "ALL_CARDS",
    "CODES",
    "INDEX",
    "RANKS",
    "SUITS",
    "SUIT_NAMES",
    "bits",
    "card_list",
    "mask_of",
    "popcount",
    "rank_of",
    "suit_of",
]

SUITS = "EGRS"
SUIT_NAMES = ("Eichel", "Grün", "Rot", "Schellen")
RANKS: tuple[str, ...] = ("A", "10", "K", "O", "U", "9", "8", "7")

CODES: tuple[str, ...] = tuple(suit + rank for suit in SUITS for rank in RANKS)
INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}
ALL_CARDS = (1 << len(CODES)) - 1


def suit_of(card: int) -> int:
    """The printed suit (0 E, 1 G, 2 R, 3 S) of a card index."""
    return card >> 3


def rank_of(card: int) -> str:
    """The printed rank (``"A"`` … ``"7"``) of a card index."""
    return RANKS[card & 7]


def mask_of(codes: Iterable[str]) -> int:
    """The bitmask of an iterable of valid card codes."""
    mask = 0
    for code in codes:
        mask |= 1 << INDEX[code]
    return mask


def bits(mask: int) -> Iterator[int]:
    """The card indexes in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    """How many cards are in ``mask``."""
    return mask.bit_count()


def card_list(mask: int) -> list[str]:
    """The card codes in ``mask`` in pack order (E G R S, A 10 K O U 9 8 7)."""
    return [CODES[i] for i in bits(mask)]
