"""Fuchsen's usual call skips ``_callable`` when the called card is plainly allowed.

Every plain card of the deck is called from random whole hands (with and without a
turned card, with and without ``call_own_card``), and the call is legal exactly when
``Fuchsen._callable`` allows the card (or the call fails for another reason first).
"""

from __future__ import annotations

import random
from typing import Any

from engine import replay
from engine.cards import INDEX
from engine.fuchsen import PLAIN, Fuchsen
from engine.generate import random_game
from engine.rules import effective_rules


def _deal_and_macher(seed: int, seats: int) -> tuple[dict[str, Any], str, dict[str, Any]]:
    record = random_game(seed, "fuchsen", seats, hands=True)
    events = record["events"]
    call = next(e for e in events if e["type"] == "call")
    return events[0], call["player"], dict(record.get("rules") or {})


def test_usual_call_allowed_exactly_as_callable() -> None:
    rng = random.Random(31)
    checked = {True: 0, False: 0}
    for seed in range(60):
        seats = rng.choice((4, 5, 6))
        deal, macher, base = _deal_and_macher(70_000 + seed, seats)
        hand_codes = deal["hands"][macher]
        hand = 0
        for code in hand_codes:
            hand |= 1 << INDEX[code]
        for own_ok in (False, True):
            rules: dict[str, Any] = {**base, "call_own_card": own_ok}
            eff = effective_rules("fuchsen", rules)
            for turned in (False, True):
                for code, card in INDEX.items():
                    if not PLAIN >> card & 1:
                        continue
                    call: dict[str, Any] = {"type": "call", "player": macher, "card": code}
                    if turned:
                        call["turned"] = True
                    record = {"game": "fuchsen", "rules": rules, "events": [deal, call]}
                    result = replay(record)
                    variant = Fuchsen()
                    table = variant.validate_deal(deal, eff)
                    in_deck = table.deck >> card & 1
                    own = hand >> card & 1
                    if not in_deck or (own and not own_ok):
                        continue  # refused (or judged) before the suit test
                    allowed = Fuchsen._callable(table, hand, turned, own_ok) >> card & 1
                    legal = result.error is None
                    assert legal == bool(allowed), (seed, own_ok, turned, code, result)
                    checked[legal] += 1
    assert checked[True] > 500 and checked[False] > 100, checked
