"""House rules: the table of each game and the validation the service relies on."""

from __future__ import annotations

import dataclasses

import pytest

from engine import GAMES, HouseRule, InvalidRules, house_rules, replay, validate_rules
from engine.rules import effective_rules
from tests.engine.records import record


def test_each_game_has_its_house_rules_with_defaults_kinds_and_docs() -> None:
    for game in GAMES:
        rules = house_rules(game)
        assert rules
        for key, rule in rules.items():
            assert isinstance(rule, HouseRule)
            assert rule.key == key
            assert rule.kind and rule.doc
            validate_rules(game, {key: rule.default})


def test_fuchsen_defaults_are_those_of_the_spec() -> None:
    rules = house_rules("fuchsen")
    assert rules["removed_cards"].default == ["S7", "G7"]
    assert rules["sit_out"].kind == "one of dealer|named"
    assert rules["level_values"].default["end"] == 40
    assert rules["fuchs_penalty"].default == 10


def test_koenigrufen_values_are_those_of_the_spec() -> None:
    values = house_rules("koenigrufen")["values"].default
    assert values["plauderer_joined"] == 100
    assert values["schurln"] == 10


def test_a_house_rule_is_frozen() -> None:
    rule = house_rules("fuchsen")["min_value"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rule.default = 20  # type: ignore[misc]


def test_an_unknown_game_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        house_rules("skat")
    with pytest.raises(ValueError):
        validate_rules("skat", None)


def test_none_and_an_empty_object_mean_the_defaults() -> None:
    for game in GAMES:
        defaults = {key: rule.default for key, rule in house_rules(game).items()}
        no_rules: tuple[dict[str, object] | None, ...] = (None, {})
        for rules in no_rules:
            validate_rules(game, rules)  # accepted: raises no InvalidRules
            assert dict(effective_rules(game, rules)) == defaults


@pytest.mark.parametrize(
    ("game", "rules", "key"),
    [
        ("fuchsen", {"colour": "red"}, "colour"),
        ("fuchsen", {"fuchs_penalty": "20"}, "fuchs_penalty"),
        ("fuchsen", {"fuchs_penalty": True}, "fuchs_penalty"),
        ("fuchsen", {"call_own_card": 1}, "call_own_card"),
        ("fuchsen", {"sit_out": "youngest"}, "sit_out"),
        ("fuchsen", {"level_values": {"schnaps": 5}}, "level_values"),
        ("fuchsen", {"level_values": {"re": False}}, "level_values"),
        ("fuchsen", {"removed_cards": ["EA", "G7"]}, "removed_cards"),
        ("fuchsen", {"removed_cards": ["S7", "S7"]}, "removed_cards"),
        ("koenigrufen", {"values": {"bettler": 1.5}}, "values"),
        ("koenigrufen", {"fuchs_penalty": 10}, "fuchs_penalty"),
    ],
)
def test_it_rejects_a_bad_house_rule_naming_the_key(game: str, rules: object, key: str) -> None:
    with pytest.raises(InvalidRules, match=key):
        validate_rules(game, rules)


def test_invalid_rules_is_a_value_error() -> None:
    assert issubclass(InvalidRules, ValueError)


def test_nested_value_tables_may_be_partial() -> None:
    # The entries left out keep their defaults; the named ones replace theirs.
    for game, key, partial in (
        ("fuchsen", "level_values", {"re": 16, "end": 45}),
        ("koenigrufen", "values", {"bettler": 35}),
    ):
        validate_rules(game, {key: partial})  # accepted: raises no InvalidRules
        default = house_rules(game)[key].default
        assert isinstance(default, dict) and set(partial) < set(default)
        assert effective_rules(game, {key: partial})[key] == {**default, **partial}


def test_a_record_with_bad_rules_is_invalid_at_index_minus_one() -> None:
    record = {"game": "fuchsen", "rules": {"min_value": 1.5}, "events": []}
    result = replay(record)
    assert result.status == "invalid"
    assert result.error is not None
    assert (result.error.index, result.error.code) == (-1, "invalid_rules")


def test_a_record_with_rules_null_uses_the_defaults() -> None:
    assert replay({"game": "koenigrufen", "rules": None, "events": []}).status == "in_progress"


def test_changing_a_default_in_place_does_not_change_replays() -> None:
    from tests.engine.test_fuchsen import SILENT

    level_values = house_rules("fuchsen")["level_values"].default
    saved = dict(level_values)
    level_values["re"] = 99
    try:
        assert replay(record("fuchsen", *SILENT)).value == 15 + 5 + 10
    finally:
        level_values.update(saved)
