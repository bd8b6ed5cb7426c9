"""Card indexes: G7 and S8 trade places, and everything that lists cards keeps pack order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.cards import CODES, INDEX, PACK, PACK_ORDER, SUITS, bits, card_list, rank_of, suit_of
from engine.replay import VARIANTS
from engine.rules import effective_rules
from tests.engine.records import deal


def test_every_card_but_g7_and_s8_has_the_index_suit_times_eight_plus_rank() -> None:
    for position, code in enumerate(PACK):
        if code == "G7":
            assert INDEX[code] == 30
        elif code == "S8":
            assert INDEX[code] == 15
        else:
            assert INDEX[code] == position
    assert sorted(INDEX.values()) == list(range(32))
    assert [CODES[c] for c in PACK_ORDER] == list(PACK)


def test_suit_and_rank_are_read_from_the_code_not_the_index() -> None:
    for code, card in INDEX.items():
        assert suit_of(card) == SUITS.index(code[0])
        assert rank_of(card) == code[1:]


@given(st.integers(0, 2**32 - 1))
def test_bits_and_card_list_go_in_pack_order(mask: int) -> None:
    expected = [code for code in PACK if mask >> INDEX[code] & 1]
    assert [CODES[c] for c in bits(mask)] == expected
    assert card_list(mask) == expected


def test_the_five_player_default_deck_and_the_smaller_decks_fit_one_int_digit() -> None:
    # Five active players take out G7 and S7 by default, four or six both 7s and 8s.
    fuchsen = VARIANTS["fuchsen"]
    rules = effective_rules("fuchsen", None)
    for seated in (4, 5, 6):
        players = list("abcdef"[:seated])
        table = fuchsen.validate_deal(deal(players=players, dealer=players[-1]), rules)
        assert table.deck < 1 << 30
    # Another choice of the two cards keeps G7 in play: index 30, so two digits.
    other = effective_rules("fuchsen", {"removed_cards": ["S7", "S8"]})
    table = fuchsen.validate_deal(deal(players=list("abcde"), dealer="e"), other)
    assert table.deck >= 1 << 30
