"""Seeded random legal games, built with the engine's own legal-move view.

Used by the property tests and the benchmark, so both exercise the same games. Every
record generated here replays as ``finished`` (a complete game) unless ``stop_after``
cuts it short. Only the standard library's ``random`` is used; the same seed gives
the same record.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from engine.cards import CODES, INDEX, bits
from engine.core import GameState
from engine.fuchsen import TRUMPS, FuchsenState
from engine.koenigrufen import DECK as KOENIG_DECK
from engine.koenigrufen import Koenigrufen, KoenigState
from engine.replay import VARIANTS, apply, fold
from engine.rules import effective_rules
from engine.tricks import on_table
from engine.view import _with_event_knowledge, legal_moves

__all__ = ["NAMES", "random_game", "random_records"]

NAMES = ("anna", "bert", "carl", "dora", "emil", "franz")


class _Builder:
    def __init__(self, game: str, rules: dict[str, Any] | None, deal: dict[str, Any]) -> None:
        self.record: dict[str, Any] = {"game": game, "events": [deal]}
        if rules:
            self.record["rules"] = rules
        variant = VARIANTS[game]
        state, error = fold(variant, effective_rules(game, rules), [(0, deal)], -1)
        assert error is None, error
        self.state: GameState = state

    @property
    def index(self) -> int:
        return len(self.record["events"])

    def add(self, event: dict[str, Any]) -> None:
        i = self.index
        self.state = apply(_with_event_knowledge(self.state, event, i), event, i)
        self.record["events"].append(event)

    @property
    def over(self) -> bool:
        return self.state.decision is not None


def _deal(rng: random.Random, players: list[str], active: list[str], deck: int) -> dict[str, Any]:
    cards = [CODES[c] for c in bits(deck)]
    rng.shuffle(cards)
    hands = {name: sorted(cards[6 * i : 6 * i + 6]) for i, name in enumerate(active)}
    return {"hands": hands}


def random_game(
    seed: int,
    game: str = "fuchsen",
    seats: int = 5,
    *,
    contract: str | None = None,
    hands: bool = True,
) -> dict[str, Any]:
    """A random complete legal record of ``game`` with ``seats`` seated players.

    ``contract`` asks for one contract (Fuchsen ``partner``/``alone``; a Königrufen
    contract or ``schurln``); deals are redrawn until it is possible. Without ``hands``
    the deal's hands are left out of the returned record (it stays legal).
    """
    rng = random.Random(seed)
    for _ in range(10_000):
        if game == "fuchsen":
            record = _fuchsen(rng, seats, contract)
        else:
            record = _koenigrufen(rng, contract)
        if record is not None:
            if not hands:
                del record["events"][0]["hands"]
            return record
    raise RuntimeError(f"no deal allows {contract!r}")  # pragma: no cover


def random_records(
    seed: int, count: int, game: str = "fuchsen", seats: int = 5, *, hands: bool = True
) -> list[dict[str, Any]]:
    """``count`` random complete records, seeded."""
    return [random_game(seed * 1_000_003 + i, game, seats, hands=hands) for i in range(count)]


# ----------------------------------------------------------------------------- Fuchsen


def _fuchsen(rng: random.Random, seats: int, contract: str | None) -> dict[str, Any] | None:
    players = list(NAMES[:seats])
    dealer = rng.choice(players)
    rules: dict[str, Any] = {}
    deal: dict[str, Any] = {"type": "deal", "dealer": dealer, "players": players}
    sitting_out = None
    if seats == 6:
        if rng.random() < 0.5:
            rules["sit_out"] = "named"
            sitting_out = rng.choice(players)
            deal["sitting_out"] = sitting_out
        else:
            sitting_out = dealer
    active = [p for p in players if p != sitting_out]
    full = (1 << 32) - 1
    if len(active) == 4:
        deck = full & ~sum(1 << i for i, c in enumerate(CODES) if c.endswith(("7", "8")))
    else:
        deck = full & ~(1 << INDEX["S7"]) & ~(1 << INDEX["G7"])
    deal.update(_deal(rng, players, active, deck))
    b = _Builder("fuchsen", rules or None, deal)
    state = b.state
    assert isinstance(state, FuchsenState) and state.know is not None
    macher_i = state.know.owner[INDEX["EO"]]
    macher = active[macher_i]
    hand = state.know.known[macher_i]
    six_trumps = hand & TRUMPS == hand
    want_alone = contract == "alone" or (contract is None and six_trumps and rng.random() < 0.6)
    if want_alone and not six_trumps:
        return None
    if contract == "partner" and six_trumps and rng.random() < 0.5:
        pass  # a six-trump hand may still call a partner
    call: dict[str, Any] = {"type": "call", "player": macher}
    turnable = [
        CODES[c]
        for c in bits(hand)
        if CODES[c] != "EO"
        and ((six_trumps and TRUMPS >> c & 1) or (not TRUMPS >> c & 1 and CODES[c][1:] in "78"))
    ]
    secret = ""
    if turnable and rng.random() < 0.3:
        secret = rng.choice(turnable)
        call["turned"] = secret if rng.random() < 0.8 else True
    if want_alone:
        call["alone"] = True
    else:
        options = legal_moves(b.state, b.index)
        assert options.calls is not None
        cards = list(options.calls.cards)
        if "turned" in call:
            turned = call["turned"]
            cards = [
                CODES[c]
                for c in bits(b.state.table.deck if b.state.table else 0)
                if not TRUMPS >> c & 1 and not hand >> c & 1 and CODES[c] != turned
            ]
        if not cards:
            return None
        call["card"] = rng.choice(cards)
    b.add(call)
    if call.get("turned") is True:
        # The Macher knows which card he turned; the record does not say it yet.
        know = b.state.know
        assert know is not None
        b.state.know = dataclasses.replace(know, blank=INDEX[secret])
    state = b.state
    assert isinstance(state, FuchsenState)
    raise_bias = rng.random()
    while not b.over:
        state = b.state
        assert isinstance(state, FuchsenState)
        if state.tricks_done == 0 or (state.tricks_done == 1 and not on_table(state)):
            legal = legal_moves(state, b.index)
            while legal.raises and rng.random() < raise_bias:
                player, level = rng.choice(legal.raises)
                b.add({"type": "raise", "player": player, "level": level})
                legal = legal_moves(b.state, b.index)
            if legal.can_end_raising and rng.random() < 0.7:
                b.add({"type": "end_raising"})
                continue
        state = b.state
        assert isinstance(state, FuchsenState) and state.know is not None and state.table
        legal = legal_moves(state, b.index)
        card = rng.choice(legal.cards)
        p = state.to_act
        event: dict[str, Any] = {"type": "play", "player": state.table.active[p], "card": card}
        c = INDEX[card]
        if state.turned and p == state.macher and c == state.know.blank:
            event["turned"] = True
        if (
            p == state.hilfer
            and state.first_play[p] < 0
            and state.know.known[p] >> INDEX["GO"] & 1
            and rng.random() < 0.9
        ):
            event["fuchs"] = True
        b.add(event)
    if contract is not None and (b.state.decision is None or _contract(b.state) != contract):
        return None
    return b.record


def _contract(state: GameState) -> str:
    if isinstance(state, FuchsenState):
        return "alone" if state.alone else "partner"
    assert isinstance(state, KoenigState)
    return state.contract or ""


# ----------------------------------------------------------------------------- Königrufen


def _koenigrufen(rng: random.Random, contract: str | None) -> dict[str, Any] | None:
    players = list(NAMES[:4])
    dealer = rng.choice(players)
    deal: dict[str, Any] = {"type": "deal", "dealer": dealer, "players": players}
    deal.update(_deal(rng, players, players, KOENIG_DECK))
    b = _Builder("koenigrufen", None, deal)
    first = True
    while isinstance(b.state, KoenigState) and b.state.phase == "auction":
        state = b.state
        assert state.table is not None and state.know is not None
        name = state.table.active[state.to_act]
        legal = legal_moves(state, b.index)
        if contract is not None:
            if first:
                if contract == "schurln":
                    b.add({"type": "pass", "player": name})
                elif contract not in legal.bids:
                    return None
                else:
                    b.add(_bid(rng, state, name, contract))
                first = False
                continue
            b.add({"type": "pass", "player": name})
            continue
        roll = rng.random()
        if legal.can_join and roll < 0.3:
            event: dict[str, Any] = {"type": "join", "player": name}
            if rng.random() < 0.5:
                event["card"] = CODES[_any_card(rng, state.know.known[state.to_act])]
            b.add(event)
        elif legal.bids and roll < 0.55:
            b.add(_bid(rng, state, name, rng.choice(legal.bids)))
        else:
            b.add({"type": "pass", "player": name})
    while not b.over:
        now = b.state
        assert now.table is not None
        legal = legal_moves(now, b.index)
        card = rng.choice(legal.cards)
        b.add({"type": "play", "player": now.table.active[now.to_act], "card": card})
    if contract is not None and _contract(b.state) != contract:
        return None
    return b.record


def _any_card(rng: random.Random, mask: int) -> int:
    return rng.choice(list(bits(mask)))


def _bid(rng: random.Random, state: KoenigState, name: str, contract: str) -> dict[str, Any]:
    assert state.table is not None and state.know is not None
    p = state.table.index[name]
    event: dict[str, Any] = {"type": "bid", "player": name, "contract": contract}
    if contract in ("durchmarsch", "durchmarsch_hundert"):
        options = [
            CODES[c]
            for c in bits(KOENIG_DECK & ~state.know.known[p])
            if Koenigrufen._bid_refusal(state, p, contract, CODES[c], -1) is None
        ]
        event["called"] = rng.choice(options)
    if contract in ("bettler", "plauderer") and rng.random() < 0.5:
        event["card"] = CODES[_any_card(rng, state.know.known[p])]
    return event
