"""The facts a finished game gives the statistics (``engine.game_facts``): Stilles
Spiel, who forgot the Fuchs, and each player's raises per chance to say them."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Raises, game_facts, replay
from engine.generate import random_game
from engine.replay import prepare
from tests.engine._shared import EXAMPLES
from tests.engine.records import END, HANDS5, TRICK1, call, deal, raise_, record


def _example(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text())["record"]
    return record


def test_example_04_counts_each_level_a_player_could_say_once() -> None:
    # bert (Macher) leads EO, carl (Hilfer) RA, dora R10, then kontra (dora), re
    # (carl), emil R9, anna R7, end of the raising. By hand, strict windows:
    # - after dora's card only she may say kontra (no other opponent has played):
    #   dora 1 chance, said;
    # - after kontra both bert and carl may say re; carl says it while bert's chance
    #   is open, so it was not bert's to pass up: carl 1 chance, said; bert none;
    # - after re dora may say supp until emil's card, emil until anna's, anna until
    #   the end of the raising: one chance each, none said.
    facts = game_facts(_example("04-fuchsen-re-played-out-won"))
    assert facts is not None
    assert facts.raises == {
        "anna": Raises(chances=1, said=0),
        "bert": Raises(chances=0, said=0),
        "carl": Raises(chances=1, said=1),
        "dora": Raises(chances=2, said=1),
        "emil": Raises(chances=1, said=0),
    }
    assert facts.silent is False
    assert facts.fuchs_forgotten_by is None


def test_a_stilles_spiel_is_the_engines_silent_game() -> None:
    facts = game_facts(_example("07-fuchsen-stilles-spiel"))
    assert facts is not None and facts.silent is True


def test_a_game_ended_after_the_first_trick_has_no_stilles_spiel_to_count() -> None:
    facts = game_facts(_example("01-fuchsen-no-kontra"))
    assert facts is not None and facts.silent is None


def test_a_forgotten_fuchs_names_the_hilfer_who_forgot_it() -> None:
    for name in ("08-fuchsen-fuchs-forgotten-hands", "09-fuchsen-fuchs-forgotten-found-by-show"):
        facts = game_facts(_example(name))
        assert facts is not None
        assert facts.fuchs_forgotten_by == "carl"
        assert facts.silent is None


def test_a_game_not_finished_has_no_facts() -> None:
    assert game_facts(_example("10-fuchsen-awaiting-partner")) is None
    assert game_facts(_example("18-fuchsen-annul")) is None


def test_a_pure_tally_leaves_the_raises_unknown_but_says_its_stilles_spiel() -> None:
    tally = {"type": "tally", "level": "re", "won": True, "silent": True}
    facts = game_facts(record("fuchsen", deal(hands=HANDS5), call("bert", "E10"), tally))
    assert facts is not None
    assert facts.raises is None
    assert facts.silent is True


def test_a_late_tally_counts_the_recorded_raises() -> None:
    # As example 04 up to the end of the raising, but bert says re: carl's chance
    # to say it was open too, and taken by bert.
    tally = {"type": "tally", "won": True}
    events = [
        deal(hands=HANDS5),
        call("bert", "E10"),
        *TRICK1[:3],
        raise_("dora", "kontra"),
        raise_("bert", "re"),
        *TRICK1[3:],
        END,
        tally,
    ]
    facts = game_facts(record("fuchsen", *events))
    assert facts is not None and facts.raises is not None
    assert facts.raises["dora"] == Raises(chances=2, said=1)  # kontra, then supp
    assert facts.raises["bert"] == Raises(chances=1, said=1)  # carl's re was taken
    assert facts.raises["carl"] == Raises(chances=0, said=0)
    assert facts.silent is False


def test_without_strict_windows_a_chance_stays_open_until_the_raising_ends() -> None:
    # dora's kontra chance opens with her card and, the windows not lapsing, stays
    # open while emil and anna play: three opponents, three chances at kontra, none
    # said; the game ends at once (no kontra).
    events = [deal(hands=HANDS5), call("bert", "E10"), *TRICK1, END]
    facts = game_facts(record("fuchsen", *events, rules={"strict_raise_windows": False}))
    assert facts is not None and facts.raises is not None
    assert {p: r.chances for p, r in facts.raises.items()} == {
        "anna": 1,
        "bert": 0,
        "carl": 0,
        "dora": 1,
        "emil": 1,
    }


def test_an_undone_raise_is_not_counted_as_said() -> None:
    events = [
        deal(hands=HANDS5),
        call("bert", "E10"),
        *TRICK1[:3],
        raise_("dora", "kontra"),
        {"type": "undo"},
        *TRICK1[3:],
        END,
    ]
    facts = game_facts(record("fuchsen", *events))
    assert facts is not None and facts.raises is not None
    assert facts.raises["dora"] == Raises(chances=1, said=0)


def test_koenigrufen_has_no_raises_and_no_stilles_spiel() -> None:
    facts = game_facts(_example("22-koenig-durchmarsch-won"))
    assert facts is not None
    assert facts.raises is None and facts.silent is None and facts.fuchs_forgotten_by is None


def test_the_facts_leave_the_specs_result_json_as_it_was() -> None:
    # ``silent`` is on the Result, never in its JSON.
    expected = json.loads((EXAMPLES / "07-fuchsen-stilles-spiel.json").read_text())["expected"]
    assert replay(_example("07-fuchsen-stilles-spiel")).to_dict() == expected


def _effective_raises(rec: dict[str, Any]) -> dict[str, int]:
    _variant, _rules, events, _undo = prepare(rec)
    said: dict[str, int] = {}
    for _i, event in events:
        if event.get("type") == "raise":
            said[event["player"]] = said.get(event["player"], 0) + 1
    return said


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    seats=st.sampled_from([4, 5, 6]),
    hands=st.booleans(),
    strict=st.booleans(),
)
def test_raises_said_are_the_records_raise_events_and_never_more_than_the_chances(
    seed: int, seats: int, hands: bool, strict: bool
) -> None:
    rec = random_game(seed, "fuchsen", seats, hands=hands)
    if not strict:
        # The generated raises were legal under strict windows, so still are.
        rec = {**rec, "rules": {"strict_raise_windows": False}}
    facts = game_facts(rec)
    result = replay(rec)
    # Without hands a game may end waiting for its partner: no facts then.
    assert (facts is None) == (result.status != "finished")
    if facts is None:
        return
    assert (facts.silent is not None) == (result.reason in ("played_out", "tally"))
    if facts.raises is None:
        # Only where the record never names the Hilfer (without hands).
        assert not hands and len(result.declarers or ()) < 2
        return
    assert set(facts.raises) <= set(rec["events"][0]["players"])
    said = _effective_raises(rec)
    for player, raises in facts.raises.items():
        assert raises.said == said.get(player, 0)
        assert raises.said <= raises.chances
