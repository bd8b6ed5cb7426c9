"""Every error code of event-stream.md, each reported at exactly the illegal event."""

from __future__ import annotations

from typing import Any, cast

import pytest

from engine import ERROR_CODES, replay
from tests.engine.records import (
    END,
    FOUR,
    HANDS4,
    HANDS5,
    TRICK1,
    UNDO,
    bid,
    call,
    deal,
    error_of,
    forfeit,
    fuchsen,
    join,
    koenig,
    pass_,
    play,
    plays,
    raise_,
    record,
    show,
)

AUCTION = [bid("bert", "zehnermord"), pass_("carl"), pass_("dora"), pass_("anna")]


def test_it_rejects_a_record_that_is_not_an_object() -> None:
    result = replay(["not", "a", "record"])
    assert error_of(result) == (-1, "malformed_record")
    assert result.to_dict() == {
        "status": "invalid",
        "error": {"index": -1, "code": "malformed_record", "message": result.error.message},  # type: ignore[union-attr]
    }


@pytest.mark.parametrize(
    "bad", [{"game": "skat", "events": []}, {"game": "fuchsen"}, {"game": "fuchsen", "events": {}}]
)
def test_it_rejects_an_unknown_game_or_events_that_are_not_a_list(bad: Any) -> None:
    assert error_of(replay(bad)) == (-1, "malformed_record")


def test_it_rejects_house_rules_of_the_wrong_kind() -> None:
    result = replay({"game": "fuchsen", "rules": {"game_cost": True}, "events": []})
    assert error_of(result) == (-1, "invalid_rules")
    assert "game_cost" in result.error.message  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "event",
    [
        "play",
        {"type": "dance"},
        {"type": "play", "card": "EO"},
        {"type": "play", "player": "bert", "card": "EO", "colour": "red"},
        {"type": "play", "player": "bert", "card": 10},
        {"type": "play", "player": ["bert"], "card": "EO"},
        {"type": "bid", "player": "bert", "contract": "bettler"},
        {"type": "call", "player": "bert"},
        {"type": "raise", "player": "bert"},
    ],
)
def test_it_rejects_a_malformed_event(event: Any) -> None:
    assert error_of(fuchsen(deal(), event)) == (1, "malformed_event")


def test_it_rejects_fields_of_the_other_game_as_malformed() -> None:
    result = koenig(deal(FOUR), play("bert", "EA", fuchs=True))
    assert error_of(result) == (1, "malformed_event")
    assert error_of(koenig(deal(FOUR), raise_("bert", "kontra"))) == (1, "malformed_event")


def test_it_rejects_a_card_outside_the_deck() -> None:
    four = deal(FOUR)
    assert error_of(fuchsen(four, call("bert", "SK"), play("bert", "S8"))) == (2, "unknown_card")
    five = deal()
    assert error_of(fuchsen(five, call("bert", "E10"), play("bert", "S7"))) == (2, "unknown_card")
    assert error_of(fuchsen(five, call("bert", "E10"), play("bert", "X9"))) == (2, "unknown_card")
    assert error_of(fuchsen(five, call("bert", "G7"))) == (1, "unknown_card")


def test_it_rejects_a_player_who_is_not_playing() -> None:
    assert error_of(fuchsen(deal(), call("zed", "E10"))) == (1, "unknown_player")
    six = deal(["franz", *FOUR, "emil"], dealer="franz")
    result = fuchsen(six, call("bert", "E10"), play("franz", "EO"))
    assert error_of(result) == (2, "unknown_player")
    assert "franz sits out" in result.error.message  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "bad_deal",
    [
        deal(["anna", "bert", "carl"]),
        deal(dealer="zed"),
        deal(["anna", "bert", "anna", "dora"]),
        deal(["anna", "", "carl", "dora"]),
        deal(hands={"bert": ["EO", "GO", "EU", "GU", "SU"]}),
        deal(
            hands={
                "bert": ["EO", "GO", "EU", "GU", "SU", "EA"],
                "carl": ["EA", "RA", "R10", "RK", "RO", "R9"],
            }
        ),
        deal(hands={"zed": ["EO", "GO", "EU", "GU", "SU", "EA"]}),
        # Six codes as an object's keys are not a list of cards.
        deal(hands={"bert": cast(Any, dict.fromkeys(["EO", "GO", "EU", "GU", "SU", "EA"], True))}),
        deal(hands={"bert": cast(Any, ("EO", "GO", "EU", "GU", "SU", "EA"))}),
        deal(removed=["S7"]),
        deal(removed=["S7", "EA"]),
        deal(FOUR, removed=["S7", "G7"]),
        deal(sitting_out="emil"),
    ],
)
def test_it_rejects_a_bad_deal(bad_deal: dict[str, Any]) -> None:
    assert error_of(fuchsen(bad_deal)) == (0, "invalid_deal")


def test_it_rejects_a_koenigrufen_deal_for_five() -> None:
    assert error_of(koenig(deal())) == (0, "invalid_deal")


def test_a_card_code_in_a_dealt_hand_that_is_no_card_is_unknown_card() -> None:
    assert error_of(fuchsen(deal(FOUR, hands={"bert": ["EO", "GO", "EU", "GU", "SU", "S8"]}))) == (
        0,
        "unknown_card",
    )


@pytest.mark.parametrize(
    ("events", "index"),
    [
        ([play("bert", "EO")], 0),
        ([deal(), play("bert", "EO")], 1),
        ([deal(), raise_("dora", "kontra")], 1),
        ([deal(), forfeit("bert")], 1),
        ([deal(), deal()], 1),
        ([deal(), call("bert", "E10"), call("bert", "E10")], 2),
        ([deal(), call("bert", "E10"), play("bert", "EO"), END], 3),
    ],
)
def test_it_rejects_an_event_that_does_not_fit_the_phase(events: list[Any], index: int) -> None:
    assert error_of(fuchsen(*events)) == (index, "out_of_order")


def test_it_rejects_a_bid_after_the_auction_and_a_card_during_it() -> None:
    assert error_of(koenig(deal(FOUR), *AUCTION, bid("carl", "hundertermord"))) == (
        5,
        "out_of_order",
    )
    assert error_of(koenig(deal(FOUR), bid("bert", "bettler"), play("carl", "EA"))) == (
        2,
        "out_of_order",
    )


def test_it_rejects_a_card_or_a_bid_out_of_turn() -> None:
    assert error_of(fuchsen(deal(), call("bert", "E10"), play("carl", "RA"))) == (
        2,
        "not_your_turn",
    )
    result = koenig(deal(FOUR), bid("carl", "bettler"))
    assert error_of(result) == (1, "not_your_turn")
    assert "bert" in result.error.message  # type: ignore[union-attr]


def test_it_rejects_a_card_the_deal_gave_someone_else() -> None:
    result = fuchsen(
        deal(hands=HANDS5), call("bert", "E10"), play("bert", "EO"), play("carl", "RK")
    )
    assert error_of(result) == (3, "card_not_in_hand")
    assert "dora" in result.error.message  # type: ignore[union-attr]


def test_it_rejects_a_card_played_twice() -> None:
    events = [deal(), call("bert", "E10"), *plays("bert:EO carl:RA dora:RA")]
    assert error_of(fuchsen(*events)) == (4, "card_already_played")


def test_it_rejects_a_card_shown_twice() -> None:
    assert error_of(fuchsen(deal(), show("carl", "RA"), show("carl", "RA"))) == (
        2,
        "card_already_played",
    )


def test_it_rejects_a_player_who_does_not_follow_suit() -> None:
    result = fuchsen(
        deal(hands=HANDS5), call("bert", "E10"), play("bert", "EO"), play("carl", "E10")
    )
    assert error_of(result) == (3, "must_follow_suit")
    assert result.error.message == "carl must follow suit: carl holds RA and Trumps were led"  # type: ignore[union-attr]


def test_it_rejects_a_player_who_does_not_overtake() -> None:
    result = koenig(deal(FOUR, hands=HANDS4), *AUCTION, *plays("bert:EK carl:EU dora:E9"))
    assert error_of(result) == (7, "must_overtake")


def test_it_rejects_a_player_who_does_not_trump() -> None:
    events = [
        deal(),
        call("bert", "E10"),
        *plays("bert:EA carl:GA dora:E10 emil:E9 anna:E8"),
        END,
        show("carl", "RU"),
    ]
    assert error_of(fuchsen(*events)) == (3, "must_trump")


def test_it_rejects_a_player_who_does_not_over_trump() -> None:
    events = [
        deal(),
        call("bert", "E10"),
        *plays("bert:EA carl:RA dora:E10 emil:R9 anna:E8"),
        END,
        show("emil", "RU"),
    ]
    result = fuchsen(*events)
    assert error_of(result) == (5, "must_trump")
    assert "over-trump" in result.error.message  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "bad_call",
    [
        call("bert", "SA"),
        call("bert", "RA"),
        call("bert", "E10", alone=True),
        call("bert", alone=True),
        call("bert", "E10", turned="EO"),
        call("bert", "E10", turned="EA"),
        call("carl", "EA"),
    ],
)
def test_it_rejects_a_call_the_rules_forbid(bad_call: dict[str, Any]) -> None:
    assert error_of(fuchsen(deal(hands=HANDS5), bad_call)) == (1, "invalid_call")


def test_it_rejects_a_call_when_someone_else_plays_the_macher_card() -> None:
    result = fuchsen(deal(), call("carl", "EA"), play("bert", "EO"))
    assert error_of(result) == (1, "invalid_call")


@pytest.mark.parametrize(
    "events",
    [
        [bid("bert", "hundertermord")],
        [bid("bert", "plauderer"), bid("carl", "bettler")],
        [bid("bert", "durchmarsch")],
        [bid("bert", "durchmarsch", called="EK")],
        [bid("bert", "bettler", called="SA")],
        [bid("bert", "zehnermord", card="EA")],
        [bid("bert", "schurln")],
        [bid("bert", "zehnermord"), join("carl")],
        [bid("bert", "bettler"), join("carl"), join("dora")],
    ],
)
def test_it_rejects_a_bid_the_rules_forbid(events: list[Any]) -> None:
    result = koenig(deal(FOUR, hands=HANDS4), *events)
    assert error_of(result) == (len(events), "invalid_bid")


def test_it_rejects_a_raise_by_the_wrong_side() -> None:
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:3], raise_("carl", "kontra")]
    assert error_of(fuchsen(*events)) == (5, "invalid_raise")


def test_it_rejects_a_raise_that_skips_a_level() -> None:
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:3], raise_("dora", "supp")]
    assert error_of(fuchsen(*events)) == (5, "invalid_raise")


def test_it_rejects_a_raise_before_the_players_own_first_card() -> None:
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:1], raise_("dora", "kontra")]
    assert error_of(fuchsen(*events)) == (3, "invalid_raise")


def test_it_rejects_a_raise_after_its_chance_lapsed() -> None:
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:4], raise_("dora", "kontra")]
    result = fuchsen(*events)
    assert error_of(result) == (6, "invalid_raise")
    assert "lapsed" in result.error.message  # type: ignore[union-attr]


def test_a_lapsed_chance_stays_open_without_strict_raise_windows() -> None:
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:4], raise_("dora", "kontra")]
    result = fuchsen(*events, rules={"strict_raise_windows": False})
    assert result.status == "in_progress"
    assert result.level == "kontra"


def test_it_rejects_a_raise_after_the_raising_ended() -> None:
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:3], raise_("dora", "kontra")]
    events += [raise_("carl", "re"), *TRICK1[3:], END, raise_("dora", "supp")]
    assert error_of(fuchsen(*events)) == (10, "invalid_raise")


def test_it_rejects_a_fuchs_said_by_an_opponent() -> None:
    events = [deal(hands=HANDS5), call("bert", "E10"), play("bert", "EO", fuchs=True)]
    assert error_of(fuchsen(*events)) == (2, "invalid_announcement")


def test_it_rejects_a_fuchs_said_by_a_hilfer_without_go() -> None:
    events = [
        deal(hands=HANDS5),
        call("bert", "E10"),
        play("bert", "EO"),
        play("carl", "RA", fuchs=True),
    ]
    assert error_of(fuchsen(*events)) == (3, "invalid_announcement")


def test_it_rejects_a_turned_card_played_face_up() -> None:
    hands = dict(
        HANDS5, bert=["EO", "GO", "EU", "GU", "SU", "E8"], anna=["R8", "R7", "EA", "E7", "S9", "S8"]
    )
    events = [deal(hands=hands), call("bert", "GA", turned="E8"), play("bert", "E8")]
    assert error_of(fuchsen(*events)) == (2, "face_down_card_mismatch")
    events = [deal(hands=hands), call("bert", "GA", turned="E8"), play("bert", "EO", turned=True)]
    assert error_of(fuchsen(*events)) == (2, "face_down_card_mismatch")


def test_it_rejects_a_bettler_lead_other_than_the_face_down_card() -> None:
    events = [deal(FOUR, hands=HANDS4), bid("bert", "bettler", card="RK"), pass_("carl")]
    events += [pass_("dora"), pass_("anna"), play("bert", "EA")]
    assert error_of(koenig(*events)) == (5, "face_down_card_mismatch")


def test_it_rejects_a_card_after_the_game_is_decided() -> None:
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1, END, play("bert", "GO")]
    assert error_of(fuchsen(*events)) == (8, "game_finished")


def test_show_undo_and_annul_are_allowed_after_the_decision() -> None:
    base = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1, END]
    assert fuchsen(*base, show("bert", "GO")).status == "finished"
    assert fuchsen(*base, {"type": "annul"}).status == "annulled"
    assert fuchsen(*base, UNDO).status == "in_progress"


def test_after_the_decision_a_bad_card_is_still_unknown_card_and_a_deal_out_of_order() -> None:
    base = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1, END]
    assert error_of(fuchsen(*base, play("bert", "X1"))) == (8, "unknown_card")
    assert error_of(fuchsen(*base, play("zed", "GO"))) == (8, "unknown_player")
    assert error_of(fuchsen(*base, deal())) == (8, "out_of_order")


def test_it_rejects_an_undo_with_nothing_left_to_remove() -> None:
    assert error_of(fuchsen(deal(), UNDO, UNDO)) == (2, "nothing_to_undo")


def test_every_error_code_is_exercised_by_this_file() -> None:
    source = open(__file__, encoding="utf-8").read()  # noqa: SIM115
    for code in ERROR_CODES:
        assert f'"{code}"' in source, code


def test_an_event_breaking_several_rules_gets_the_first_code_of_the_table() -> None:
    # Out of turn and a card of someone else's hand: not_your_turn comes first.
    result = fuchsen(deal(hands=HANDS5), call("bert", "E10"), play("carl", "RK"))
    assert error_of(result) == (2, "not_your_turn")


def test_a_record_keeps_its_game_in_an_invalid_result() -> None:
    result = replay(record("koenigrufen", deal()))
    assert result.to_dict()["game"] == "koenigrufen"


def test_it_rejects_a_tally_whose_fields_contradict_each_other() -> None:
    # 60 Augen lose: the tally cannot also say the Macher's side won.
    tally = {"type": "tally", "level": "re", "won": True, "augen": 60, "partner": "carl"}
    result = fuchsen(deal(), call("bert", "E10"), tally)
    assert error_of(result) == (2, "invalid_tally")
    assert result.error is not None and result.error.field == "augen"
