"""Königrufen records decided, waiting or refused, contract by contract (moved here
from the express path's tests)."""

from __future__ import annotations

from typing import Any

from engine.replay import replay
from tests.engine.records import FOUR, HANDS4, bid, deal, join, pass_, plays, record


def _game(*events: Any, hands: bool = False, **rules: Any) -> dict[str, Any]:
    dealt = deal(FOUR, "anna", HANDS4 if hands else None)
    return record("koenigrufen", dealt, *events, rules=rules or None)


ALL_PASS = [pass_("carl"), pass_("dora"), pass_("anna")]


def test_a_koenigmord_played_out_is_settled() -> None:
    game = _game(
        bid("bert", "koenigmord"),
        *ALL_PASS,
        plays("bert:EA carl:EU dora:E9 anna:S9"),
        plays("bert:EK carl:EO dora:E10 anna:S10"),
        plays("bert:GA carl:GU dora:G9 anna:R9"),
        plays("bert:GK carl:GO dora:G10 anna:R10"),
        plays("bert:RA carl:SA dora:SO anna:RU"),
        plays("bert:RK carl:SK dora:SU anna:RO"),
    )
    result = replay(game).to_dict()
    assert (result["won"], result["reason"], result["tricks"]) == (True, "played_out", 6)
    assert result["payouts"] == {"anna": -70, "bert": 210, "carl": -70, "dora": -70}


def test_a_zehnermord_lost_in_the_first_trick_is_decided() -> None:
    # Ten-high: dora's E10 beats bert's EK, and she must play it.
    game = _game(
        bid("bert", "zehnermord"),
        *ALL_PASS,
        plays("bert:EK carl:EU dora:E10 anna:S9"),
        values={"zehnermord": 25},
    )
    result = replay(game).to_dict()
    assert (result["won"], result["reason"], result["tricks"], result["value"]) == (
        False,
        "decided",
        1,
        25,
    )
    assert list(result["payouts"]) == FOUR  # in seat order, as the fold gives them


def test_a_plauderer_with_a_joiner_and_face_down_cards_is_settled() -> None:
    # carl's bettler (GU face down), which dora joins, is overbid by anna's plauderer
    # (R9 face down); carl joins that with GU. Their first cards are those, and carl's
    # is exempt from following suit.
    game = _game(
        pass_("bert"),
        bid("carl", "bettler", card="GU"),
        join("dora"),
        bid("anna", "plauderer", card="R9"),
        join("carl", card="GU"),
        plays("anna:R9 bert:RA carl:GU dora:SU"),
        hands=True,
    )
    result = replay(game).to_dict()
    assert result["status"] == "in_progress"
    assert (result["declarers"], result["to_act"]) == (["anna", "carl"], "bert")


def test_a_stichzwang_broken_as_a_later_card_shows_is_refused() -> None:
    # dora keeps E10 back in the first trick (ten-high, it beats EK), and plays it later.
    game = _game(
        bid("bert", "zehnermord"),
        *ALL_PASS,
        plays("bert:EK carl:EU dora:E9 anna:S9"),
        plays("bert:EA carl:EO dora:E10 anna:S10"),
    )
    assert replay(game).to_dict()["error"]["code"] == "must_overtake"


def test_a_hundert_bid_without_k_and_o_in_a_dealt_hand_is_refused() -> None:
    game = _game(pass_("bert"), bid("carl", "hundertermord"), hands=True)
    assert replay(game).to_dict()["error"]["code"] == "invalid_bid"


def test_a_durchmarsch_whose_called_card_nobody_has_played_names_only_the_declarer() -> None:
    game = _game(
        bid("bert", "durchmarsch", called="SA"),
        *ALL_PASS,
        plays("bert:EA carl:EU dora:E9 anna:S9"),
    )
    result = replay(game).to_dict()
    assert (result["status"], result["declarers"], result["to_act"]) == (
        "in_progress",
        ["bert"],
        "bert",
    )


def test_an_auction_under_way_is_answered_with_what_it_awaits() -> None:
    game = _game(pass_("bert"), bid("carl", "bettler"))
    result = replay(game).to_dict()
    assert result == {
        "status": "in_progress",
        "game": "koenigrufen",
        "awaiting": "bid",
        "to_act": "dora",
    }


def test_a_join_of_a_contract_other_than_bettler_or_plauderer_is_refused() -> None:
    game = _game(bid("bert", "koenigmord"), join("carl"))
    assert replay(game).to_dict()["error"]["code"] == "invalid_bid"


def test_a_second_join_is_refused() -> None:
    game = _game(bid("bert", "bettler"), join("carl"), join("dora"))
    assert replay(game).to_dict()["error"]["code"] == "invalid_bid"


def test_a_card_after_the_deciding_trick_is_refused() -> None:
    game = _game(
        bid("bert", "zehnermord"),
        *ALL_PASS,
        plays("bert:EK carl:EU dora:E10 anna:S9 dora:E9"),
    )
    assert replay(game).to_dict()["error"]["code"] == "game_finished"


def test_a_durchmarsch_letzter_whose_last_trick_another_takes_names_him_partner() -> None:
    # bert takes tricks 1 to 5 with his aces and EK; dora's GK beats his G9 in the last.
    game = _game(
        bid("bert", "durchmarsch_letzter"),
        *ALL_PASS,
        plays("bert:EA carl:EO dora:EU anna:E10"),
        plays("bert:GA carl:GO dora:GU anna:G10"),
        plays("bert:RA carl:RK dora:RO anna:RU"),
        plays("bert:SA carl:SK dora:SO anna:SU"),
        plays("bert:EK carl:E9 dora:R10 anna:S10"),
        plays("bert:G9 carl:R9 dora:GK anna:S9"),
    )
    result = replay(game).to_dict()
    assert (result["declarers"], result["won"], result["reason"]) == (
        ["bert", "dora"],
        True,
        "played_out",
    )
    assert result["payouts"] == {"anna": -40, "bert": 40, "carl": -40, "dora": 40}


def test_a_joiner_who_plays_another_card_than_he_laid_down_is_refused() -> None:
    game = _game(
        pass_("bert"),
        bid("carl", "bettler"),
        pass_("dora"),
        bid("anna", "plauderer", card="R9"),
        join("carl", card="GU"),
        plays("anna:R9 bert:RA carl:GO"),
    )
    assert replay(game).to_dict()["error"]["code"] == "face_down_card_mismatch"


def test_a_called_card_nobody_can_hold_is_refused() -> None:
    # anna's durchmarsch (overbid) calls S9: carl, dora and bert show six cards each
    # without it, and anna has not played her last card yet.
    game = _game(
        bid("bert", "bettler"),
        pass_("carl"),
        pass_("dora"),
        bid("anna", "durchmarsch", called="S9"),
        bid("bert", "koenigmord"),
        pass_("anna"),
        plays("bert:EA carl:EU dora:E9 anna:S10"),
        plays("bert:EK carl:EO dora:E10 anna:R9"),
        plays("bert:GA carl:GU dora:G9 anna:R10"),
        plays("bert:GK carl:GO dora:G10 anna:RU"),
        plays("bert:RA carl:SA dora:SO anna:RO"),
        plays("bert:RK carl:SK dora:SU"),
    )
    assert replay(game).to_dict()["error"] == {
        "index": 4,
        "code": "invalid_bid",
        "message": "nobody can hold S9: every other hand is known without it",
    }


def test_a_seventh_card_laid_face_down_is_refused() -> None:
    # anna lays S9 and then RO face down and plays five other cards: seven in her hand.
    game = record(
        "koenigrufen",
        deal(FOUR, "dora"),
        bid("anna", "bettler", card="S9"),
        bid("bert", "durchmarsch_letzter"),
        pass_("carl"),
        pass_("dora"),
        bid("anna", "plauderer", card="RO"),
        bid("bert", "koenigmord"),
        pass_("anna"),
        plays("bert:EA carl:EU dora:E9 anna:SK"),
        plays("bert:EK carl:EO dora:E10 anna:S10"),
        plays("bert:GA carl:GU dora:G9 anna:R9"),
        plays("bert:GK carl:GO dora:G10 anna:R10"),
        plays("bert:RA carl:SA dora:SO anna:RU"),
    )
    assert replay(game).to_dict()["error"]["code"] == "card_not_in_hand"
