"""The record judged in hindsight (event-stream.md, "What the engine knows")."""

from __future__ import annotations

from tests.engine.records import (
    END,
    FOUR,
    HANDS5,
    TRICK1,
    UNDO,
    bid,
    call,
    deal,
    error_of,
    fuchsen,
    koenig,
    pass_,
    play,
    plays,
    raise_,
    show,
)


def test_a_later_play_proves_a_card_was_held_earlier() -> None:
    # Without hands, carl discards E10 on a trump lead; his later RU proves he could follow.
    events = [deal(), call("bert", "EA"), *plays("bert:EO carl:E10 dora:R10 emil:R9 anna:R7")]
    assert fuchsen(*events).status == "in_progress"
    assert error_of(fuchsen(*events, END, show("carl", "RU"))) == (3, "must_follow_suit")


def test_there_is_no_deduction_by_elimination() -> None:
    # Nobody shows carl holding a trump: his discard stands, whatever the rest implies.
    events = [deal(), call("bert", "EA"), *plays("bert:EO carl:E10 dora:R10 emil:R9 anna:R7"), END]
    assert fuchsen(*events).status != "invalid"


def test_an_undone_event_is_no_knowledge() -> None:
    events = [deal(), call("bert", "EA"), *plays("bert:EO carl:E10 dora:R10 emil:R9 anna:R7"), END]
    assert fuchsen(*events, show("carl", "RU"), UNDO).status != "invalid"


def test_a_requirement_to_hold_is_broken_only_when_the_whole_hand_is_shown() -> None:
    # SA is no card of a suit bert holds a plain card of: legal unless his hand is known.
    assert fuchsen(deal(), call("bert", "SA")).status == "in_progress"
    assert error_of(fuchsen(deal(hands=HANDS5), call("bert", "SA"))) == (1, "invalid_call")
    assert fuchsen(deal(hands={"carl": HANDS5["carl"]}), call("bert", "SA")).status == "in_progress"


def test_hundert_needs_k_and_o_only_when_the_whole_hand_is_known() -> None:
    assert koenig(deal(FOUR), bid("bert", "hundertermord")).status == "in_progress"


def test_a_card_placed_twice_is_illegal_where_it_is_placed_the_second_time() -> None:
    result = fuchsen(
        deal(), show("dora", "RK"), call("bert", "EA"), play("bert", "EO"), play("carl", "RK")
    )
    assert error_of(result) == (4, "card_not_in_hand")


def test_a_seventh_card_is_illegal() -> None:
    hand = {"carl": HANDS5["carl"]}
    result = fuchsen(deal(hands=hand), show("carl", "SA"))
    assert error_of(result) == (1, "card_not_in_hand")


def test_an_unnamed_partner_leaves_the_result_waiting_when_it_matters() -> None:
    # No kontra ends the game after trick 1, but who holds E10 (and so who is paid) is unknown.
    events = [deal(), call("bert", "E10"), *TRICK1, END]
    result = fuchsen(*events)
    assert result.to_dict() == {
        "status": "in_progress",
        "game": "fuchsen",
        "contract": "partner",
        "declarers": ["bert"],
        "level": None,
        "tricks": 1,
        "awaiting": "partner",
    }
    assert fuchsen(*events, show("dora", "E10")).payouts == {
        "anna": -10,
        "bert": 20,
        "carl": -10,
        "dora": 10,
        "emil": -10,
    }


def test_candidates_differing_only_in_declarers_give_the_result_without_the_partner() -> None:
    result = fuchsen(deal(), call("bert", "E10"), play("bert", "EO"))
    assert (result.status, result.declarers, result.to_act) == ("in_progress", ("bert",), "carl")


def test_a_raise_of_the_macher_side_reveals_the_only_possible_partner() -> None:
    events = [
        deal(),
        call("bert", "E10"),
        *TRICK1[:3],
        raise_("dora", "kontra"),
        raise_("carl", "re"),
    ]
    assert fuchsen(*events).declarers == ("bert", "carl")


def test_when_no_candidate_survives_the_error_is_at_the_largest_first_failure() -> None:
    # dora's whole hand is known without E10, so carl, emil and anna are the candidates.
    # carl fails at his kontra (index 4), emil and anna when dora says re (index 6).
    events = [deal(hands={"dora": HANDS5["dora"]}), call("bert", "E10"), *TRICK1[:2]]
    events += [raise_("carl", "kontra"), play("dora", "R10"), raise_("dora", "re")]
    assert error_of(fuchsen(*events)) == (6, "invalid_raise")


def test_a_call_nobody_can_answer_is_invalid() -> None:
    # Every hand but bert's is known and none holds E10: nobody can be his Hilfer.
    others = {name: cards for name, cards in HANDS5.items() if name != "bert"}
    others["carl"] = ["RU", "RA", "EA", "GA", "G10", "GK"]
    result = fuchsen(deal(hands=others), call("bert", "E10"))
    assert error_of(result) == (1, "invalid_call")
    assert "nobody can hold E10" in result.error.message  # type: ignore[union-attr]


def test_the_macher_card_played_by_another_player_disproves_the_call() -> None:
    assert error_of(fuchsen(deal(), call("carl", "EA"), show("dora", "EO"))) == (1, "invalid_call")


def test_in_durchmarsch_a_trick_won_by_a_non_declarer_ends_it_for_every_candidate_but_him() -> None:
    events = [deal(FOUR), bid("bert", "durchmarsch", called="SA"), pass_("carl"), pass_("dora")]
    events += [pass_("anna"), *plays("bert:E9 carl:EU dora:EA anna:S9")]
    # dora won trick 1: lost unless she holds SA; the record does not say.
    result = koenig(*events)
    assert (result.status, result.awaiting) == ("in_progress", "partner")
    # Playing on means dora is the partner: for anyone else the game was already over.
    result = koenig(*events, play("dora", "EK"))
    assert (result.status, result.declarers) == ("in_progress", ("bert", "dora"))


def test_an_unidentified_blank_proves_nothing_about_its_printed_suit() -> None:
    # bert turned a card nobody names: his S8 might be that blank (Grün, the called
    # suit), so he need not follow Schellen with it (corpus case 109) ...
    hands = {
        "anna": ["EA", "G10", "GO", "R7", "RK", "RU"],
        "bert": ["E7", "EU", "EO", "GA", "S8", "SU"],
        "carl": ["E10", "E9", "EK", "E8", "GK", "SO"],
        "dora": ["R10", "R8", "RA", "RO", "S10", "S9"],
        "emil": ["G8", "G9", "GU", "R9", "SA", "SK"],
    }
    events = [deal(hands=hands, dealer="dora"), call("bert", "G10", turned=True)]
    events += plays("emil:SA anna:RU")
    assert fuchsen(*events, play("bert", "SU")).status == "in_progress"
    # ... and playing it face up is following suit, not a failure to trump.
    assert fuchsen(*events, play("bert", "S8")).status == "in_progress"
