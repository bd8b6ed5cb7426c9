"""The tally: what the table counted (event-stream.md, "The tally"), rule by rule."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine import replay
from engine.core import NeedPartner
from engine.generate import random_game
from engine.replay import fold, prepare
from engine.result import Result
from engine.tricks import on_table
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
    koenig,
    pass_,
    play,
    plays,
    raise_,
    show,
)


def tally(**fields: Any) -> dict[str, Any]:
    return {"type": "tally", **fields}


def field_of(result: Result) -> str | None:
    assert result.error is not None, result.to_dict()
    return result.error.field


# Example 65's first trick with kontra (dora) and re (carl): the raising then ends.
RAISED = [*TRICK1[:3], raise_("dora", "kontra"), raise_("carl", "re"), *TRICK1[3:], END]
AUCTION_BETTLER = [bid("bert", "bettler"), pass_("carl"), pass_("dora"), pass_("anna")]
AUCTION_SCHURLN = [pass_("bert"), pass_("carl"), pass_("dora"), pass_("anna")]


# ----------------------------------------------------------------- where it may stand


def test_a_tally_before_the_call_is_out_of_order() -> None:
    assert error_of(fuchsen(deal(), tally(won=True))) == (1, "out_of_order")


def test_a_tally_during_the_first_trick_is_out_of_order() -> None:
    result = fuchsen(deal(hands=HANDS5), call("bert", "E10"), TRICK1[0], tally(won=True))
    assert error_of(result) == (3, "out_of_order")


def test_a_tally_while_the_raising_is_not_ended_is_out_of_order() -> None:
    result = fuchsen(deal(hands=HANDS5), call("bert", "E10"), *RAISED[:-1], tally(won=True))
    assert error_of(result) == (9, "out_of_order")


def test_a_tally_during_the_auction_is_out_of_order() -> None:
    result = koenig(deal(FOUR), bid("bert", "bettler"), tally(won=True))
    assert error_of(result) == (2, "out_of_order")


def test_a_tally_in_a_trick_of_koenigrufen_is_out_of_order() -> None:
    events = [deal(FOUR, hands=HANDS4), *AUCTION_BETTLER, play("bert", "EA"), tally(won=False)]
    assert error_of(koenig(*events)) == (6, "out_of_order")


def test_a_second_tally_is_game_finished_and_an_undo_removes_the_first() -> None:
    first = [deal(), call("bert", "E10"), tally(level="re", won=True, partner="carl")]
    assert error_of(fuchsen(*first, tally(won=True))) == (3, "game_finished")
    again = fuchsen(*first, UNDO, tally(level="supp", won=False, partner="carl"))
    assert again.status == "finished"
    assert again.level == "supp" and again.won is False


def test_after_a_tally_only_show_undo_and_annul_follow() -> None:
    done = [deal(), call("bert", "E10"), tally(level="re", won=True, partner="carl")]
    assert error_of(fuchsen(*done, forfeit("anna"))) == (3, "game_finished")
    assert fuchsen(*done, {"type": "annul"}).status == "annulled"


def test_a_tally_after_the_game_is_decided_is_game_finished_whatever_its_fields() -> None:
    # No kontra: decided when the raising ended; the tally's bad level is not looked at.
    result = fuchsen(deal(hands=HANDS5), call("bert", "E10"), *TRICK1, END, tally(level="x"))
    assert error_of(result) == (8, "game_finished")


# ----------------------------------------------------------------- fields and their kinds


@pytest.mark.parametrize(
    "fields",
    [{"won": "yes"}, {"augen": 61.0}, {"augen": True}, {"silent": 1}, {"losers": ["anna"]}],
)
def test_a_field_of_the_wrong_kind_or_unknown_is_malformed(fields: dict[str, Any]) -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(level="re", **fields))
    assert error_of(result) == (2, "malformed_event")


def test_a_partner_not_seated_is_an_unknown_player_before_out_of_order() -> None:
    assert error_of(fuchsen(deal(), tally(partner="zoe"))) == (1, "unknown_player")


def test_a_sitting_out_partner_is_an_unknown_player() -> None:
    six = deal(["anna", "bert", "carl", "dora", "emil", "fritz"], dealer="fritz")
    result = fuchsen(six, call("dora", "GA"), tally(won=True, partner="fritz"))
    assert error_of(result) == (2, "unknown_player")


def test_a_loser_not_seated_is_an_unknown_player() -> None:
    result = koenig(deal(FOUR), *AUCTION_SCHURLN, tally(losers=["zoe"]))
    assert error_of(result) == (5, "unknown_player")


# ----------------------------------------------------------------- Fuchsen: pure tally


def test_a_pure_tally_at_re_is_settled_from_the_augen() -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(level="re", augen=70, partner="carl"))
    assert result.reason == "tally" and result.won is True and result.value == 20
    assert result.to_dict()["augen"] == {"declarers": 70, "opponents": 51}
    assert result.tricks == 0
    assert result.payouts == {"anna": -20, "bert": 40, "carl": 20, "dora": -20, "emil": -20}


def test_a_pure_tally_with_won_only_reports_no_augen() -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(level="mort", won=False, partner="carl"))
    assert result.value == 30 and result.won is False
    assert "augen" not in result.to_dict()


def test_a_pure_tally_without_a_level_and_without_fuchs_is_no_kontra() -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(partner="carl"))
    assert (result.reason, result.won, result.value, result.level) == ("no_kontra", True, 10, None)


def test_a_null_level_is_no_level() -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(level=None, won=True, partner="carl"))
    assert result.reason == "no_kontra"


def test_a_pure_tally_at_kontra_is_no_re() -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(level="kontra", partner="carl"))
    assert (result.reason, result.won, result.value) == ("no_re", False, 10)


@pytest.mark.parametrize(
    ("level", "fields", "field"),
    [
        (None, {"augen": 70}, "augen"),
        (None, {"silent": False}, "silent"),
        (None, {"won": False}, "won"),
        ("kontra", {"won": True}, "won"),
        ("kontra", {"augen": 40}, "augen"),
    ],
)
def test_after_an_early_end_the_tally_gives_no_outcome_of_the_play(
    level: str | None, fields: dict[str, Any], field: str
) -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(level=level, partner="carl", **fields))
    assert error_of(result) == (2, "invalid_tally")
    assert field_of(result) == field


def test_an_unknown_level_is_invalid_tally() -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(level="ober", won=True))
    assert error_of(result) == (2, "invalid_tally") and field_of(result) == "level"


def test_a_game_played_out_needs_won_or_augen() -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(level="re", silent=True, partner="carl"))
    assert error_of(result) == (2, "invalid_tally") and field_of(result) == "won"


@pytest.mark.parametrize("augen", [-1, 122])
def test_augen_lie_between_0_and_121(augen: int) -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(level="re", augen=augen, partner="carl"))
    assert error_of(result) == (2, "invalid_tally") and field_of(result) == "augen"


def test_won_and_augen_must_agree() -> None:
    bad = tally(level="re", won=True, augen=60, partner="carl")
    assert error_of(fuchsen(deal(), call("bert", "E10"), bad)) == (2, "invalid_tally")
    good = tally(level="re", won=True, augen=61, partner="carl")
    assert fuchsen(deal(), call("bert", "E10"), good).won is True


def test_a_stilles_spiel_adds_the_silent_bonus() -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(level="supp", won=True, silent=True))
    # The partner is not named: the payouts depend on him, the result waits.
    assert result.status == "in_progress" and result.awaiting == "partner"
    named = fuchsen(
        deal(), call("bert", "E10"), tally(level="supp", won=True, silent=True, partner="carl")
    )
    assert named.value == 25 + 10


@pytest.mark.parametrize("fields", [{"won": False, "silent": True}, {"augen": 120, "silent": True}])
def test_a_stilles_spiel_needs_a_win_with_all_augen(fields: dict[str, Any]) -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(level="re", partner="carl", **fields))
    assert error_of(result) == (2, "invalid_tally") and field_of(result) == "silent"


def test_silent_does_not_stand_for_won() -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(level="re", silent=True, partner="carl"))
    assert error_of(result) == (2, "invalid_tally")


def test_the_fuchs_said_without_a_level_plays_the_game_out_at_min_value() -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(fuchs=True, won=False, partner="carl"))
    assert (result.reason, result.value, result.won) == ("tally", 10, False)


def test_the_fuchs_said_by_a_hilfer_the_record_shows_without_go_is_invalid() -> None:
    result = fuchsen(
        deal(), call("bert", "E10"), show("anna", "GO"), tally(fuchs=True, won=True, partner="carl")
    )
    assert error_of(result) == (3, "invalid_tally") and field_of(result) == "fuchs"


def test_the_fuchs_is_not_knowledge_that_the_hilfer_holds_go() -> None:
    # carl said Fuchs (the tally); anna showing GO later contradicts it: at the tally.
    events = [deal(), call("bert", "E10"), tally(fuchs=True, won=True, partner="carl")]
    assert fuchsen(*events).status == "finished"
    assert error_of(fuchsen(*events, show("anna", "GO"))) == (2, "invalid_tally")


def test_a_fuchs_field_in_an_alone_game_is_invalid_whatever_its_value() -> None:
    result = fuchsen(
        deal(hands=_alone_hands()), call("bert", alone=True), tally(fuchs=False, won=True)
    )
    assert error_of(result) == (2, "invalid_tally") and field_of(result) == "fuchs"


def test_a_partner_in_an_alone_game_is_invalid() -> None:
    result = fuchsen(
        deal(hands=_alone_hands()),
        call("bert", alone=True),
        tally(level="re", won=True, partner="carl"),
    )
    assert error_of(result) == (2, "invalid_tally") and field_of(result) == "partner"


def test_an_alone_game_by_tally_is_paid_as_alone() -> None:
    result = fuchsen(
        deal(hands=_alone_hands()), call("bert", alone=True), tally(level="re", won=True)
    )
    assert result.payouts == {"anna": -20, "bert": 80, "carl": -20, "dora": -20, "emil": -20}


def _alone_hands() -> dict[str, list[str]]:
    return {
        "bert": ["EO", "GO", "EU", "GU", "SU", "RU"],
        "carl": ["RA", "R10", "E10", "GA", "G10", "GK"],
        "dora": ["RK", "RO", "EK", "SA", "S10", "SK"],
        "emil": ["R9", "R8", "E9", "G9", "G8", "SO"],
        "anna": ["R7", "EA", "E8", "E7", "S9", "S8"],
    }


# ----------------------------------------------------------------- partner as knowledge


def test_the_partner_places_the_called_card_for_the_whole_record() -> None:
    # carl says kontra, dora re: right only if dora, not carl, is the Hilfer.
    events = [deal(hands={"bert": HANDS5["bert"]}), call("bert", "E10")]
    events += [*plays("bert:EO carl:RA"), raise_("carl", "kontra")]
    events += [play("dora", "R10"), raise_("dora", "re")]
    events += [*plays("emil:R9 anna:R7"), END]
    assert fuchsen(*events, tally(won=True, partner="dora")).status == "finished"
    # Named carl instead, his kontra was said by the Macher's side: invalid at the raise.
    assert error_of(fuchsen(*events, tally(won=True, partner="carl"))) == (4, "invalid_raise")
    # Even when the tally itself is invalid, it names the Hilfer.
    assert error_of(fuchsen(*events, tally(augen=200, partner="carl"))) == (4, "invalid_raise")


def test_a_partner_the_record_contradicts_is_invalid_tally() -> None:
    result = fuchsen(
        deal(),
        call("bert", "E10"),
        show("dora", "E10"),
        tally(level="re", won=True, partner="carl"),
    )
    assert error_of(result) == (3, "invalid_tally") and field_of(result) == "partner"


def test_a_partner_whose_dealt_hand_lacks_the_called_card_is_invalid_tally() -> None:
    result = fuchsen(
        deal(hands=HANDS5), call("bert", "E10"), tally(level="re", won=True, partner="dora")
    )
    assert error_of(result) == (2, "invalid_tally")


def test_the_macher_named_partner_makes_the_call_invalid() -> None:
    result = fuchsen(deal(), call("bert", "E10"), tally(level="re", won=True, partner="bert"))
    assert error_of(result) == (1, "invalid_call")


def test_the_macher_named_partner_with_call_own_card_plays_alone() -> None:
    result = fuchsen(
        deal(),
        call("bert", "E10"),
        tally(level="re", won=True, partner="bert"),
        rules={"call_own_card": True},
    )
    assert result.contract == "partner" and result.payouts is not None
    assert result.payouts["bert"] == 80


def test_a_later_event_placing_the_called_card_elsewhere_is_card_not_in_hand() -> None:
    events = [deal(), call("bert", "E10"), tally(level="re", won=True, partner="carl")]
    assert error_of(fuchsen(*events, show("dora", "E10"))) == (3, "card_not_in_hand")


def test_without_a_partner_the_result_waits_and_a_show_names_him_later() -> None:
    events = [deal(), call("bert", "E10"), tally(level="re", won=True)]
    waiting = fuchsen(*events)
    assert (waiting.status, waiting.awaiting, waiting.level) == ("in_progress", "partner", "re")
    named = fuchsen(*events, show("carl", "E10"))
    assert named.status == "finished" and named.declarers == ("bert", "carl")


# ----------------------------------------------------------------- the forgotten Fuchs


def test_a_show_of_go_after_the_tally_makes_a_forgotten_fuchs() -> None:
    events = [deal(), call("dora", "S10"), tally(level="re", won=True, partner="carl")]
    result = fuchsen(*events, show("carl", "GO"))
    assert (result.reason, result.won, result.value) == ("fuchs_forgotten", False, 30)


def test_a_forgotten_fuchs_shown_before_the_tally_decides_it_at_the_tally() -> None:
    events = [
        deal(),
        call("dora", "S10"),
        show("carl", "GO"),
        tally(level="re", augen=80, partner="carl"),
    ]
    result = fuchsen(*events)
    assert result.reason == "fuchs_forgotten"
    assert result.to_dict()["augen"] == {"declarers": 80, "opponents": 41}


def test_a_forgotten_fuchs_after_an_early_end_replaces_it_without_augen() -> None:
    events = [deal(), call("dora", "S10"), tally(partner="carl"), show("carl", "GO")]
    result = fuchsen(*events)
    assert (result.reason, result.value) == ("fuchs_forgotten", 20)
    assert "augen" not in result.to_dict()


def test_a_forgotten_fuchs_does_not_change_what_the_tally_must_say() -> None:
    events = [deal(), call("dora", "S10"), show("carl", "GO"), tally(level="re", partner="carl")]
    assert error_of(fuchsen(*events)) == (3, "invalid_tally")


def test_the_fuchs_said_in_the_tally_is_no_forgotten_fuchs() -> None:
    events = [deal(), call("dora", "S10"), tally(level="re", won=True, fuchs=True, partner="carl")]
    assert fuchsen(*events, show("carl", "GO")).reason == "tally"


# ----------------------------------------------------------------- Fuchsen: late tally


def test_a_late_tally_takes_the_recorded_level() -> None:
    result = fuchsen(deal(hands=HANDS5), call("bert", "E10"), *RAISED, tally(won=True))
    assert (result.level, result.value, result.tricks, result.reason) == ("re", 20, 1, "tally")


@pytest.mark.parametrize("fields", [{"level": "re", "won": True}, {"fuchs": False, "won": True}])
def test_a_late_tally_gives_no_level_and_no_fuchs(fields: dict[str, Any]) -> None:
    result = fuchsen(deal(hands=HANDS5), call("bert", "E10"), *RAISED, tally(**fields))
    assert error_of(result) == (10, "invalid_tally")


def test_a_late_tally_must_fit_the_augen_of_the_recorded_tricks() -> None:
    # bert took trick 1: 25 Augen for the Macher's side already.
    base = [deal(hands=HANDS5), call("bert", "E10"), *RAISED]
    assert error_of(fuchsen(*base, tally(augen=20))) == (10, "invalid_tally")
    assert fuchsen(*base, tally(augen=25)).won is False


def test_a_late_tally_won_false_after_61_recorded_augen_is_invalid() -> None:
    more = plays("bert:GO carl:RU dora:RK emil:RO anna:R8 bert:EU carl:GK dora:SK emil:G8 anna:S8")
    more += plays("bert:GU carl:G10 dora:S10 emil:G9 anna:S9")
    base = [deal(hands=HANDS5), call("bert", "E10"), *RAISED, *more]
    assert error_of(fuchsen(*base, tally(won=False))) == (25, "invalid_tally")
    assert fuchsen(*base, tally(won=True, silent=True)).value == 30


def test_a_late_tally_with_a_trick_of_the_opponents_is_no_stilles_spiel() -> None:
    # dora (an opponent) takes trick 1 with GO.
    events = [deal(), call("bert", "E10"), *plays("bert:RK carl:R9 dora:GO")]
    events += [raise_("dora", "kontra"), raise_("carl", "re"), *plays("emil:R8 anna:R7"), END]
    assert fuchsen(*events, tally(won=True, partner="carl")).value == 20
    result = fuchsen(*events, tally(won=True, silent=True, partner="carl"))
    assert error_of(result) == (10, "invalid_tally") and field_of(result) == "silent"


# ----------------------------------------------------------------- Königrufen


def test_koenigrufen_needs_won() -> None:
    result = koenig(deal(FOUR), *AUCTION_BETTLER, tally())
    assert error_of(result) == (5, "invalid_tally") and field_of(result) == "won"


def test_a_bettler_by_tally_is_paid_alone() -> None:
    result = koenig(deal(FOUR), *AUCTION_BETTLER, tally(won=True))
    assert result.payouts == {"anna": -30, "bert": 90, "carl": -30, "dora": -30}
    assert result.reason == "tally" and result.tricks == 0


def test_a_joined_bettler_by_tally_is_paid_two_against_two() -> None:
    events = [deal(FOUR), bid("bert", "bettler"), {"type": "join", "player": "carl"}]
    events += [pass_("dora"), pass_("anna"), tally(won=False)]
    result = koenig(*events)
    assert result.payouts == {"anna": 50, "bert": -50, "carl": -50, "dora": 50}


def test_a_partner_in_a_contract_without_one_is_invalid() -> None:
    result = koenig(deal(FOUR), *AUCTION_BETTLER, tally(won=True, partner="carl"))
    assert error_of(result) == (5, "invalid_tally") and field_of(result) == "partner"


def test_losers_outside_schurln_are_invalid() -> None:
    result = koenig(deal(FOUR), *AUCTION_BETTLER, tally(won=True, losers=["carl"]))
    assert error_of(result) == (5, "invalid_tally") and field_of(result) == "losers"


DURCHMARSCH = [bid("bert", "durchmarsch", called="SA"), pass_("carl"), pass_("dora"), pass_("anna")]


def test_a_durchmarsch_partner_is_knowledge_and_the_result_waits_without_him() -> None:
    waiting = koenig(deal(FOUR), *DURCHMARSCH, tally(won=True))
    assert waiting.awaiting == "partner"
    named = koenig(deal(FOUR), *DURCHMARSCH, tally(won=True, partner="dora"))
    assert named.declarers == ("bert", "dora")
    assert named.payouts == {"anna": -40, "bert": 40, "carl": -40, "dora": 40}


def test_naming_the_declarer_of_a_durchmarsch_makes_the_bid_invalid() -> None:
    result = koenig(deal(FOUR), *DURCHMARSCH, tally(won=True, partner="bert"))
    assert error_of(result) == (1, "invalid_bid")


def test_a_durchmarsch_partner_the_record_contradicts_is_invalid_tally() -> None:
    result = koenig(deal(FOUR, hands=HANDS4), *DURCHMARSCH, tally(won=True, partner="dora"))
    assert error_of(result) == (5, "invalid_tally")


LETZTER = [bid("bert", "durchmarsch_letzter"), pass_("carl"), pass_("dora"), pass_("anna")]


def test_durchmarsch_letzter_won_with_the_last_tricks_winner() -> None:
    result = koenig(deal(FOUR), *LETZTER, tally(won=True, partner="dora"))
    assert result.declarers == ("bert", "dora")
    assert result.payouts == {"anna": -40, "bert": 40, "carl": -40, "dora": 40}
    alone = koenig(deal(FOUR), *LETZTER, tally(won=True))
    assert alone.payouts == {"anna": -40, "bert": 120, "carl": -40, "dora": -40}


@pytest.mark.parametrize(
    "fields", [{"won": False, "partner": "dora"}, {"won": True, "partner": "bert"}]
)
def test_durchmarsch_letzter_partner_only_another_player_in_a_won_game(
    fields: dict[str, Any],
) -> None:
    result = koenig(deal(FOUR), *LETZTER, tally(**fields))
    assert error_of(result) == (5, "invalid_tally") and field_of(result) == "partner"


def test_durchmarsch_letzter_lost_after_five_declarer_tricks_contradicts_them() -> None:
    five = plays(
        "bert:EA carl:EO dora:E10 anna:RO bert:EK carl:EU dora:E9 anna:RU "
        "bert:GA carl:GO dora:G10 anna:R10 bert:GK carl:GU dora:G9 anna:R9 "
        "bert:RA carl:SA dora:SO anna:S10"
    )
    events = [deal(FOUR, hands=HANDS4), *LETZTER, *five]
    assert error_of(koenig(*events, tally(won=False))) == (25, "invalid_tally")
    assert koenig(*events, tally(won=True)).payouts == {
        "anna": -40,
        "bert": 120,
        "carl": -40,
        "dora": -40,
    }


@pytest.mark.parametrize(
    ("losers", "payouts"),
    [
        (["dora"], {"anna": 10, "bert": 10, "carl": 10, "dora": -30}),
        (["dora", "anna"], {"anna": -10, "bert": 10, "carl": 10, "dora": -10}),
        (["dora", "anna", "bert"], {"anna": -10, "bert": -10, "carl": 30, "dora": -10}),
    ],
)
def test_schurln_is_paid_by_the_number_of_losers(
    losers: list[str], payouts: dict[str, int]
) -> None:
    result = koenig(deal(FOUR), *AUCTION_SCHURLN, tally(losers=losers))
    assert result.payouts == payouts and result.won is None and result.declarers == ()


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"losers": []},
        {"losers": ["anna", "anna"]},
        {"losers": FOUR},
        {"won": True, "losers": ["anna"]},
    ],
)
def test_schurln_needs_one_to_three_different_losers_and_nothing_else(
    fields: dict[str, Any],
) -> None:
    result = koenig(deal(FOUR), *AUCTION_SCHURLN, tally(**fields))
    assert error_of(result) == (5, "invalid_tally")


# ----------------------------------------------------------------- the property


def _tally_from(
    whole: dict[str, Any], state: Any, events: list[dict[str, Any]], late: bool
) -> dict[str, Any]:
    """The tally the table would write for the game that ``whole`` (its result),
    ``state`` (its final state) and ``events`` (all of its events) tell."""
    out: dict[str, Any] = {"type": "tally"}
    declarers = whole["declarers"]
    table = state.table
    if whole["game"] == "fuchsen":
        if not late:
            out["level"] = whole["level"]
            if whole["contract"] == "partner" and not state.own_card:
                out["fuchs"] = any(e.get("fuchs") for e in events)
        if state.own_card:
            out["partner"] = declarers[0]  # the Macher held his called card
        elif len(declarers) == 2:
            out["partner"] = declarers[1]
        if whole["reason"] == "played_out":
            out["augen"] = whole["augen"]["declarers"]
            side = {state.macher, state.hilfer}
            assert state.board is not None
            out["silent"] = all(winner in side for _, _, winner in state.board.history())
        return out
    if whole["contract"] == "schurln":
        out["losers"] = [name for name in table.active if whole["payouts"][name] < 0]
        return out
    out["won"] = whole["won"]
    if len(declarers) == 2 and whole["contract"] not in ("bettler", "plauderer"):
        out["partner"] = declarers[1]
    return out


def _cuts(record: dict[str, Any]) -> list[tuple[int, bool]]:
    """(prefix length, late?) of the points of ``record`` where a tally may stand."""
    events = record["events"]
    first_play = next(k for k, e in enumerate(events) if e["type"] == "play")
    cuts = [(first_play, False)]
    for k in range(first_play + 1, len(events)):
        prefix = replay({**record, "events": events[:k]})
        if prefix.status != "in_progress" or prefix.awaiting not in ("play", "partner"):
            continue  # decided, or the raising not ended
        state = _state(record, k)
        if state is not None and not on_table(state) and state.tricks_done:
            cuts.append((k, True))
    return cuts


def _state(record: dict[str, Any], k: int) -> Any:
    variant, rules, events, _ = prepare({**record, "events": record["events"][:k]})
    try:
        state, error = fold(variant, rules, events, -1)
    except NeedPartner as need:
        # The prefix does not show the partner: any candidate's state tells where
        # the tricks stand.
        state, error = fold(variant, rules, events, -1, assumed=(need.candidates[0], need.called))
    return None if error is not None else state


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from([("fuchsen", 4), ("fuchsen", 5), ("fuchsen", 6), ("koenigrufen", 4)]),
    st.booleans(),
    st.data(),
)
def test_a_game_cut_at_a_tally_point_and_tallied_pays_as_the_whole_record(
    seed: int, game: tuple[str, int], hands: bool, data: st.DataObject
) -> None:
    record = random_game(seed, game[0], game[1], hands=hands)
    whole = replay(record).to_dict()
    assume(whole["status"] == "finished")
    final = _state(record, len(record["events"]))
    assume(final is not None)
    if whole["contract"] == "schurln":
        assume(any(v < 0 for v in whole["payouts"].values()))
    cut, late = data.draw(st.sampled_from(_cuts(record)))
    prefix = record["events"][:cut]
    counted = _tally_from(whole, final, record["events"], late)
    tails: list[list[dict[str, Any]]] = [[counted]]
    if whole["reason"] == "fuchs_forgotten":
        # The outcome of the play changes nothing, but a game played out must say
        # one; the Hilfer shows GO unless the recorded part has played it.
        played = {e.get("card") for e in prefix}
        shown = [] if "GO" in played else [show(whole["declarers"][1], "GO")]
        level = counted.get("level", whole["level"])
        if late or level not in (None, "kontra") or counted.get("fuchs"):
            tails = [[{**counted, "won": won}, *shown] for won in (True, False)]
        else:
            tails = [[counted, *shown]]
    results = [replay({**record, "events": [*prefix, *tail]}).to_dict() for tail in tails]
    assert any(r.get("payouts") == whole["payouts"] for r in results), (
        cut,
        late,
        tails,
        results,
        whole,
    )


# ----------------------------------------------------------------- the table view


def _view_tally(*events: Any, game: str = "fuchsen") -> Any:
    from engine.view import table_view

    return table_view({"game": game, "events": list(events)}).to_dict()["tally"]


def test_the_view_offers_a_pure_tally_after_the_call() -> None:
    offer = _view_tally(deal(), call("bert", "E10"))
    assert offer["kind"] == "pure" and offer["needs_outcome"] is False
    levels = offer["fields"]["level"]["choices"]
    assert levels[0] == {"level": None, "played_out": False, "played_out_with_fuchs": True}
    assert levels[1] == {"level": "kontra", "played_out": False, "played_out_with_fuchs": False}
    assert [c["level"] for c in levels[2:]] == [
        "re", "supp", "mort", "hirsch", "bock", "feuer", "end"
    ]  # fmt: skip
    assert offer["fields"]["partner"]["choices"] == ["anna", "carl", "dora", "emil"]
    assert {"won", "augen", "silent", "fuchs"} <= set(offer["fields"])


def test_the_view_offers_a_late_tally_with_the_augen_the_tricks_allow() -> None:
    offer = _view_tally(deal(hands=HANDS5), call("bert", "E10"), *RAISED)
    assert offer["kind"] == "late" and offer["needs_outcome"] is True
    assert "level" not in offer["fields"] and "fuchs" not in offer["fields"]
    assert offer["fields"]["augen"] == {"required": False, "min": 25, "max": 121}
    assert offer["fields"]["partner"]["choices"] == ["carl"]


def test_the_view_offers_no_tally_in_a_trick_before_the_raising_ended_or_after_the_end() -> None:
    assert _view_tally(deal(), call("bert", "E10"), TRICK1[0]) is None
    assert _view_tally(deal(hands=HANDS5), call("bert", "E10"), *RAISED[:-1]) is None
    assert _view_tally(deal(), call("bert", "E10"), tally(level="re", won=True)) is None
    assert _view_tally(deal()) is None


def test_the_view_offers_no_fuchs_and_no_partner_in_an_alone_game() -> None:
    offer = _view_tally(deal(hands=_alone_hands()), call("bert", alone=True))
    assert "fuchs" not in offer["fields"] and "partner" not in offer["fields"]


def test_the_view_offers_koenigrufen_tallies_after_the_auction() -> None:
    assert _view_tally(deal(FOUR), bid("bert", "bettler"), game="koenigrufen") is None
    offer = _view_tally(deal(FOUR), *AUCTION_BETTLER, game="koenigrufen")
    assert offer["fields"] == {"won": {"required": True}}
    offer = _view_tally(deal(FOUR), *DURCHMARSCH, game="koenigrufen")
    assert offer["fields"]["partner"]["choices"] == ["anna", "carl", "dora"]
    offer = _view_tally(deal(FOUR), *AUCTION_SCHURLN, game="koenigrufen")
    assert offer["fields"] == {"losers": {"required": True, "choices": FOUR, "min": 1, "max": 3}}


_PROBES: list[dict[str, Any]] = [
    {"won": True},
    {"won": False},
    {"level": None},
    {"level": "kontra"},
    {"level": "re", "won": True},
]


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from([("fuchsen", 4), ("fuchsen", 5), ("koenigrufen", 4)]),
    st.booleans(),
    st.integers(1, 40),
)
def test_the_view_offers_a_tally_exactly_where_the_engine_takes_one(
    seed: int, game: tuple[str, int], hands: bool, cut: int
) -> None:
    from engine.view import table_view

    record = random_game(seed, game[0], game[1], hands=hands)
    record = {**record, "events": record["events"][:cut]}
    offer = table_view(record).to_dict()["tally"]
    players = record["events"][0]["players"]
    probes = [*_PROBES, {"losers": [players[0]]}]
    taken = [
        p
        for p in probes
        if replay({**record, "events": [*record["events"], tally(**p)]}).status != "invalid"
    ]
    assert (offer is not None) == bool(taken), (offer, taken)
    if offer is None:
        return
    fields = offer["fields"]
    base = taken[0]
    for name in fields.get("partner", {}).get("choices", []):
        with_partner = [*record["events"], tally(**base, partner=name)]
        assert replay({**record, "events": with_partner}).status != "invalid", name
    if "augen" in fields and offer["kind"] == "late":
        for augen in (fields["augen"]["min"], fields["augen"]["max"]):
            events = [*record["events"], tally(augen=augen)]
            assert replay({**record, "events": events}).status != "invalid", augen


# ----------------------------------------------------------------- bad input

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-200, 200) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
_FIELDS = st.dictionaries(
    st.sampled_from(["level", "won", "augen", "silent", "fuchs", "partner", "losers", "card"]),
    _JSON | st.sampled_from(["re", "kontra", "carl", "anna", "zoe", 61, 121, True, False]),
    max_size=5,
)
_TALLY_CODES = {
    "malformed_event",
    "unknown_player",
    "out_of_order",
    "invalid_tally",
    "invalid_call",
}


@settings(max_examples=150, deadline=None)
@given(_FIELDS, st.sampled_from(["pure", "late", "koenig", "schurln"]))
def test_any_tally_is_judged_with_a_code_of_the_table_never_an_exception(
    fields: dict[str, Any], where: str
) -> None:
    if where == "pure":
        result = fuchsen(deal(), call("bert", "E10"), tally(**fields))
    elif where == "late":
        result = fuchsen(deal(hands=HANDS5), call("bert", "E10"), *RAISED, tally(**fields))
    elif where == "koenig":
        result = koenig(deal(FOUR), *DURCHMARSCH, tally(**fields))
    else:
        result = koenig(deal(FOUR), *AUCTION_SCHURLN, tally(**fields))
    if result.status == "invalid":
        assert result.error is not None
        assert result.error.code in _TALLY_CODES | {"invalid_bid", "invalid_raise"}, result.error
        assert result.error.message
        # The field at fault: one the tally gave, or a required one it left out.
        if result.error.code == "invalid_tally":
            assert result.error.field in fields or result.error.field in ("won", "losers")
    else:
        assert result.status in ("finished", "in_progress")
        if result.status == "finished":
            assert result.payouts is not None and sum(result.payouts.values()) == 0
