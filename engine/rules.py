"""House rules: the settings a club may change, with their defaults and validation.

A record's ``rules`` object overrides the defaults of its game key by key. Nested
value tables (``level_values``, ``values``) may be partial: missing entries keep
their default. ``None`` means "all defaults".
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine.errors import Msg, render

__all__ = [
    "GAMES",
    "HouseRule",
    "InvalidRules",
    "effective_rules",
    "house_rules",
    "validate_rules",
]

GAMES: tuple[str, ...] = ("fuchsen", "koenigrufen")

JSONValue = Any

FUCHSEN_LEVELS: tuple[str, ...] = (
    "kontra",
    "re",
    "supp",
    "mort",
    "hirsch",
    "bock",
    "feuer",
    "end",
)
KOENIG_VALUE_KEYS: tuple[str, ...] = (
    "bettler",
    "bettler_joined",
    "durchmarsch",
    "durchmarsch_letzter",
    "plauderer",
    "plauderer_joined",
    "durchmarsch_hundert",
    "zehnermord",
    "koenigmord",
    "hundertermord",
    "schurln",
)
# Plain cards worth 0 Augen: the only cards that may be taken out with 5 active players.
REMOVABLE_CARDS: tuple[str, ...] = ("E9", "E8", "E7", "G9", "G8", "G7", "S9", "S8", "S7")


class InvalidRules(ValueError):
    """A house-rule object that does not fit its game (unknown key, wrong kind of value).

    ``msg`` and ``params``: the message's template and parameters; ``str()`` is the
    English sentence."""

    def __init__(self, msg: Msg, **params: Any) -> None:
        super().__init__(render(msg, params))
        self.msg = msg
        self.params = params


@dataclass(frozen=True, slots=True)
class HouseRule:
    """One house rule of a game: its key, default value, kind of value and meaning."""

    key: str
    default: JSONValue
    kind: str
    doc: str


def _rule_table(rules: tuple[HouseRule, ...]) -> Mapping[str, HouseRule]:
    return MappingProxyType({rule.key: rule for rule in rules})


_FUCHSEN = _rule_table(
    (
        HouseRule(
            "removed_cards",
            ["S7", "G7"],
            "card list",
            "the two zero-Augen plain cards taken out with 5 active players",
        ),
        HouseRule(
            "sit_out",
            "dealer",
            "one of dealer|named",
            "who sits out with 6 seated: the dealer, or the player the deal names",
        ),
        HouseRule("call_own_card", False, "bool", "may the Macher call a card he holds"),
        HouseRule(
            "turn_low_plain",
            True,
            "bool",
            "may the Macher turn a plain 7 or 8 without holding six trumps",
        ),
        HouseRule(
            "alone_requires_six_trumps",
            True,
            "bool",
            "the Macher may play alone (Herausspielen) only with six trumps",
        ),
        HouseRule(
            "strict_raise_windows",
            True,
            "bool",
            "a player's unused chance to raise lapses at the next card played",
        ),
        HouseRule(
            "level_values",
            {
                "kontra": 10,
                "re": 15,
                "supp": 20,
                "mort": 25,
                "hirsch": 30,
                "bock": 35,
                "feuer": 35,
                "end": 40,
            },
            "mapping level->int",
            "cents per Fahren level (game_cost is added from re up)",
        ),
        HouseRule("game_cost", 5, "int", "added to every level value from re up"),
        HouseRule("end_bonus", 5, "int", "added once the level end is reached"),
        HouseRule("min_value", 10, "int", "the game value with no re"),
        HouseRule("fuchs_penalty", 10, "int", "added to V(L) when the Fuchs was forgotten"),
        HouseRule("silent_bonus", 10, "int", "added when the opponents take no trick"),
    )
)

_KOENIGRUFEN = _rule_table(
    (
        HouseRule(
            "values",
            {
                "bettler": 30,
                "bettler_joined": 50,
                "durchmarsch": 40,
                "durchmarsch_letzter": 40,
                "plauderer": 50,
                "plauderer_joined": 100,
                "durchmarsch_hundert": 60,
                "zehnermord": 60,
                "koenigmord": 70,
                "hundertermord": 80,
                "schurln": 10,
            },
            "mapping contract->int",
            "points per contract (bettler_joined / plauderer_joined: with a joiner)",
        ),
    )
)

_TABLES: Mapping[str, Mapping[str, HouseRule]] = MappingProxyType(
    {"fuchsen": _FUCHSEN, "koenigrufen": _KOENIGRUFEN}
)


def house_rules(game: str) -> Mapping[str, HouseRule]:
    """Return the house rules of ``game`` by key (read-only).

    Raises ``ValueError`` for a game other than those in ``GAMES``.
    """
    try:
        return _TABLES[game]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {game!r}: expected one of {', '.join(GAMES)}") from None


# The largest amount a house rule may name (cents or points, either sign). A game's
# payouts are small multiples of these; unbounded, a value like 10**30 overflowed the
# ledger's 64-bit amounts and made recording a game fail with a server error.
MAX_RULE_AMOUNT = 1_000_000


def _is_int(value: object) -> bool:
    # bool is a subclass of int in Python, but a JSON true is not a number of cents.
    return isinstance(value, int) and not isinstance(value, bool)


def _check_amount(name: str, value: object) -> None:
    if not _is_int(value):
        raise InvalidRules(Msg.RULE_NOT_INT, rule=name, rvalue=value)
    assert isinstance(value, int)
    if abs(value) > MAX_RULE_AMOUNT:
        raise InvalidRules(Msg.RULE_OUT_OF_RANGE, rule=name, n=MAX_RULE_AMOUNT, rvalue=value)


def _check_value(rule: HouseRule, value: object) -> None:
    key = rule.key
    kind = rule.kind
    if kind == "int":
        _check_amount(key, value)
    elif kind == "bool":
        if not isinstance(value, bool):
            raise InvalidRules(Msg.RULE_NOT_BOOL, rule=key, rvalue=value)
    elif kind.startswith("one of "):
        choices = kind[len("one of ") :].split("|")
        if not isinstance(value, str) or value not in choices:
            raise InvalidRules(
                Msg.RULE_NOT_CHOICE, rule=key, rchoices=", ".join(choices), rvalue=value
            )
    elif kind.startswith("mapping "):
        if not isinstance(value, dict):
            raise InvalidRules(Msg.RULE_NOT_OBJECT, rule=key, rvalue=value)
        allowed = rule.default
        for name, amount in value.items():
            if name not in allowed:
                raise InvalidRules(
                    Msg.RULE_UNKNOWN_ENTRY, rule=key, rentry=name, rchoices=", ".join(allowed)
                )
            _check_amount(f"{key}.{name}", amount)
    elif kind == "card list":
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(card, str) and card in REMOVABLE_CARDS for card in value)
            or value[0] == value[1]
        ):
            raise InvalidRules(
                Msg.RULE_NOT_REMOVABLE, rule=key, cards=" ".join(REMOVABLE_CARDS), rvalue=value
            )
    else:  # pragma: no cover - every kind above is handled
        raise AssertionError(kind)


def validate_rules(game: str, rules: object) -> None:
    """Check a house-rule override object for ``game``; return None if it is acceptable.

    ``None`` means the defaults. Otherwise ``rules`` must be an object whose keys are
    house rules of the game and whose values have the rule's kind. Raises
    ``InvalidRules`` naming the offending key, or ``ValueError`` for an unknown game.
    """
    table = house_rules(game)
    if rules is None:
        return
    if not isinstance(rules, dict):
        raise InvalidRules(Msg.RULES_NOT_OBJECT, rvalue=rules)
    for key, value in rules.items():
        rule = table.get(key) if isinstance(key, str) else None
        if rule is None:
            raise InvalidRules(Msg.UNKNOWN_RULE, rentry=key, rgame=game, rchoices=", ".join(table))
        _check_value(rule, value)


_DEFAULTS: dict[str, Mapping[str, JSONValue]] = {}


def effective_rules(game: str, rules: object) -> Mapping[str, JSONValue]:
    """Validate ``rules`` and return the full settings of ``game`` with overrides applied
    (read-only)."""
    if not rules and (rules is None or rules == {}):
        cached = _DEFAULTS.get(game)
        if cached is None:
            cached = _DEFAULTS[game] = MappingProxyType(_merge(game, None))
        return cached
    validate_rules(game, rules)
    return MappingProxyType(_merge(game, rules))


def _copy(value: JSONValue) -> JSONValue:
    # Validated house-rule values are flat: a list of card codes or a table of ints.
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value


def _merge(game: str, rules: object) -> dict[str, JSONValue]:
    merged: dict[str, JSONValue] = {}
    overrides: dict[str, JSONValue] = rules if isinstance(rules, dict) else {}
    for key, default in _PRISTINE[game].items():
        if key in overrides:
            value = _copy(overrides[key])
            if isinstance(default, dict):
                value = {**default, **value}
            merged[key] = value
        else:
            merged[key] = _copy(default)
    return merged


# Private copies of the defaults: a caller changing a HouseRule's default (a list or
# a dict) in place must not change how games are replayed.
_PRISTINE: dict[str, dict[str, JSONValue]] = {
    game: {key: copy.deepcopy(rule.default) for key, rule in table.items()}
    for game, table in _TABLES.items()
}
