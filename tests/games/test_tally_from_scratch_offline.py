"""The offline tally form's choices are the engine's: one block of fields per Macher
and way of calling covers every card the table view lets be called."""

from __future__ import annotations

from engine.view import table_view

PLAYERS = ["1", "2", "3", "4", "5"]
DEAL = {"type": "deal", "dealer": "1", "players": PLAYERS}


def _tally_after(call: dict[str, object]) -> object:
    record = {"game": "fuchsen", "rules": None, "events": [DEAL, call]}
    return table_view(record).to_dict().get("tally")


def test_the_tally_offered_after_a_call_does_not_depend_on_which_card_is_called() -> None:
    calls = table_view({"game": "fuchsen", "rules": None, "events": [DEAL]}).to_dict()["legal"][
        "calls"
    ]
    assert calls["cards"]
    for macher in PLAYERS:
        first = _tally_after({"type": "call", "player": macher, "card": calls["cards"][0]})
        for card in calls["cards"][1:]:
            assert _tally_after({"type": "call", "player": macher, "card": card}) == first


def test_playing_alone_is_offered_a_tally_of_its_own_without_a_hilfer() -> None:
    alone = _tally_after({"type": "call", "player": "2", "alone": True})
    partner = _tally_after({"type": "call", "player": "2", "card": "EA"})
    assert isinstance(alone, dict) and isinstance(partner, dict)
    assert "partner" not in alone["fields"] and "partner" in partner["fields"]
