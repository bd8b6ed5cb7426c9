"""table_view says, for each card the player to act may not play, why: the error the
engine gives that play; and which cards the Macher may still play face down as his
turned card, judged in hindsight as the whole record would be."""

from __future__ import annotations

from typing import Any

import pytest

from engine import replay, table_view
from tests.engine.records import HANDS5, call, deal, play, plays, record

# Example 16's start: dora calls SA turning a card unseen; bert leads S9, carl plays SA.
TURNED = [
    deal(),
    call("dora", "SA", turned=True),
    play("bert", "S9"),
    play("carl", "SA", fuchs=True),
]


def _appended(rec: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    return {**rec, "events": [*rec["events"], event]}


def test_every_refused_card_carries_the_error_replay_gives_that_play() -> None:
    rec = record("fuchsen", deal(hands=HANDS5), call("bert", "E10"), play("bert", "EO"))
    view = table_view(rec)
    assert view.to_act == "carl"
    assert view.legal.refused
    for code, refused_error in view.legal.refused.items():
        error, message = refused_error.code, refused_error.message
        result = replay(_appended(rec, {"type": "play", "player": "carl", "card": code}))
        assert result.error is not None, code
        assert (result.error.code, result.error.message) == (error, message)


def test_a_card_that_breaks_following_suit_is_refused_as_such() -> None:
    rec = record("fuchsen", deal(hands=HANDS5), call("bert", "E10"), play("bert", "EO"))
    refused = table_view(rec).legal.refused
    # carl holds trumps (RU, RA): his plain cards may not be played on a trump lead.
    assert refused["GA"].code == "must_follow_suit"
    assert "carl" in refused["GA"].message
    # A card the record puts in another hand.
    assert refused["R10"].code == "card_not_in_hand"


def test_no_legal_card_is_refused() -> None:
    rec = record("fuchsen", deal(hands=HANDS5), call("bert", "E10"), play("bert", "EO"))
    legal = table_view(rec).legal
    assert legal.cards
    assert not set(legal.cards) & set(legal.refused)


def test_the_macher_may_play_face_down_only_a_card_he_may_have_turned() -> None:
    legal = table_view(record("fuchsen", *TURNED)).legal
    assert "E7" in legal.face_down and "G8" in legal.face_down
    for code in ("EA", "E9", "EO"):
        assert code not in legal.face_down
        assert legal.refused_face_down[code].code == "invalid_call"


def test_each_card_offered_face_down_is_accepted_by_the_whole_record() -> None:
    rec = record("fuchsen", *TURNED)
    legal = table_view(rec).legal
    for code in legal.face_down:
        event = {"type": "play", "player": "dora", "card": code, "turned": True}
        assert replay(_appended(rec, event)).status != "invalid", code


def test_once_the_blank_is_played_nothing_is_offered_face_down() -> None:
    rec = record("fuchsen", *TURNED, play("dora", "E7", turned=True), *plays("emil:SO"))
    view = table_view(rec)
    assert view.legal.face_down == ()


def test_the_refusals_are_in_the_views_json() -> None:
    data = table_view(record("fuchsen", *TURNED)).to_dict()["legal"]
    assert data["refused_face_down"]["EA"]["code"] == "invalid_call"
    assert "face_down" in data and "refused" in data


def _awaiting_partner() -> dict[str, Any]:
    # Example 10: dora calls S10 without hands; the first trick ends the game, and the
    # result depends on who holds S10.
    return record(
        "fuchsen",
        deal(),
        call("dora", "S10"),
        *plays("bert:GO carl:RA dora:EO emil:R9 anna:R7"),
        {"type": "end_raising"},
    )


def test_while_the_result_waits_for_the_partner_the_view_lists_who_may_be_him() -> None:
    rec = _awaiting_partner()
    view = table_view(rec)
    if view.awaiting != "partner":
        pytest.skip(f"the record does not wait for the partner: {view.to_dict()['result']}")
    assert view.legal.partners
    assert "dora" not in view.legal.partners
    for name in view.legal.partners:
        show = {"type": "show", "player": name, "cards": ["S10"]}
        assert replay(_appended(rec, show)).status != "invalid", name


def test_a_player_the_record_proves_without_the_called_card_is_no_candidate() -> None:
    rec = _awaiting_partner()
    # The record shows all six of bert's cards, none of them S10.
    rec["events"].insert(
        1, {"type": "show", "player": "bert", "cards": ["GO", "EU", "GU", "SU", "E7", "E8"]}
    )
    view = table_view(rec)
    if view.awaiting != "partner":
        pytest.skip("the record does not wait for the partner")
    assert "bert" not in view.legal.partners
