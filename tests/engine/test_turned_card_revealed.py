"""A call with ``"turned": true`` turns a card the record names only later, when the
Macher plays it face down: the turning rules (fuchsen.md, "Turning") judge that card in
hindsight, and a card they forbid makes the call ``invalid_call``, at the call."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.replay import replay

# Shared example 16: dora calls SA with "turned": true and plays the blank (E7) face down in
# trick 1 (event 4); the record has no hands.
BASE: dict[str, Any] = {
    "game": "fuchsen",
    "events": [
        {"type": "deal", "dealer": "anna", "players": ["anna", "bert", "carl", "dora", "emil"]},
        {"type": "call", "player": "dora", "card": "SA", "turned": True},
        {"type": "play", "player": "bert", "card": "S9"},
        {"type": "play", "player": "carl", "card": "SA", "fuchs": True},
        {"type": "play", "player": "dora", "card": "E7", "turned": True},
        {"type": "play", "player": "emil", "card": "SO"},
        {"type": "raise", "player": "emil", "level": "kontra"},
        {"type": "raise", "player": "dora", "level": "re"},
        {"type": "play", "player": "anna", "card": "S10"},
        {"type": "end_raising"},
        {"type": "play", "player": "carl", "card": "GO"},
        {"type": "play", "player": "dora", "card": "EO"},
        {"type": "play", "player": "emil", "card": "R9"},
        {"type": "play", "player": "anna", "card": "RO"},
        {"type": "play", "player": "bert", "card": "R7"},
        {"type": "play", "player": "dora", "card": "EU"},
        {"type": "play", "player": "emil", "card": "RK"},
        {"type": "play", "player": "anna", "card": "R10"},
        {"type": "play", "player": "bert", "card": "RA"},
        {"type": "play", "player": "carl", "card": "R8"},
        {"type": "play", "player": "dora", "card": "GU"},
        {"type": "play", "player": "emil", "card": "E8"},
        {"type": "play", "player": "anna", "card": "RU"},
        {"type": "play", "player": "bert", "card": "S8"},
        {"type": "play", "player": "carl", "card": "SU"},
        {"type": "play", "player": "dora", "card": "GA"},
        {"type": "play", "player": "emil", "card": "E9"},
        {"type": "play", "player": "anna", "card": "G8"},
        {"type": "play", "player": "bert", "card": "E10"},
        {"type": "play", "player": "carl", "card": "G10"},
        {"type": "play", "player": "dora", "card": "G9"},
        {"type": "play", "player": "emil", "card": "SK"},
        {"type": "play", "player": "anna", "card": "GK"},
        {"type": "play", "player": "bert", "card": "EA"},
        {"type": "play", "player": "carl", "card": "EK"},
    ],
}
BLANK_AT = 4


def _with_blank(card: str) -> dict[str, Any]:
    """Example 16 with dora's face-down card ``card`` instead of E7; the player who
    plays ``card`` face up later plays E7 instead, so the whole deal is still played."""
    out = copy.deepcopy(BASE)
    events = out["events"]
    for event in events[BLANK_AT + 1 :]:
        if event.get("card") == card:
            event["card"] = "E7"
    events[BLANK_AT]["card"] = card
    return out


def _error(record: dict[str, Any]) -> tuple[int, str]:
    result = replay(record)
    assert result.status == "invalid", result.to_dict()
    assert result.error is not None
    return result.error.index, result.error.code


@pytest.mark.parametrize("card", ["EA", "E9", "EO", "GA"])
def test_a_blank_the_turning_rules_forbid_makes_the_call_invalid(card: str) -> None:
    record = _with_blank(card)
    assert _error(record) == (1, "invalid_call")


@pytest.mark.parametrize("card", ["EA", "E9", "EO"])
def test_the_call_is_invalid_as_soon_as_the_face_down_play_is_recorded(card: str) -> None:
    record = _with_blank(card)
    record["events"] = record["events"][: BLANK_AT + 1]
    assert _error(record) == (1, "invalid_call")


def test_the_message_names_the_card_the_record_reveals() -> None:
    result = replay(_with_blank("EA"))
    assert result.error is not None
    assert "EA" in result.error.message


def test_the_called_card_played_as_the_blank_makes_the_call_invalid() -> None:
    # dora calls S8 and turns a card unseen; the card she plays face down is S8 itself.
    record = copy.deepcopy(BASE)
    events = record["events"][: BLANK_AT + 1]
    events[1]["card"] = "S8"
    events[3] = {"type": "play", "player": "carl", "card": "SA"}
    events[BLANK_AT]["card"] = "S8"
    record["events"] = events
    assert _error(record) == (1, "invalid_call")
    error = replay(record).error
    assert error is not None
    assert "turned" in error.message


def test_a_plain_seven_or_eight_stays_allowed_as_the_blank() -> None:
    assert replay(BASE).status == "finished"
    for card in ("E8", "G8"):
        record = _with_blank(card)
        record["events"] = record["events"][: BLANK_AT + 1]
        assert replay(record).status == "in_progress", card


def test_a_trump_is_allowed_as_the_blank_while_the_hand_may_be_six_trumps() -> None:
    # No hands: dora may hold six trumps, so a trump (not EO) may be her blank.
    record = _with_blank("GU")
    record["events"] = record["events"][: BLANK_AT + 1]
    assert replay(record).status == "in_progress"


def test_a_blank_refused_by_the_house_rules_makes_the_call_invalid() -> None:
    record = copy.deepcopy(BASE)
    record["rules"] = {"turn_low_plain": False}
    record["events"] = record["events"][: BLANK_AT + 1]
    assert _error(record) == (1, "invalid_call")


def test_a_plain_card_that_leaves_only_the_blank_is_judged_with_the_blank_it_names() -> None:
    # Anna turned a card calling Grün and holds G8 and R7; Franz leads Grün. R7 played
    # plainly leaves G8 the only card her blank can be: the blank counts as Grün, so she
    # had to follow with it. The view offers only what replay then accepts.
    from engine import replay, table_view
    from engine.generate import random_game

    record = random_game(57, "fuchsen", 6)
    prefix = {**record, "events": record["events"][:29]}
    view = table_view(prefix)
    assert view.to_act == "anna" and view.trick == (("franz", "GK"),)
    assert view.legal.cards == ("G8",)
    assert view.legal.refused["R7"].code == "must_follow_suit"
    for code in ("G8", "R7"):
        event = {"type": "play", "player": "anna", "card": code}
        accepted = replay({**prefix, "events": [*prefix["events"], event]}).status != "invalid"
        assert accepted == (code in view.legal.cards)


def test_a_plain_card_that_proves_an_earlier_entry_wrong_stays_offered_to_the_turning_macher() -> (
    None
):
    # Dora turned a card; Bert said the Fuchs although he is no Hilfer, which Dora's
    # Grün-Ober proves: the card stays offered, so the page can name Bert's entry.
    from engine import replay, table_view
    from engine.generate import random_game

    record = random_game(30137, "fuchsen", 5, hands=False)
    prefix = {**record, "events": record["events"][:4]}
    view = table_view(prefix)
    assert view.to_act == "dora" and "GO" in view.legal.cards
    event = {"type": "play", "player": "dora", "card": "GO"}
    error = replay({**prefix, "events": [*prefix["events"], event]}).error
    assert error is not None and error.index == 2  # Bert's announcement, not the card
