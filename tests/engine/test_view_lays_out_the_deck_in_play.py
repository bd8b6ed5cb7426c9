"""The table view lays out the deck for the pages: its rows hold exactly the cards
dealt (a gap for each card out of play), the trump rows hold the game's trumps, and
each row runs from the strongest card down, in the order the contract gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import table_view
from engine.generate import random_game


@settings(max_examples=60, deadline=None)
@given(
    table=st.sampled_from([("fuchsen", 4), ("fuchsen", 5), ("fuchsen", 6), ("koenigrufen", 4)]),
    seed=st.integers(0, 100_000),
)
def test_the_rows_hold_exactly_the_cards_dealt(table: tuple[str, int], seed: int) -> None:
    game, seats = table
    record = random_game(seed, game, seats, hands=True)
    view = table_view({**record, "events": record["events"][:1]})
    dealt = {card for hand in record["events"][0]["hands"].values() for card in hand}
    laid_out = [card for _, _, cards in view.deck for card in cards if card is not None]
    assert sorted(laid_out) == sorted(dealt)
    for _, trump, cards in view.deck:
        assert all((card in view.trumps) == trump for card in cards if card is not None)


def test_a_contract_with_a_ten_puts_the_ten_under_the_ace() -> None:
    deal = {"type": "deal", "dealer": "anna", "players": ["anna", "bert", "carl", "dora"]}
    before = table_view({"game": "koenigrufen", "events": [deal]})
    after = table_view(
        {
            "game": "koenigrufen",
            "events": [
                deal,
                {"type": "bid", "player": "bert", "contract": "zehnermord"},
                {"type": "pass", "player": "carl"},
                {"type": "pass", "player": "dora"},
                {"type": "pass", "player": "anna"},
            ],
        }
    )
    assert before.deck[0][2] == ("EA", "EK", "EO", "EU", "E10", "E9")
    assert after.contract == "zehnermord"
    assert after.deck[0][2] == ("EA", "E10", "EK", "EO", "EU", "E9")
