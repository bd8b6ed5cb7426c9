"""Fuchsen rules (spec/fuchsen.md): payout rows, the ends of a game, Fahren, the blank."""

from __future__ import annotations

from engine import replay
from tests.engine.records import (
    END,
    FIVE,
    FOUR,
    HANDS5,
    REST,
    TRICK1,
    call,
    deal,
    error_of,
    forfeit,
    fuchsen,
    play,
    plays,
    raise_,
    show,
)

KONTRA_RE = [raise_("dora", "kontra"), raise_("carl", "re")]
# bert calls E10 (carl); kontra and re after dora's first card; bert's side takes
# every trick: 121 Augen.
SILENT = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:3], *KONTRA_RE, *TRICK1[3:], END, *REST]

# Example 03: dora calls S10, carl holds it and GO.
HANDS_FUCHS = {
    "dora": ["EO", "EU", "GU", "SA", "S9", "E7"],
    "carl": ["GO", "S10", "SU", "RU", "EA", "E10"],
    "bert": ["RA", "R10", "RK", "GA", "G10", "GK"],
    "emil": ["RO", "R9", "R8", "EK", "E9", "E8"],
    "anna": ["R7", "SK", "SO", "S8", "G9", "G8"],
}
FUCHS_TRICK1 = [
    play("bert", "GA"),
    play("carl", "GO", fuchs=True),
    *plays("dora:EO emil:R8 anna:G8"),
]
FUCHS_REST = plays(
    "dora:EU emil:R9 anna:R7 bert:RK carl:RU "
    "dora:GU emil:RO anna:S8 bert:R10 carl:SU "
    "dora:SA emil:E8 anna:SO bert:RA carl:S10 "
    "bert:G10 carl:E10 dora:S9 emil:E9 anna:G9 "
    "bert:GK carl:EA dora:E7 emil:EK anna:SK"
)


# --- payout rows ---------------------------------------------------------------------


def test_five_active_partner_game_pays_macher_twice_hilfer_once() -> None:
    result = fuchsen(deal(hands=HANDS5), call("bert", "E10"), *TRICK1, END)
    assert result.payouts == {"anna": -10, "bert": 20, "carl": 10, "dora": -10, "emil": -10}
    assert result.declarers == ("bert", "carl")


def test_five_active_partner_game_lost_costs_the_macher_twice() -> None:
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:3], raise_("dora", "kontra")]
    result = fuchsen(*events, *TRICK1[3:], END)
    assert (result.reason, result.won) == ("no_re", False)
    assert result.payouts == {"anna": 10, "bert": -20, "carl": -10, "dora": 10, "emil": 10}


def test_four_active_partner_game_pairs_each_player_with_one_opponent() -> None:
    hands = {
        "bert": ["EO", "GU", "EA", "E9", "SA", "S9"],
        "carl": ["SK", "EU", "RA", "GA", "G10", "E10"],
        "dora": ["GO", "SU", "R10", "RK", "G9", "EK"],
        "anna": ["RU", "RO", "R9", "GK", "S10", "SO"],
    }
    events = [deal(FOUR, hands=hands), call("bert", "SK"), *plays("bert:SA carl:SK dora:R10")]
    result = fuchsen(*events, raise_("dora", "kontra"), play("anna", "SO"), END)
    assert result.payouts == {"anna": 10, "bert": -10, "carl": -10, "dora": 10}


def test_alone_with_five_active_collects_four_times() -> None:
    hands = dict(
        HANDS5,
        bert=["EO", "GO", "EU", "GU", "SU", "RU"],
        carl=["RA", "R10", "EA", "E10", "GA", "EK"],
        anna=["R8", "R7", "E8", "E7", "S9", "S8"],
        emil=["RO", "R9", "E9", "G9", "G8", "SO"],
        dora=["RK", "G10", "GK", "SA", "S10", "SK"],
    )
    events = [
        deal(hands=hands),
        call("bert", alone=True),
        *plays("bert:EO carl:RA dora:RK emil:R9 anna:R7"),
        END,
    ]
    result = fuchsen(*events)
    assert (result.contract, result.declarers, result.reason) == ("alone", ("bert",), "no_kontra")
    assert result.payouts == {"anna": -10, "bert": 40, "carl": -10, "dora": -10, "emil": -10}


def test_alone_with_four_active_collects_three_times() -> None:
    hands = {
        "bert": ["EO", "GO", "EU", "GU", "SU", "RU"],
        "carl": ["RA", "R10", "EA", "E10", "EK", "E9"],
        "dora": ["RK", "RO", "GA", "G10", "GK", "G9"],
        "anna": ["R9", "SA", "S10", "SK", "SO", "S9"],
    }
    events = [deal(FOUR, hands=hands), call("bert", turned="GU", alone=True)]
    result = fuchsen(*events, *plays("bert:EO carl:RA dora:RK anna:R9"), END)
    assert result.payouts == {"anna": -10, "bert": 30, "carl": -10, "dora": -10}


def test_a_player_sitting_out_gets_zero() -> None:
    six = deal(["franz", "bert", "carl", "dora", "emil", "anna"], dealer="franz", hands=HANDS5)
    result = fuchsen(six, call("bert", "E10"), *TRICK1, END)
    assert result.payouts is not None and result.payouts["franz"] == 0
    assert sum(result.payouts.values()) == 0


def test_the_named_player_sits_out_under_sit_out_named() -> None:
    six = deal([*FIVE, "franz"], hands=HANDS5, sitting_out="franz")
    result = fuchsen(six, call("bert", "E10"), *TRICK1, END, rules={"sit_out": "named"})
    assert result.payouts == {
        "anna": -10,
        "bert": 20,
        "carl": 10,
        "dora": -10,
        "emil": -10,
        "franz": 0,
    }


def test_calling_his_own_card_is_paid_as_alone_but_stays_a_partner_contract() -> None:
    result = fuchsen(
        deal(hands=HANDS5), call("bert", "EA"), *TRICK1, END, rules={"call_own_card": True}
    )
    assert (result.contract, result.declarers) == ("partner", ("bert",))
    assert result.payouts == {"anna": -10, "bert": 40, "carl": -10, "dora": -10, "emil": -10}


def test_calling_his_own_card_is_invalid_by_default() -> None:
    assert error_of(fuchsen(deal(hands=HANDS5), call("bert", "EA"))) == (1, "invalid_call")


# --- ends of the game ------------------------------------------------------------------


def test_case_1_no_kontra_and_no_fuchs_ends_after_the_first_trick() -> None:
    result = fuchsen(deal(hands=HANDS5), call("bert", "E10"), *TRICK1, END)
    assert (result.status, result.reason, result.won, result.value, result.tricks) == (
        "finished",
        "no_kontra",
        True,
        10,
        1,
    )
    assert result.augen is None


def test_case_1_also_ends_with_the_first_card_of_trick_2() -> None:
    result = fuchsen(deal(hands=HANDS5), call("bert", "E10"), *TRICK1, play("bert", "GO"))
    assert (result.status, result.reason, result.tricks) == ("finished", "no_kontra", 1)


def test_case_2_an_announced_fuchs_without_kontra_is_played_out_at_the_minimum() -> None:
    result = fuchsen(deal(hands=HANDS_FUCHS), call("dora", "S10"), *FUCHS_TRICK1, END, *FUCHS_REST)
    assert (result.reason, result.value, result.augen, result.won) == (
        "played_out",
        10,
        (43, 78),
        False,
    )


def test_case_3_kontra_without_re_is_lost_after_the_first_trick() -> None:
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:3], raise_("dora", "kontra")]
    result = fuchsen(*events, *TRICK1[3:], END)
    assert (result.reason, result.won, result.value, result.level) == ("no_re", False, 10, "kontra")


def test_case_4_re_is_played_out_at_the_value_of_the_level() -> None:
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:3], *KONTRA_RE]
    events += [raise_("dora", "supp"), *TRICK1[3:], END, *REST]
    result = fuchsen(*events)
    assert (result.reason, result.level, result.value) == ("played_out", "supp", 25 + 10)


def test_every_level_said_gives_end_at_fifty() -> None:
    said = [raise_("dora", "kontra"), raise_("carl", "re"), raise_("dora", "supp")]
    said += [raise_("carl", "mort"), raise_("dora", "hirsch"), raise_("bert", "bock")]
    said += [raise_("dora", "feuer"), raise_("carl", "end")]
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:3], *said, *TRICK1[3:], END, *REST]
    result = fuchsen(*events, rules={"silent_bonus": 0})
    assert (result.level, result.value) == ("end", 50)


def test_level_values_and_game_cost_are_house_rules() -> None:
    result = fuchsen(*SILENT, rules={"level_values": {"re": 16}, "game_cost": 4, "silent_bonus": 0})
    assert result.value == 20


def test_case_5_stilles_spiel_adds_the_silent_bonus() -> None:
    result = fuchsen(*SILENT)
    assert (result.augen, result.value) == ((121, 0), 30)
    assert result.payouts == {"anna": -30, "bert": 60, "carl": 30, "dora": -30, "emil": -30}


def test_case_6_a_forgotten_fuchs_loses_at_the_penalty_plus_the_value() -> None:
    trick1 = [play("bert", "GA"), *plays("carl:GO dora:EO emil:R8 anna:G8")]
    result = fuchsen(deal(hands=HANDS_FUCHS), call("dora", "S10"), *trick1, END)
    assert (result.reason, result.won, result.value) == ("fuchs_forgotten", False, 20)
    result = fuchsen(
        deal(hands=HANDS_FUCHS), call("dora", "S10"), *trick1, END, rules={"fuchs_penalty": 30}
    )
    assert result.value == 40


def test_case_6_a_later_show_turns_an_early_end_into_a_forgotten_fuchs() -> None:
    trick1 = [play("bert", "GA"), *plays("carl:GO dora:EO emil:R8 anna:G8")]
    early = fuchsen(
        deal(), call("dora", "S10"), *trick1, END, show("bert", "SK"), show("carl", "S10")
    )
    assert early.reason == "fuchs_forgotten"


def test_case_6_while_played_on_it_is_decided_when_the_record_shows_it() -> None:
    # Without hands, carl's GO is seen in trick 1 but he is shown to be the Hilfer
    # only when he plays S10 in trick 4: the game is decided right after that card.
    trick1 = [play("bert", "GA"), *plays("carl:GO dora:EO emil:R8 anna:G8")]
    raises = [raise_("emil", "kontra"), raise_("dora", "re")]
    events = [deal(), call("dora", "S10"), *trick1[:4], *raises, *trick1[4:], END]
    events += FUCHS_REST[:15]  # up to and including carl's S10, the last card of trick 4
    result = fuchsen(*events)
    assert (result.reason, result.tricks) == ("fuchs_forgotten", 4)
    assert error_of(fuchsen(*events, *FUCHS_REST[15:16])) == (len(events), "game_finished")


def test_case_7_a_forfeit_loses_at_the_level_reached() -> None:
    events = [
        deal(hands=HANDS5),
        call("bert", "E10"),
        *TRICK1[:3],
        *KONTRA_RE,
        raise_("dora", "supp"),
    ]
    result = fuchsen(*events, *TRICK1[3:], END, *REST[:2], forfeit("carl"))
    assert (result.reason, result.won, result.value) == ("forfeit", False, 25)
    assert result.payouts == {"anna": 25, "bert": -50, "carl": -25, "dora": 25, "emil": 25}


def test_an_opponents_forfeit_makes_the_macher_side_win() -> None:
    result = fuchsen(deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:2], forfeit("anna"))
    assert (result.reason, result.won, result.value) == ("forfeit", True, 10)


def test_a_forfeit_stands_even_if_a_later_show_proves_a_forgotten_fuchs() -> None:
    trick1 = [play("bert", "GA"), *plays("carl:GO dora:EO emil:R8 anna:G8")]
    result = fuchsen(deal(), call("dora", "S10"), *trick1, forfeit("emil"), show("carl", "S10"))
    assert (result.reason, result.won) == ("forfeit", True)


def test_stilles_spiel_never_with_a_forfeit() -> None:
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:3], *KONTRA_RE, *TRICK1[3:], END]
    result = fuchsen(*events, *REST[:20], forfeit("dora"))
    assert result.value == 20


def test_a_game_in_progress_reports_what_is_known() -> None:
    result = fuchsen(deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:2])
    assert result.to_dict() == {
        "status": "in_progress",
        "game": "fuchsen",
        "contract": "partner",
        "declarers": ["bert", "carl"],
        "level": None,
        "tricks": 0,
        "awaiting": "play",
        "to_act": "dora",
    }


def test_after_the_first_trick_it_awaits_a_raise_or_the_end_without_to_act() -> None:
    result = fuchsen(deal(hands=HANDS5), call("bert", "E10"), *TRICK1)
    assert (result.awaiting, result.to_act) == ("raise_or_end", None)


def test_before_the_call_it_awaits_the_macher() -> None:
    assert fuchsen(deal(hands=HANDS5)).to_dict() == {
        "status": "in_progress",
        "game": "fuchsen",
        "awaiting": "call",
        "to_act": "bert",
    }
    assert fuchsen(deal()).to_act is None


# --- Fahren -----------------------------------------------------------------------------


def test_a_raise_chance_opens_at_the_later_of_his_first_card_and_the_previous_level() -> None:
    # carl played long before kontra; his chance for re opens with the kontra.
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:4], raise_("emil", "kontra")]
    assert fuchsen(*events, raise_("carl", "re")).level == "re"
    assert error_of(fuchsen(*events, TRICK1[4], raise_("carl", "re"))) == (8, "invalid_raise")


def test_the_fuchs_is_announced_only_with_the_first_card() -> None:
    trick1 = plays("bert:GA carl:RU dora:EO emil:R8 anna:G8")
    events = [deal(), call("dora", "S10"), trick1[0], raise_("bert", "kontra"), trick1[1]]
    events += [raise_("carl", "re"), *trick1[2:], END]
    events += plays("dora:EU emil:R9 anna:R7 bert:RK")
    result = fuchsen(*events, play("carl", "GO", fuchs=True))
    assert error_of(result) == (len(events), "invalid_announcement")


def test_nobody_announces_in_an_alone_game() -> None:
    hands = dict(
        HANDS5,
        bert=["EO", "GO", "EU", "GU", "SU", "RU"],
        carl=["RA", "R10", "EA", "E10", "GA", "EK"],
        anna=["R8", "R7", "E8", "E7", "S9", "S8"],
        emil=["RO", "R9", "E9", "G9", "G8", "SO"],
        dora=["RK", "G10", "GK", "SA", "S10", "SK"],
    )
    events = [deal(hands=hands), call("bert", alone=True), play("bert", "EO", fuchs=True)]
    assert error_of(fuchsen(*events)) == (2, "invalid_announcement")


def test_fuchs_false_is_allowed_on_any_card() -> None:
    result = fuchsen(deal(hands=HANDS5), call("bert", "E10"), play("bert", "EO", fuchs=False))
    assert result.status == "in_progress"


# --- turning and the blank --------------------------------------------------------------

HANDS_BLANK = {
    "bert": ["EO", "GO", "EU", "GU", "SU", "E8"],
    "carl": ["RU", "RK", "GK", "EA", "E10", "SA"],
    "dora": ["RA", "R9", "GA", "G10", "EK", "S10"],
    "emil": ["R10", "R8", "G9", "E9", "SK", "SO"],
    "anna": ["RO", "R7", "G8", "E7", "S9", "S8"],
}


def test_after_turning_the_macher_may_call_any_plain_card_he_does_not_hold() -> None:
    assert fuchsen(deal(hands=HANDS_BLANK), call("bert", "GA", turned="E8")).status == "in_progress"
    assert error_of(fuchsen(deal(hands=HANDS_BLANK), call("bert", "GA"))) == (1, "invalid_call")


def test_only_a_plain_seven_or_eight_may_be_turned_without_six_trumps() -> None:
    assert error_of(fuchsen(deal(hands=HANDS_BLANK), call("bert", "GA", turned="GU"))) == (
        1,
        "invalid_call",
    )
    result = fuchsen(
        deal(hands=HANDS_BLANK), call("bert", "GA", turned="E8"), rules={"turn_low_plain": False}
    )
    assert error_of(result) == (1, "invalid_call")


def test_a_blank_led_counts_as_the_called_suit() -> None:
    # bert turned E8 and called GA: his blank led is Grün, so carl must follow with GK.
    events = [
        deal(hands=HANDS_BLANK),
        call("bert", "GA", turned="E8"),
        play("bert", "E8", turned=True),
    ]
    assert error_of(fuchsen(*events, play("carl", "EA"))) == (3, "must_follow_suit")
    result = fuchsen(*events, *plays("carl:GK dora:GA emil:G9 anna:G8"))
    assert result.status == "in_progress"
    assert result.awaiting == "raise_or_end"


def test_a_blank_is_the_lowest_card_of_the_called_suit() -> None:
    events = [
        deal(hands=HANDS_BLANK),
        call("bert", "GA", turned="E8"),
        play("bert", "E8", turned=True),
    ]
    events += [play("carl", "GK"), raise_("carl", "kontra"), *plays("dora:GA emil:G9 anna:G8"), END]
    # dora's GA won the trick (the blank is below every Grün card): kontra, no re.
    result = fuchsen(*events)
    assert (result.reason, result.won) == ("no_re", False)


def test_turning_the_macher_card_is_invalid() -> None:
    hands = dict(
        HANDS5,
        bert=["EO", "GO", "EU", "GU", "SU", "RU"],
        carl=["RA", "R10", "EA", "E10", "GA", "EK"],
        anna=["R8", "R7", "E8", "E7", "S9", "S8"],
        emil=["RO", "R9", "E9", "G9", "G8", "SO"],
        dora=["RK", "G10", "GK", "SA", "S10", "SK"],
    )
    assert error_of(fuchsen(deal(hands=hands), call("bert", alone=True, turned="EO"))) == (
        1,
        "invalid_call",
    )
    assert fuchsen(deal(hands=hands), call("bert", alone=True, turned="GU")).status == "in_progress"


def test_alone_needs_six_trumps_unless_the_house_rule_says_otherwise() -> None:
    assert error_of(fuchsen(deal(hands=HANDS5), call("bert", alone=True))) == (1, "invalid_call")
    result = fuchsen(
        deal(hands=HANDS5), call("bert", alone=True), rules={"alone_requires_six_trumps": False}
    )
    assert result.contract == "alone"


def test_the_macher_follows_the_called_suit_with_a_blank_the_record_never_shows() -> None:
    # His blank follows the called suit: a trump or another suit he plays face up
    # breaks that, though the record never says which card the blank is.
    start = [deal(dealer="anna"), call("bert", "GA", turned=True)]
    start += plays("bert:S9 carl:SA dora:S8 emil:S10")
    start += [
        {"type": "raise", "player": "emil", "level": "kontra"},
        {"type": "raise", "player": "bert", "level": "re"},
        *plays("anna:SK carl:G9 dora:G8 emil:GK anna:G10"),
    ]
    for last in ("bert:RO", "bert:E7"):
        record = {"game": "fuchsen", "events": [*start, *plays(last)]}
        error = replay(record).error
        assert error is not None and (error.index, error.code) == (13, "must_follow_suit")
