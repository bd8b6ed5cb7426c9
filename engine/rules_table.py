"""The rules in force under a set of house rules, as tables for people to read.

Every figure here is the rule book's own: a value, a payout or who may say a level
is what ``replay`` or ``table_view`` answers for a small record played under the
given rules (a pure tally after the call or the auction), a card order is the
layout the table view draws. Nothing is computed twice: a change to a rule in the
engine changes these tables with it.

``rules_table(game, rules)`` returns plain JSON values; ``rules`` is a house-rule
override object as a record carries it (``None`` or ``{}``: the defaults). Raises
``InvalidRules`` for rules that do not fit the game, ``ValueError`` for an unknown game.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from engine.cards import mask_of
from engine.fuchsen import augen_of
from engine.koenigrufen import CONTRACTS, WITH_CALLED, WITH_FACE_DOWN
from engine.replay import replay
from engine.rules import FUCHSEN_LEVELS, effective_rules, validate_rules
from engine.view import table_view

__all__ = ["rules_table"]

FIVE = ("anna", "bert", "carl", "dora", "emil")
# bert is the Macher or declarer, carl his Hilfer or partner, the others opponents.
MACHER, HILFER, OPPONENT = "bert", "carl", "dora"
CALL = {"type": "call", "player": MACHER, "card": "E10"}
ALONE = {"type": "call", "player": MACHER, "alone": True}

# A legal four-player Fuchsen deal (24 cards: no 7s and 8s, whatever cards five would
# take out) for walking the raises: bert holds EO and calls E10 (carl's); GO is an
# opponent's, so no Fuchs is due. bert leads the first trick.
_RAISE_HANDS = {
    "bert": ["EO", "EU", "GU", "SU", "EA", "GA"],
    "carl": ["E10", "RU", "RA", "G10", "GK", "S9"],
    "dora": ["GO", "R10", "RK", "EK", "SA", "S10"],
    "anna": ["RO", "R9", "E9", "G9", "SK", "SO"],
}
_FIRST_TRICK = (("bert", "EO"), ("carl", "RA"), ("dora", "R10"), ("anna", "R9"))


def _deal(players: tuple[str, ...], hands: dict[str, list[str]] | None = None) -> dict[str, Any]:
    deal: dict[str, Any] = {"type": "deal", "dealer": "anna", "players": list(players)}
    if hands is not None:
        deal["hands"] = hands
    return deal


def _finished(game: str, rules: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = replay({"game": game, "rules": rules, "events": events}).to_dict()
    # The records are built to be legal under any valid rules: anything else is a bug here.
    assert result["status"] == "finished", result
    return result


def _sides(result: dict[str, Any]) -> dict[str, int | None]:
    """What the Macher (declarer), his Hilfer (partner) and an opponent get."""
    payouts = result["payouts"]
    declarers = result["declarers"]
    return {
        "macher": payouts[MACHER],
        "hilfer": payouts[HILFER] if HILFER in declarers else None,
        "opponent": payouts[OPPONENT],
    }


def _raisers(rules: dict[str, Any]) -> dict[str, str]:
    """Per level, the side that may say it ("declarers" or "opponents"): the table
    view's legal raises after the first trick, each level said as soon as offered."""
    events: list[dict[str, Any]] = [
        _deal(("anna", "bert", "carl", "dora"), _RAISE_HANDS),
        {"type": "call", "player": MACHER, "card": "E10"},
        *({"type": "play", "player": p, "card": c} for p, c in _FIRST_TRICK),
    ]
    sides: dict[str, str] = {}
    while True:
        view = table_view({"game": "fuchsen", "rules": rules, "events": events}).to_dict()
        offered = view["legal"]["raises"]
        if not offered:
            return sides
        player, level = offered[0]
        sides[level] = "declarers" if player in view["declarers"] else "opponents"
        events.append({"type": "raise", "player": player, "level": level})


def _fuchsen(rules: dict[str, Any]) -> dict[str, Any]:
    five = _deal(FIVE)
    view = table_view({"game": "fuchsen", "rules": rules, "events": [five]}).to_dict()
    four = table_view({"game": "fuchsen", "rules": rules, "events": [_deal(FIVE[:4])]}).to_dict()
    cards = [c for row in view["deck"] for c in row["cards"] if c is not None]
    said_by = _raisers(rules)
    levels = []
    for level in (None, *FUCHSEN_LEVELS):
        tally: dict[str, Any] = {"type": "tally", "partner": HILFER}
        if level is not None:
            tally["level"] = level
        if level != "kontra":  # kontra without re is decided: the Macher's side lost
            tally["won"] = True
        played = _finished("fuchsen", rules, [five, CALL, tally])
        forgotten = _finished(
            "fuchsen",
            rules,
            [five, CALL, tally, {"type": "show", "player": HILFER, "cards": ["GO"]}],
        )
        silent = None
        if played["reason"] == "tally":  # played to the end: a Stilles Spiel possible
            silent = _finished("fuchsen", rules, [five, CALL, {**tally, "silent": True}])
        levels.append(
            {
                "level": level,
                "said_by": said_by.get(level) if level else None,
                "value": played["value"],
                "won": played["won"],
                "reason": played["reason"],
                "payouts": _sides(played),
                "silent_value": silent["value"] if silent else None,
                "forgotten_value": forgotten["value"],
                "forgotten_payouts": _sides(forgotten),
            }
        )
    # How a value is shared: a won game at re, per table, as multiples of its value.
    settings = []
    for name, players, call in (
        ("partner_5", FIVE, CALL),
        ("partner_4", FIVE[:4], CALL),
        ("alone_5", FIVE, ALONE),
        ("alone_4", FIVE[:4], ALONE),
    ):
        tally = {"type": "tally", "level": "re", "won": True}
        if call is CALL:
            tally["partner"] = HILFER
        won = _finished("fuchsen", rules, [_deal(players), call, tally])
        value = won["value"]
        settings.append(
            {
                "setting": name,
                "active": len(players),
                **{k: (v // value if v is not None else None) for k, v in _sides(won).items()},
            }
        )
    return {
        "game": "fuchsen",
        "rules": dict(effective_rules("fuchsen", rules)),
        "trumps": view["trumps"],
        "decks": {"5": view["deck"], "4": four["deck"]},
        "augen": {code: augen_of(mask_of([code])) for code in cards},
        "levels": levels,
        "shares": settings,
    }


def _koenig_auction(contract: str, *, called: str = "EK", joined: bool = False) -> list[Any]:
    bid: dict[str, Any] = {"type": "bid", "player": MACHER, "contract": contract}
    if contract in WITH_CALLED:
        bid["called"] = called
    events: list[dict[str, Any]] = [_deal(FIVE[:4]), bid]
    if joined:
        events.append({"type": "join", "player": HILFER})
    for player in ("dora", "anna") if joined else ("carl", "dora", "anna"):
        events.append({"type": "pass", "player": player})
    return events


def _koenigrufen(rules: dict[str, Any]) -> dict[str, Any]:
    contracts = []
    for rank, contract in enumerate(CONTRACTS, start=1):
        auction = _koenig_auction(contract)
        won_tally: dict[str, Any] = {"type": "tally", "won": True}
        lost_tally: dict[str, Any] = {"type": "tally", "won": False}
        if contract in WITH_CALLED:  # the called card's holder is the partner
            won_tally["partner"] = lost_tally["partner"] = HILFER
        won = _finished("koenigrufen", rules, [*auction, won_tally])
        lost = _finished("koenigrufen", rules, [*auction, lost_tally])
        view = table_view({"game": "koenigrufen", "rules": rules, "events": auction}).to_dict()
        entry: dict[str, Any] = {
            "contract": contract,
            "rank": rank,
            "value": won["value"],
            "alone": len(won["declarers"]) == 1,
            "won": _sides(won),
            "lost": _sides(lost),
            "deck": view["deck"],
            "joined": None,
            "with_called_ten": None,
            "with_last_trick": None,
        }
        if contract in WITH_FACE_DOWN:
            joined = _koenig_auction(contract, joined=True)
            entry["joined"] = {
                "value": _finished("koenigrufen", rules, [*joined, won_tally])["value"],
                "won": _sides(_finished("koenigrufen", rules, [*joined, won_tally])),
                "lost": _sides(_finished("koenigrufen", rules, [*joined, lost_tally])),
            }
        if contract in WITH_CALLED:  # a called ten may change the order of the cards
            ten = _koenig_auction(contract, called="E10")
            ten_view = table_view({"game": "koenigrufen", "rules": rules, "events": ten})
            entry["with_called_ten"] = {"deck": ten_view.to_dict()["deck"]}
        if contract == "durchmarsch_letzter":  # the last trick's winner may be the partner
            last = _finished("koenigrufen", rules, [*auction, {**won_tally, "partner": HILFER}])
            entry["with_last_trick"] = {"won": _sides(last)}
        contracts.append(entry)
    passes = [
        _deal(FIVE[:4]),
        *({"type": "pass", "player": p} for p in ("bert", "carl", "dora", "anna")),
    ]
    schurln = []
    for losers in (["bert"], ["bert", "carl"], ["bert", "carl", "dora"]):
        paid = _finished("koenigrufen", rules, [*passes, {"type": "tally", "losers": losers}])
        schurln.append(
            {
                "losers": len(losers),
                "value": paid["value"],
                "loser": paid["payouts"]["bert"],
                "other": paid["payouts"]["anna"],
            }
        )
    view = table_view({"game": "koenigrufen", "rules": rules, "events": passes}).to_dict()
    return {
        "game": "koenigrufen",
        "rules": dict(effective_rules("koenigrufen", rules)),
        "contracts": contracts,
        "schurln": schurln,
        "schurln_deck": view["deck"],
    }


@lru_cache(maxsize=64)
def _table(game: str, rules_json: str) -> str:
    rules: dict[str, Any] = json.loads(rules_json)
    table = _fuchsen(rules) if game == "fuchsen" else _koenigrufen(rules)
    return json.dumps(table)


def rules_table(game: str, rules: object) -> dict[str, Any]:
    """The tables of ``game`` under the house rules ``rules`` (a fresh copy each call).

    Fuchsen: ``trumps`` (highest first), ``decks`` by active players (``"5"``,
    ``"4"``: rows of the table view's layout, a removed card as ``None``), ``augen``
    per card, ``levels`` (no level, then kontra … end: who may say it, the value, how
    the game ends there, the payouts of a won game, with a Stilles Spiel and with a
    forgotten Fuchs) and ``shares`` (per table, Macher, Hilfer and each opponent as
    multiples of the value). Königrufen: ``contracts`` in rank order (value, alone or
    not, payouts won and lost, the card order, with a joiner, with a called ten,
    with the last trick's partner) and ``schurln`` per number of losers.
    """
    validate_rules(game, rules)
    canonical = json.dumps(rules or {}, sort_keys=True)
    table: dict[str, Any] = json.loads(_table(game, canonical))
    return table
