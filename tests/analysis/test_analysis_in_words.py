"""The analysis put into German words, from the engine's answers on the shared examples
(no database): where a Königrufen contract was given away, which higher contracts the
declarer's hand would have made alone, and a deal with no card left to judge."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils import translation

import engine
from analysis import derive, presenters
from clubs.models import Club, GameKind
from tests.engine._shared import EXAMPLES

NAMES = {name: name.capitalize() for name in ("anna", "bert", "carl", "dora", "emil")}


def example(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    path = next(EXAMPLES.glob(f"{name}-*.json"))
    shared = json.loads(path.read_text(encoding="utf-8"))
    record = shared["record"]
    answer = engine.analyse(record)
    contract = shared["expected"].get("contract")
    return record, derive.figures(record, answer, contract=contract)


@pytest.fixture(autouse=True)
def german() -> Any:
    with translation.override("de"):
        yield


def words() -> presenters.Words:
    return presenters.Words(GameKind.KOENIGRUFEN, NAMES, Club.CardFace.GERMAN)


def test_a_durchmarsch_won_says_koenigmord_would_have_been_made_alone() -> None:
    _record, figures = example("22")
    assert presenters.higher_sentence(figures) == "Mit diesen Karten wäre Königmord gegangen."


def test_a_contract_with_nothing_higher_says_so() -> None:
    _record, figures = example("34")
    assert presenters.higher_sentence(figures) == (
        "Mit diesen Karten wäre kein höheres Spiel allein gegangen."
    )


def test_the_card_that_gave_a_durchmarsch_am_letzten_away_is_named() -> None:
    _record, figures = example("26")
    sentence = presenters.turning_sentence(figures, words())
    assert sentence.startswith(
        "Hier wurde das Spiel verloren: Stich 1, Bert spielt Rot-Neuner — mit "
    )
    assert sentence.endswith(" wäre Durchmarsch am Letzten noch gegangen.")


def test_a_bettler_lost_in_the_first_trick_has_no_card_to_judge() -> None:
    _record, figures = example("20")
    assert figures["cards"] == []
    assert presenters.tricks(figures, words()) == []
    assert presenters.value_chart(figures) is None
    assert presenters._outcome_sentence(figures).startswith("Keine Karte zu beurteilen")


def test_each_koenigrufen_card_is_marked_equal_or_crossed() -> None:
    _record, figures = example("26")
    marks = [c["mark"] for trick in presenters.tricks(figures, words()) for c in trick["cards"]]
    assert marks.count("✗") == sum(not c["is_best"] for c in figures["cards"]) >= 1
    assert set(marks) <= {"=", "✗"}
