"""The checks that accept the usual event, deal and decision at once word every refusal
as the careful walks do.

- ``check_event_shape`` accepts the usual event on a test of its keys: compared with the
  field-by-field walk on events with every kind of wrong, missing and extra field.
- Decisions are shared between replays: compared with an engine that has none cached,
  under house rules that change every value.
- ``check_hands`` accepts the usual hands on one test of all their cards together:
  compared with the hand-by-hand walk on hands with cards repeated, missing, extra,
  unknown or of another deck, for both games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core import (
    COMMON_EVENTS,
    Illegal,
    NeedPartner,
    Table,
    Variant,
    _walk_event_shape,
    _walk_hands,
    check_event_shape,
    check_hands,
)
from engine.generate import random_game
from engine.koenigrufen import Koenigrufen
from engine.replay import VARIANTS, fold, prepare
from engine.result import Result
from engine.rules import KOENIG_VALUE_KEYS


def _games(count: int) -> Iterator[dict[str, Any]]:
    for seed in range(count):
        yield random_game(70_000 + seed, "koenigrufen", 4, hands=seed % 2 == 0)


def _shapes(rng: random.Random) -> Iterator[dict[str, Any]]:
    """Events of every type, well-formed and with fields missing, extra, of the wrong
    kind or in another order."""
    values: list[Any] = ["anna", "EA", "", None, 3, True, ["EA"], {"a": 1}, ["EA", 3]]
    spec_fields = {typ: list(spec.fields) for typ, spec in Koenigrufen.events.items()}
    for typ, keys in spec_fields.items():
        for _ in range(60):
            event: dict[str, Any] = {"type": typ}
            for key in keys[1:]:
                if rng.random() < 0.8:
                    event[key] = rng.choice(values[:2] if rng.random() < 0.6 else values)
            if rng.random() < 0.2:
                event[rng.choice(["player", "card", "cards", "x", "called"])] = rng.choice(values)
            if rng.random() < 0.3:
                items = list(event.items())
                rng.shuffle(items)
                event = dict(items)
            yield event
    yield {"type": "deal", "dealer": "anna", "players": ["anna"], "hands": {}}


def _walked(event: dict[str, Any]) -> tuple[str, str] | None:
    spec = Koenigrufen.events[event["type"]]
    try:
        _walk_event_shape(event["type"], spec, event)
    except Illegal as exc:
        return exc.code, exc.message
    return None


def test_the_shape_test_on_keys_agrees_with_the_field_walk() -> None:
    variant = VARIANTS["koenigrufen"]
    rng = random.Random(11)
    accepted = refused = 0
    for event in _shapes(rng):
        try:
            typ, spec = check_event_shape(variant, event)
        except Illegal as exc:
            refused += 1
            assert (exc.code, exc.message) == _walked(event), event
            continue
        accepted += 1
        assert _walked(event) is None, event
        assert typ == event["type"] and spec is Koenigrufen.events[typ]
    assert accepted > 50 and refused > 50
    assert set(COMMON_EVENTS) <= set(Koenigrufen.events)


@pytest.mark.parametrize("offset", [0, 7])
def test_the_shared_engine_decides_as_a_fresh_one_under_changing_rules(offset: int) -> None:
    # The same games under house rules that change every value: anything the shared
    # engine keeps between records (its seatings, ``Variant.validate_deal``) found by
    # too few of its inputs would pay the value of another game or rule.
    rules = {"values": {key: 10 * (i + 1) + offset for i, key in enumerate(KOENIG_VALUE_KEYS)}}
    shared = VARIANTS["koenigrufen"]
    for record in _games(150):
        for variant_rules in (None, rules):
            plain = {**record, "rules": variant_rules} if variant_rules else record
            expected = _fresh_result(plain)
            assert _result(shared, plain) == expected, plain


def _result(variant: Variant, record: dict[str, Any]) -> Result | None:
    _, rules, events, undo_error = prepare(record)
    try:
        state, error = fold(variant, rules, events, undo_error)
    except NeedPartner:
        return None
    assert error is None
    return variant.result(state)


def _fresh_result(record: dict[str, Any]) -> Result | None:
    return _result(Koenigrufen(), record)


def _hands_variants(hands: dict[str, list[str]], rng: random.Random) -> Iterator[Any]:
    """The hands as dealt, and with a card repeated in a hand or across hands, one
    card more or fewer, an unknown code, a card of the other game's deck, a hand for
    a stranger or too few hands."""
    names = list(hands)
    codes = [c for hand in hands.values() for c in hand]
    yield hands
    for _ in range(12):
        changed = {name: list(cards) for name, cards in hands.items()}
        name, other = rng.sample(names, 2)
        what = rng.randrange(8)
        if what == 0:
            changed[name][rng.randrange(6)] = changed[name][rng.randrange(6)]
        elif what == 1:
            changed[name][rng.randrange(6)] = rng.choice(changed[other])
        elif what == 2:
            changed[name].append(rng.choice(codes))
        elif what == 3:
            changed[name].pop()
        elif what == 4:
            changed[name][rng.randrange(6)] = rng.choice(["XX", "E7", "S8", "G7", "R"])
        elif what == 5:
            changed["zora"] = changed.pop(name)
        elif what == 6:
            del changed[name]
        else:
            changed[name], changed[other] = changed[other], changed[name]
        yield changed


def _checked(check: Any, hands: Any, table: Table) -> Any:
    try:
        return check(hands, table).dealt
    except Illegal as exc:
        return exc.code, exc.message


@pytest.mark.parametrize(("game", "seats"), [("koenigrufen", 4), ("fuchsen", 5)])
def test_the_hands_test_on_all_cards_agrees_with_the_hand_walk(game: str, seats: int) -> None:
    rng = random.Random(3)
    variant = VARIANTS[game]
    _, rules, _, _ = prepare({"game": game, "events": []})
    accepted = refused = 0
    for seed in range(60):
        deal = random_game(seed, game, seats, hands=True)["events"][0]
        for hands in _hands_variants(deal["hands"], rng):
            event = {**deal, "hands": hands}
            table = variant.validate_deal({**deal, "hands": None}, rules)
            got = _checked(lambda h, t: check_hands({"hands": h}, t), hands, table)
            assert got == _checked(_walk_hands, hands, table), hands
            if isinstance(got, tuple) and isinstance(got[0], str):
                refused += 1
                continue
            accepted += 1
            dealt = check_hands(event, table)
            # Every card of a full deal is noted with its holder.
            if 0 not in dealt.dealt:
                owners = [q for q in dealt.dealt_owner if q >= 0]
                assert len(owners) == 6 * len(dealt.dealt)
                for q, mask in enumerate(dealt.dealt):
                    assert all(dealt.dealt_owner[c] == q for c in range(32) if mask >> c & 1)
    assert accepted > 60 and refused > 200
