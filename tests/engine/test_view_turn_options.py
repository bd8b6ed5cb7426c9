"""The Macher's call options in the table view agree with trying every call.

The table view (``Fuchsen._turn_options``) finds the cards the Macher may turn with a
few trial calls instead of one per (called card, turned card) pair. The reference here
is the plain reading of "legal": a call is legal when the record with it appended does
not become invalid, asked of ``replay`` for every call there is.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import replay, table_view
from engine.cards import INDEX, PACK
from engine.fuchsen import TRUMPS
from engine.generate import NAMES
from tests.engine.records import HANDS5, deal, record

RULES = st.fixed_dictionaries(
    {
        "turn_low_plain": st.booleans(),
        "call_own_card": st.booleans(),
        "alone_requires_six_trumps": st.booleans(),
    }
)


def _legal(rec: dict[str, Any], event: dict[str, Any]) -> bool:
    return replay({**rec, "events": [*rec["events"], event]}).status != "invalid"


def _reference(rec: dict[str, Any], macher: str, hand: list[str]) -> tuple[Any, ...]:
    """(callable cards, alone, turnable cards) by trying every call."""
    deck = list(PACK)
    base = {"type": "call", "player": macher}
    cards = tuple(k for k in deck if _legal(rec, {**base, "card": k}))
    alone = _legal(rec, {**base, "alone": True})
    turn = tuple(
        c
        for c in sorted(hand, key=INDEX.__getitem__)
        if _legal(rec, {**base, "alone": True, "turned": c})
        or any(_legal(rec, {**base, "card": k, "turned": c}) for k in deck)
    )
    return cards, alone, turn


def _dealt(seed: int, active: int, six_trumps: bool) -> tuple[dict[str, Any], str]:
    """A deal with every hand (``active`` players) and the Macher's name."""
    rng = random.Random(seed)
    players = list(NAMES[:active])
    codes = list(PACK)
    if active == 4:
        codes = [c for c in codes if not c.endswith(("7", "8"))]
    else:
        codes = [c for c in codes if c not in ("S7", "G7")]
    rng.shuffle(codes)
    if six_trumps:
        # EO and five more trumps to the first player, the rest dealt at random.
        trumps = [c for c in codes if TRUMPS >> INDEX[c] & 1 and c != "EO"]
        first = ["EO", *trumps[:5]]
        codes = first + [c for c in codes if c not in first]
    hands = {name: sorted(codes[6 * i : 6 * i + 6]) for i, name in enumerate(players)}
    macher = next(name for name, cards in hands.items() if "EO" in cards)
    return deal(players=players, dealer=players[-1], hands=hands), macher


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    active=st.sampled_from([4, 5]),
    six_trumps=st.booleans(),
    rules=RULES,
)
def test_the_call_options_are_those_of_trying_every_call(
    seed: int, active: int, six_trumps: bool, rules: dict[str, Any]
) -> None:
    event, macher = _dealt(seed, active, six_trumps)
    rec = record("fuchsen", event, rules=rules)
    calls = table_view(rec).legal.calls
    assert calls is not None
    cards, alone, turn = _reference(rec, macher, event["hands"][macher])
    assert (calls.cards, calls.alone, calls.turn) == (cards, alone, turn)


def test_example_one_s_macher_may_turn_nothing_but_calls_an_eichel() -> None:
    # bert: EO GO EU GU SU EA: no plain 7 or 8 and not six trumps.
    calls = table_view(record("fuchsen", deal(hands=HANDS5))).legal.calls
    assert calls is not None and calls.turn == ()


def test_a_plain_seven_may_be_turned_unless_the_club_forbids_it() -> None:
    # Example 01's deal with bert's EA and anna's E7 swapped.
    hands = {
        **HANDS5,
        "bert": ["EO", "GO", "EU", "GU", "SU", "E7"],
        "anna": ["R8", "R7", "E8", "EA", "S9", "S8"],
    }
    allowed = table_view(record("fuchsen", deal(hands=hands))).legal.calls
    assert allowed is not None and allowed.turn == ("E7",)
    forbidden = table_view(
        record("fuchsen", deal(hands=hands), rules={"turn_low_plain": False})
    ).legal.calls
    assert forbidden is not None and forbidden.turn == ()


def test_with_six_trumps_every_trump_but_eo_may_be_turned() -> None:
    hands = {
        **HANDS5,
        "bert": ["EO", "GO", "EU", "GU", "SU", "RU"],
        "carl": ["EA", "RA", "E10", "GA", "G10", "GK"],
    }
    calls = table_view(record("fuchsen", deal(hands=hands))).legal.calls
    assert calls is not None and calls.alone
    assert set(calls.turn) == {"GO", "EU", "GU", "SU", "RU"}


def test_without_the_machers_whole_hand_the_turn_is_unknown() -> None:
    calls = table_view(record("fuchsen", deal())).legal.calls
    assert calls is not None and calls.turn == ("?",)
