"""Card codes and their small-integer form.

Every card of the 32-card German pack has an index from 0 to 31; a set of cards is an
``int`` bitmask over those indexes. The index is ``suit * 8 + rank``, but for ``G7``
and ``S8``, which trade places (``G7`` is 30, ``S8`` is 15): the cards five players
take out by default, ``G7`` and ``S7``, are then 30 and 31, and every mask of the
cards in play is below 2**30. CPython keeps such an int in one digit, and the bit
operations the engine's loops make on every card are much faster on those. The other
games take out both 7s and 8s, so their decks keep the plain layout. ``bits`` yields
cards in pack order all the same. Card codes (``"EO"``) appear only at the edges
(parsing events, messages, views).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

__all__ = [
    "ALL_CARDS",
    "CODES",
    "INDEX",
    "PACK",
    "PACK_ORDER",
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

# The pack in its order: E G R S, each A 10 K O U 9 8 7.
PACK: tuple[str, ...] = tuple(suit + rank for suit in SUITS for rank in RANKS)
# Indexes in pack order, with G7 and S8 traded (see above).
_TRADED = {"G7": "S8", "S8": "G7"}
CODES: tuple[str, ...] = tuple(_TRADED.get(code, code) for code in PACK)
INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}
ALL_CARDS = (1 << len(CODES)) - 1
# The card indexes in pack order, and the cards whose index is out of that order.
PACK_ORDER: tuple[int, ...] = tuple(INDEX[code] for code in PACK)
_OUT_OF_ORDER = (1 << INDEX["G7"]) | (1 << INDEX["S8"])
_SUIT_OF: tuple[int, ...] = tuple(SUITS.index(code[0]) for code in CODES)


def suit_of(card: int) -> int:
    """The printed suit (0 E, 1 G, 2 R, 3 S) of a card index."""
    return _SUIT_OF[card]


def rank_of(card: int) -> str:
    """The printed rank (``"A"`` … ``"7"``) of a card index."""
    return CODES[card][1:]


def mask_of(codes: Iterable[str]) -> int:
    """The bitmask of an iterable of valid card codes."""
    mask = 0
    for code in codes:
        mask |= 1 << INDEX[code]
    return mask


def bits(mask: int) -> Iterator[int]:
    """The card indexes in ``mask``, in pack order (E G R S, A 10 K O U 9 8 7)."""
    if mask & _OUT_OF_ORDER:
        for card in PACK_ORDER:
            if mask >> card & 1:
                yield card
        return
    # Without G7 or S8 the pack order is the order of the indexes: lowest first.
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
