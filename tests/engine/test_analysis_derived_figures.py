"""The figures the pages show, derived from an analysis by pure functions
(analysis.md, "Derived, for the pages")."""

from __future__ import annotations

from typing import Any

from engine import analyse
from engine.analysis import (
    card_cost,
    higher_contracts,
    lost_at,
    player_figures,
    raises_judged,
    turning_points,
    value_after_raising,
)
from tests.engine._shared import EXAMPLES, load


def _record(name: str) -> dict[str, Any]:
    path = EXAMPLES / name
    record: dict[str, Any] = load(path)["record"]
    return record


def _fuchsen(cards: list[tuple[str, str, int, int, list[str]]]) -> dict[str, Any]:
    return {
        "status": "analysed",
        "game": "fuchsen",
        "side": ["bert", "carl"],
        "players": ["anna", "bert", "carl", "dora"],
        "cards": [
            {"index": 2 + k, "player": p, "card": c, "before": b, "after": a, "best": best,
             "trick": 1 + k // 4, "forced": False}
            for k, (p, c, b, a, best) in enumerate(cards)
        ],
    }  # fmt: skip


def test_cost_is_what_the_card_gave_away_for_its_own_side() -> None:
    analysis = _fuchsen(
        [
            ("bert", "EO", 70, 58, ["GO"]),  # the Macher's side: 70 - 58
            ("carl", "RA", 58, 58, ["RA"]),
            ("dora", "R10", 58, 66, ["RK"]),  # an opponent: 66 - 58
            ("anna", "R9", 66, 66, ["R9", "R8"]),
        ]
    )
    assert [card_cost(analysis, c) for c in analysis["cards"]] == [12, 0, 8, 0]


def test_turning_points_are_the_cards_that_crossed_61_and_the_first_of_the_loser_lost_it() -> None:
    analysis = _fuchsen(
        [
            ("bert", "EO", 70, 58, ["GO"]),  # 70 -> 58: lost for the Macher's side
            ("carl", "RA", 58, 58, ["RA"]),
            ("dora", "R10", 58, 66, ["RK"]),  # 58 -> 66: given back by an opponent
            ("anna", "R9", 66, 66, ["R9"]),
            ("bert", "GO", 66, 60, ["GU"]),  # 66 -> 60: lost again; the deal ends at 60
        ]
    )
    cards = analysis["cards"]
    assert turning_points(analysis) == [cards[0], cards[2], cards[4]]
    assert lost_at(analysis) == cards[0]


def test_no_turning_point_when_the_outcome_never_changed() -> None:
    analysis = _fuchsen([("bert", "EO", 70, 66, ["GO"]), ("carl", "RA", 66, 66, ["RA"])])
    assert turning_points(analysis) == []
    assert lost_at(analysis) is None


def test_the_raising_is_judged_by_the_value_when_the_first_trick_is_collected() -> None:
    # Example 4: dora says kontra, carl re; after trick 1 the Macher's side can make 96.
    record = _record("04-fuchsen-re-played-out-won.json")
    analysis = analyse(record)
    assert value_after_raising(analysis) == 96
    assert raises_judged(analysis, record) == [
        {"index": 5, "player": "dora", "level": "kontra", "by_side": False, "value": 96,
         "right": False},
        {"index": 6, "player": "carl", "level": "re", "by_side": True, "value": 96,
         "right": True},
    ]  # fmt: skip


def test_without_a_complete_first_trick_there_is_no_value_after_the_raising() -> None:
    record = _record("04-fuchsen-re-played-out-won.json")
    record["events"] = record["events"][:5]
    analysis = analyse(record)
    assert value_after_raising(analysis) is None
    assert raises_judged(analysis, record) == []


def test_koenigmord_would_also_have_been_made_with_the_durchmarsch_hand_of_example_22() -> None:
    # bert holds EA EK GA GK RA RK: leading them from the top takes all six tricks
    # in the normal order (A K O U 10 9): Königmord (70 > 40). Ten-high Zehnermord
    # fails (EK loses to dora's E10); Hundertermord needs K and O of one suit.
    analysis = analyse(_record("22-koenig-durchmarsch-won.json"))
    assert higher_contracts(analysis) == ["koenigmord"]


def test_player_figures_count_the_unforced_cards_the_best_ones_and_the_augen_given_away() -> None:
    analysis = analyse(_record("04-fuchsen-re-played-out-won.json"))
    figures = player_figures(analysis)
    # bert: trick 6 is forced; of tricks 1-5 his SU (-10), GU (-10) and EU (-4) were
    # not best (see the hand-checked test of example 4 for trick 5).
    assert figures["bert"] == {"cards": 5, "best": 2, "given_away": 24}
    assert sum(f["cards"] for f in figures.values()) == sum(
        not c["forced"] for c in analysis["cards"]
    )
