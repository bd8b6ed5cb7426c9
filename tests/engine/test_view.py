"""table_view: the state after the whole record and what is legal next."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import TableView, table_view
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
    pass_,
    play,
    raise_,
    record,
)


def test_the_view_of_an_empty_record_awaits_the_deal() -> None:
    view = table_view(record("fuchsen"))
    assert (view.status, view.awaiting, view.players) == ("in_progress", "deal", ())


def test_before_the_call_it_offers_the_macher_his_calls() -> None:
    view = table_view(record("fuchsen", deal(hands=HANDS5)))
    assert (view.awaiting, view.to_act) == ("call", "bert")
    assert view.legal.calls is not None
    # bert's only plain card is EA: he calls an Eichel card he does not hold.
    assert set(view.legal.calls.cards) == {"E10", "EK", "E9", "E8", "E7"}
    assert view.legal.calls.alone is False


def test_the_legal_cards_follow_suit() -> None:
    view = table_view(
        record("fuchsen", deal(hands=HANDS5), call("bert", "E10"), play("bert", "EO"))
    )
    assert view.to_act == "carl"
    assert view.legal.cards == ("RA", "RU")
    assert view.trick == (("bert", "EO"),)


def test_without_the_hands_every_unseen_card_may_be_played() -> None:
    view = table_view(record("fuchsen", deal(), call("bert", "E10"), play("bert", "EO")))
    assert len(view.legal.cards) == 29


def test_the_raises_open_to_each_player_are_listed() -> None:
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:3]]
    view = table_view(record("fuchsen", *events))
    assert view.legal.raises == (("dora", "kontra"),)
    view = table_view(record("fuchsen", *events, raise_("dora", "kontra")))
    assert view.legal.raises == (("bert", "re"), ("carl", "re"))
    assert view.level == "kontra"


def test_after_the_first_trick_the_raising_may_end() -> None:
    view = table_view(record("fuchsen", deal(hands=HANDS5), call("bert", "E10"), *TRICK1))
    assert view.awaiting == "raise_or_end"
    assert view.legal.can_end_raising
    assert view.legal.cards  # or the first card of trick 2 ends it
    assert view.tricks[0].winner == "bert"
    assert view.augen == {"declarers": 25, "opponents": 0}  # EO 4 + RA 11 + R10 10


def test_a_finished_game_has_nothing_legal_and_its_payouts() -> None:
    view = table_view(record("fuchsen", deal(hands=HANDS5), call("bert", "E10"), *TRICK1, END))
    assert view.status == "finished"
    assert view.legal.cards == () and not view.legal.can_end_raising
    assert view.result.payouts == {"anna": -10, "bert": 20, "carl": 10, "dora": -10, "emil": -10}


def test_the_auction_offers_bids_pass_and_join() -> None:
    view = table_view(record("koenigrufen", deal(FOUR, hands=HANDS4)))
    assert (view.awaiting, view.to_act) == ("bid", "bert")
    assert "hundertermord" not in view.legal.bids  # bert holds no K+O of one suit
    assert "koenigmord" in view.legal.bids
    assert view.legal.can_pass and not view.legal.can_join
    view = table_view(record("koenigrufen", deal(FOUR, hands=HANDS4), bid("bert", "bettler")))
    assert view.legal.can_join and view.to_act == "carl"
    assert "bettler" not in view.legal.bids


def test_the_declarer_is_named_after_the_auction() -> None:
    events = [deal(FOUR), bid("bert", "zehnermord"), pass_("carl"), pass_("dora"), pass_("anna")]
    view = table_view(record("koenigrufen", *events))
    assert (view.contract, view.declarer, view.declarers, view.to_act) == (
        "zehnermord",
        "bert",
        ("bert",),
        "bert",
    )


def test_undone_events_do_not_count() -> None:
    view = table_view(
        record("fuchsen", deal(hands=HANDS5), call("bert", "E10"), play("bert", "EO"), UNDO)
    )
    assert view.events_effective == 2
    assert view.trick == ()
    assert view.to_act == "bert"


def test_an_invalid_record_shows_its_error_and_the_table_before_it() -> None:
    view = table_view(
        record("fuchsen", deal(hands=HANDS5), call("bert", "E10"), play("carl", "RA"))
    )
    assert view.status == "invalid"
    assert view.result.error is not None and view.result.error.index == 2
    assert view.macher == "bert"


def test_the_view_is_json_ready() -> None:
    view = table_view(record("fuchsen", deal(hands=HANDS5), call("bert", "E10"), *TRICK1[:2]))
    assert isinstance(view, TableView)
    json.dumps(view.to_dict())


@settings(max_examples=100, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4),
        max_leaves=20,
    )
)
def test_the_view_and_the_replay_never_raise_on_garbage(garbage: object) -> None:
    from engine import replay

    for rec in (
        garbage,
        {"game": "fuchsen", "events": [garbage]},
        {"game": "koenigrufen", "events": [deal(FOUR), garbage]},
    ):
        assert replay(rec).status in ("invalid", "in_progress")
        table_view(rec).to_dict()


values = (
    st.none()
    | st.booleans()
    | st.integers(-2, 40)
    | st.sampled_from(
        [
            "EO",
            "GO",
            "E10",
            "SA",
            "S7",
            "X9",
            "",
            "anna",
            "bert",
            "carl",
            "dora",
            "emil",
            "zed",
            "kontra",
            "re",
            "bettler",
            "durchmarsch",
            "schurln",
        ]
    )
    | st.lists(st.sampled_from(["EO", "E10", "SA", "S7", "anna", "bert"]), max_size=7)
)
events = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            [
                "deal",
                "call",
                "play",
                "raise",
                "end_raising",
                "bid",
                "pass",
                "join",
                "show",
                "forfeit",
                "annul",
                "undo",
            ]
        )
    },
    optional={
        k: values
        for k in [
            "player",
            "card",
            "cards",
            "level",
            "contract",
            "called",
            "turned",
            "alone",
            "fuchs",
            "dealer",
            "players",
            "hands",
            "reason",
        ]
    },
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["fuchsen", "koenigrufen"]), st.lists(events, max_size=12))
def test_random_events_after_a_deal_never_crash_the_engine(
    game: str, tail: list[dict[str, object]]
) -> None:
    from engine import replay

    players = FOUR if game == "koenigrufen" else ["anna", "bert", "carl", "dora", "emil"]
    rec = record(game, deal(players), *tail)
    result = replay(rec)
    assert result.status in ("invalid", "in_progress", "finished", "annulled")
    view = table_view(rec)
    assert view.result == result
    view.to_dict()


@pytest.mark.parametrize("hands", [True, False], ids=["hands", "no hands"])
@pytest.mark.parametrize(
    ("game", "seats"), [("fuchsen", 4), ("fuchsen", 5), ("fuchsen", 6), ("koenigrufen", 4)]
)
def test_the_view_carries_the_replays_result_for_every_prefix_and_undo(
    game: str, seats: int, hands: bool
) -> None:
    # The view folds the record itself and reads the result off its own state
    # unless the partner is in question: it must say what ``replay`` says, also for
    # records cut short, awaiting the partner, or undoing their last events.
    from engine import replay
    from engine.generate import random_game

    for seed in range(12):
        full = random_game(4_000 + seed, game, seats, hands=hands)
        events = full["events"]
        for k in range(1, len(events) + 1):
            for tail in ([], [UNDO], [UNDO, UNDO]):
                rec = {**full, "events": events[:k] + tail}
                assert table_view(rec).result == replay(rec), (seed, k, len(tail))
