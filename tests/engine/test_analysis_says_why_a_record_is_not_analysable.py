"""A record the analysis cannot judge gets ``not_analysable`` and the reason
(analysis.md, "When a record can be analysed")."""

from __future__ import annotations

import copy
import time
from typing import Any

import pytest

from engine import TooCostly, analyse
from engine.analysis import REASONS
from tests.engine._shared import EXAMPLES, load


def _example(name: str) -> dict[str, Any]:
    path = EXAMPLES / name
    record: dict[str, Any] = load(path)["record"]
    return record


def test_an_invalid_record_is_not_analysable_as_invalid() -> None:
    assert analyse({"game": "skat", "events": []}) == {
        "status": "not_analysable",
        "reason": "invalid",
    }
    assert analyse("not a record")["reason"] == "invalid"


def test_a_card_played_against_the_rules_makes_the_record_invalid() -> None:
    assert analyse(_example("52-error-must-overtake.json"))["reason"] == "invalid"


def test_an_annulled_game_and_a_pure_tally_have_no_play() -> None:
    assert analyse(_example("18-fuchsen-annul.json"))["reason"] == "no_play"
    assert analyse(_example("tally/61-tally-fuchsen-pure-re-won-augen.json"))["reason"] == "no_play"


def test_a_record_without_a_card_has_no_play() -> None:
    record = _example("04-fuchsen-re-played-out-won.json")
    record["events"] = record["events"][:2]  # the deal (with hands) and the call
    assert analyse(record)["reason"] == "no_play"


def test_a_played_out_record_without_the_deals_hands_is_analysed_from_its_cards() -> None:
    record = _example("04-fuchsen-re-played-out-won.json")
    without = copy.deepcopy(record)
    del without["events"][0]["hands"]
    assert analyse(without) == analyse(record)


def test_hands_not_all_known_are_hands_unknown() -> None:
    record = _example("04-fuchsen-re-played-out-won.json")
    del record["events"][0]["hands"]
    record["events"] = record["events"][:12]  # two tricks: no hand is complete
    assert analyse(record)["reason"] == "hands_unknown"


def test_a_game_whose_partner_is_not_known_is_hands_unknown() -> None:
    assert analyse(_example("10-fuchsen-awaiting-partner.json"))["reason"] == "hands_unknown"


def test_schurln_is_not_analysable() -> None:
    assert analyse(_example("38-koenig-schurln-one-loser.json"))["reason"] == "schurln"


def test_every_reason_given_is_one_the_spec_names() -> None:
    assert set(REASONS) == {"invalid", "hands_unknown", "no_play", "schurln"}


def test_an_in_progress_record_with_every_hand_known_is_analysed() -> None:
    record = _example("04-fuchsen-re-played-out-won.json")
    record["events"] = record["events"][:14]  # into the second trick
    analysis = analyse(record)
    assert analysis["status"] == "analysed"
    assert [c["index"] for c in analysis["cards"]] == [2, 3, 4, 7, 8, 10, 11, 12, 13]


def test_undone_cards_are_not_analysed() -> None:
    record = _example("04-fuchsen-re-played-out-won.json")
    events = record["events"]
    # carl first plays E10 by mistake; it is undone and RA played instead.
    record["events"] = [*events[:3], {"type": "play", "player": "carl", "card": "GK"},
                        {"type": "undo"}, *events[3:]]  # fmt: skip
    analysis = analyse(record)
    assert analysis["status"] == "analysed"
    assert [c["card"] for c in analysis["cards"][:2]] == ["EO", "RA"]
    assert analysis["cards"][1]["index"] == 5


def test_the_search_stops_with_too_costly_past_its_deadline() -> None:
    record = _example("13-fuchsen-alone-five-without-turning.json")
    with pytest.raises(TooCostly):
        analyse(record, deadline=time.monotonic() - 1)
