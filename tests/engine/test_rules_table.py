"""``engine.rules_table``: the tables people read are the rule book's own figures —
the spec's tables under the defaults, and every change of a house rule shows."""

from __future__ import annotations

import pytest

from engine import InvalidRules
from engine.rules_table import rules_table


def test_the_fuchsen_defaults_give_the_specs_value_table_and_shares() -> None:
    table = rules_table("fuchsen", None)
    values = [row["value"] for row in table["levels"]]
    assert values == [10, 10, 20, 25, 30, 35, 40, 40, 50]  # V(L): none, kontra … end
    assert [row["said_by"] for row in table["levels"][1:]] == ["opponents", "declarers"] * 4
    assert [row["reason"] for row in table["levels"][:3]] == ["no_kontra", "no_re", "tally"]
    shares = {
        row["setting"]: (row["macher"], row["hilfer"], row["opponent"]) for row in table["shares"]
    }
    assert shares == {
        "partner_5": (2, 1, -1),
        "partner_4": (1, 1, -1),
        "alone_5": (4, None, -1),
        "alone_4": (3, None, -1),
    }
    assert table["trumps"][:2] == ["EO", "GO"] and len(table["trumps"]) == 13
    assert sum(table["augen"].values()) == 121
    re_row = table["levels"][2]
    assert (re_row["silent_value"], re_row["forgotten_value"]) == (30, 30)


def test_changed_fuchsen_rules_change_values_payouts_and_the_deck() -> None:
    rules = {"level_values": {"re": 25}, "game_cost": 0, "removed_cards": ["E7", "E8"]}
    table = rules_table("fuchsen", rules)
    re_row = next(row for row in table["levels"] if row["level"] == "re")
    assert re_row["value"] == 25 and re_row["payouts"]["macher"] == 50
    eichel = next(row for row in table["decks"]["5"] if row["label"] == "E")
    assert "E7" not in eichel["cards"] and "E8" not in eichel["cards"]
    assert "S7" in table["augen"] and "E7" not in table["augen"]


def test_the_koenigrufen_defaults_give_the_specs_contracts_and_schurln() -> None:
    table = rules_table("koenigrufen", {})
    values = {row["contract"]: row["value"] for row in table["contracts"]}
    assert values == {
        "bettler": 30,
        "durchmarsch": 40,
        "durchmarsch_letzter": 40,
        "plauderer": 50,
        "durchmarsch_hundert": 60,
        "zehnermord": 60,
        "koenigmord": 70,
        "hundertermord": 80,
    }
    bettler = table["contracts"][0]
    assert bettler["alone"] and bettler["won"]["macher"] == 90 and bettler["joined"]["value"] == 50
    assert [(s["loser"], s["other"]) for s in table["schurln"]] == [(-30, 10), (-10, 10), (-10, 30)]
    ten_high = {row["contract"]: row["deck"][0]["cards"][1] == "E10" for row in table["contracts"]}
    assert ten_high["zehnermord"] and not ten_high["koenigmord"]


def test_rules_that_do_not_fit_are_refused_as_validate_rules_refuses_them() -> None:
    with pytest.raises(InvalidRules):
        rules_table("koenigrufen", {"values": {"bettler": "viel"}})
    with pytest.raises(ValueError):
        rules_table("skat", None)
