"""Late positions (two tricks left) whose values and best cards were counted by hand.

Each test states the position and the count in its comments; the analysis must find
the same values and the same best cards.
"""

from __future__ import annotations

from typing import Any

from engine import analyse
from engine.analysis import card_cost, lost_at, turning_points
from tests.engine._shared import EXAMPLES, load


def _cards(analysis: dict[str, Any], trick: int) -> list[tuple[str, str, Any, Any, list[str]]]:
    return [
        (c["player"], c["card"], c["before"], c["after"], c["best"])
        for c in analysis["cards"]
        if c["trick"] == trick
    ]


def test_fuchsen_example_4_has_the_hand_counted_values_in_the_last_two_tricks() -> None:
    # Shared example 4: bert (Macher, EO) and carl (Hilfer, E10) take tricks 1-4:
    # 25 + 12 + 10 + 22 = 69 Augen. Left (52 Augen):
    #   bert SU E7 · carl GA E10 · dora SA EK · emil SO E9 · anna E8 EA
    # bert leads. E7 first: carl E10, dora EK, emil E9 must follow, anna must beat
    # E10 with EA and takes 0+10+4+0+11 = 25; she leads E8, bert must trump with SU
    # and takes E8 SU GA SA SO = 27: 69 + 27 = 96. SU first: everybody discards, the
    # opponents keep EA for trick 6 (dora gives EK, emil E9, anna E8), carl gives GA:
    # 2+11+4+0+0 = 17, then E7 loses to EA: 69 + 17 = 86. So the value is 96, the best
    # lead E7; bert played SU (-10).
    path = EXAMPLES / "04-fuchsen-re-played-out-won.json"
    analysis = analyse(load(path)["record"])
    assert analysis["status"] == "analysed"
    assert analysis["side"] == ["bert", "carl"]
    assert _cards(analysis, 5) == [
        ("bert", "SU", 96, 86, ["E7"]),
        # carl: GA into bert's trick (+11) rather than E10 (+10; GA then goes to EA).
        ("carl", "GA", 86, 86, ["GA"]),
        # dora: EK (4) rather than SA (11) into the Macher's trick.
        ("dora", "SA", 86, 93, ["EK"]),
        # emil: E9 (0) rather than SO (3).
        ("emil", "SO", 93, 96, ["E9"]),
        # anna keeps EA for the last trick; EA now would give 11 and then carl's E10
        # would take trick 6 (14 more): 121.
        ("anna", "E8", 96, 96, ["E8"]),
    ]
    # The last trick is forced for everyone: E7, E10, EK, E9, EA; anna takes it.
    assert _cards(analysis, 6) == [
        ("bert", "E7", 96, 96, ["E7"]),
        ("carl", "E10", 96, 96, ["E10"]),
        ("dora", "EK", 96, 96, ["EK"]),
        ("emil", "E9", 96, 96, ["E9"]),
        ("anna", "EA", 96, 96, ["EA"]),
    ]
    assert all(c["forced"] for c in analysis["cards"] if c["trick"] == 6)
    su = analysis["cards"][-10]
    assert su["card"] == "SU" and card_cost(analysis, su) == 10
    dora = analysis["cards"][-8]
    assert dora["card"] == "SA" and card_cost(analysis, dora) == 7


KOENIGMORD = {
    "game": "koenigrufen",
    "events": [
        {
            "type": "deal",
            "dealer": "anna",
            "players": ["anna", "bert", "carl", "dora"],
            "hands": {
                "bert": ["EA", "EK", "GA", "GK", "SA", "S9"],
                "carl": ["EO", "EU", "E10", "E9", "S10", "SO"],
                "dora": ["GO", "GU", "G10", "G9", "SU", "R9"],
                "anna": ["SK", "RA", "RK", "RO", "RU", "R10"],
            },
        },
        {"type": "bid", "player": "bert", "contract": "koenigmord"},
        {"type": "pass", "player": "carl"},
        {"type": "pass", "player": "dora"},
        {"type": "pass", "player": "anna"},
        *[
            {"type": "play", "player": player, "card": card}
            for player, card in [
                ("bert", "EA"), ("carl", "EO"), ("dora", "SU"), ("anna", "RA"),
                ("bert", "EK"), ("carl", "EU"), ("dora", "R9"), ("anna", "RK"),
                ("bert", "GA"), ("carl", "S10"), ("dora", "GO"), ("anna", "RO"),
                ("bert", "GK"), ("carl", "SO"), ("dora", "GU"), ("anna", "RU"),
                ("bert", "S9"), ("carl", "E10"), ("dora", "G10"), ("anna", "SK"),
            ]
        ],
    ],
}  # fmt: skip


def test_koenigmord_is_lost_by_leading_s9_before_sa_with_two_tricks_left() -> None:
    # After four tricks: bert SA S9 · carl E10 E9 · dora G10 G9 · anna SK R10, and no
    # other Schellen left. SA first: anna must follow with SK, then S9 is the only
    # Schellen and wins trick 6: made. S9 first: anna must beat it with SK: lost.
    analysis = analyse(KOENIGMORD)
    assert analysis["status"] == "analysed"
    assert analysis["side"] == ["bert"]
    assert _cards(analysis, 5) == [
        ("bert", "S9", True, False, ["SA"]),
        # Once lost, every card keeps the value: all legal cards are best.
        ("carl", "E10", False, False, ["E10", "E9"]),
        ("dora", "G10", False, False, ["G10", "G9"]),
        ("anna", "SK", False, False, ["SK"]),
    ]
    s9 = analysis["cards"][16]
    # Earlier, carl could have kept S10 and SO (discarding E10 and E9 on bert's
    # Grün): one of them beats S9 in trick 6 whatever bert leads. His S10 in trick 3
    # gave that away; bert's S9 gave the game back. The game was lost at the S9.
    s10 = analysis["cards"][9]
    assert (s10["player"], s10["card"], s10["before"], s10["after"], s10["best"]) == (
        "carl",
        "S10",
        False,
        True,
        ["E10", "E9"],
    )
    assert turning_points(analysis) == [s10, s9]
    assert lost_at(analysis) == s9
    assert card_cost(analysis, s9) == 1
    # Hundertermord (the only contract worth more) needs K and O of one suit.
    assert analysis["higher_contracts"] == []


def test_durchmarsch_am_letzten_keeps_its_value_through_the_last_trick() -> None:
    # Shared example 24: bert takes tricks 1-5 (his contract is made with them); the
    # last trick changes nothing, so every legal card there is best.
    path = EXAMPLES / "24-koenig-durchmarsch-letzter-last-trick-partner.json"
    analysis = analyse(load(path)["record"])
    last = [c for c in analysis["cards"] if c["trick"] == 6]
    assert len(last) == 4
    assert all(c["before"] is True and c["after"] is True for c in last)
    assert all(c["card"] in c["best"] for c in last)
