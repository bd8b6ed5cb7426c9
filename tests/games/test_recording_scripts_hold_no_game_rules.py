"""The recording page's scripts decide no rule of the games: they hold no list of card
codes (trumps, rank orders, deck rows: the engine's table view sends those) and compare
no Königrufen contract by name (the sets of contracts a rule is about, such as those
with a called card or a card laid face down, come from the engine in the page's
configuration)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.koenigrufen import CONTRACTS

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = [ROOT / "static/js/record.js", ROOT / "static/js/offline.js"]
CARD = r'"[EGRS](?:10|[AKOU987])"'
# Two card codes side by side in a literal: a list of cards written in the script.
CARD_LIST = re.compile(CARD + r"\s*,\s*" + CARD)
NAMES = "|".join(["schurln", *CONTRACTS])
# A contract name compared with ===/!== or looked up in a literal list.
CONTRACT_TEST = re.compile(
    rf'[!=]==\s*"(?:{NAMES})"|"(?:{NAMES})"\s*[!=]==|\[[^\]]*"(?:{NAMES})"[^\]]*\]\s*\.indexOf'
)
# Fuchsen's contract compared by name: "alone or not" is the table view's ``alone``.
FUCHSEN_CONTRACT_TEST = re.compile(r'contract\s*[!=]==\s*"(?:alone|partner)"')


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_the_recording_scripts_write_no_list_of_cards(script: Path) -> None:
    text = script.read_text(encoding="utf-8")
    assert CARD_LIST.findall(text) == []


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_the_recording_scripts_test_no_contract_by_its_name(script: Path) -> None:
    text = script.read_text(encoding="utf-8")
    assert CONTRACT_TEST.findall(text) == []
    assert FUCHSEN_CONTRACT_TEST.findall(text) == []


def test_the_guards_catch_what_the_scripts_once_held() -> None:
    # The patterns find a trump list and a contract rule (so the tests above can fail).
    assert CARD_LIST.search('var TRUMPS = ["EO", "GO", "EU"];')
    assert CONTRACT_TEST.search('["zehnermord", "schurln"].indexOf(state.contract)')
    assert CONTRACT_TEST.search('state.contract === "durchmarsch"')
    assert FUCHSEN_CONTRACT_TEST.search('if (called && state.contract !== "alone")')
