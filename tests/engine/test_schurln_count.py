"""A played-out Schurln's table view gives each player's count of aces and tens (the
winner of the last trick counts one more): the count that decided who pays."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import table_view
from engine.generate import random_game


def _view(seed: int) -> dict[str, Any]:
    return table_view(random_game(seed, "koenigrufen", 4, contract="schurln")).to_dict()


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_the_losers_of_a_played_out_schurln_hold_the_highest_count(seed: int) -> None:
    view = _view(seed)
    counts = view["aces_tens"]
    payouts = view["result"]["payouts"]
    # Eight aces and tens in the deck, and one for the last trick.
    assert sum(counts.values()) == 9
    top = max(counts.values())
    losers = {p for p, n in counts.items() if n == top}
    if len(losers) == 4:
        assert set(payouts.values()) == {0}
    else:
        assert losers == {p for p, v in payouts.items() if v < 0}


def test_a_schurln_settled_by_a_tally_has_no_count() -> None:
    record = random_game(7, "koenigrufen", 4, contract="schurln")
    deal, *rest = record["events"]
    auction = [e for e in rest if e["type"] != "play"]
    loser = deal["players"][0]
    tallied = {**record, "events": [deal, *auction, {"type": "tally", "losers": [loser]}]}
    view = table_view(tallied).to_dict()
    assert view["result"]["status"] == "finished"
    assert view["aces_tens"] is None


def test_a_game_that_is_not_schurln_has_no_count() -> None:
    view = table_view(random_game(3, "koenigrufen", 4, contract="zehnermord")).to_dict()
    assert view["aces_tens"] is None
