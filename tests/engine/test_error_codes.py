"""An error is data: a code of the spec's table, the event's index and the parameters
of its message, whose English sentence is rendered from one template per message."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engine import ERROR_CODES, Code, Msg, replay
from engine.errors import render
from tests.engine.records import HANDS5, call, deal, fuchsen, play

ENGINE = Path(__file__).resolve().parents[2] / "engine"
# The table of codes people read, in the project's own docs (both languages are
# checked by test_rules_docs.py; this one keeps the codes' order next to their enum).
CODES_TABLE = Path(__file__).resolve().parents[2] / "docs" / "rules" / "en" / "events.md"


def test_the_codes_are_the_docs_table_in_its_order_each_with_a_docstring() -> None:
    assert tuple(code.value for code in Code) == ERROR_CODES
    rows = re.findall(r"^\| `([a-z_]+)` \| ", CODES_TABLE.read_text(encoding="utf-8"), re.M)
    start = rows.index("malformed_record")
    assert tuple(rows[start : start + len(ERROR_CODES)]) == ERROR_CODES
    for code in Code:
        assert code.__doc__ and code.__doc__ != Code.__doc__, code
        assert code == code.value  # compares as the spec's string


def test_an_error_carries_its_code_index_and_the_parameters_of_its_message() -> None:
    result = fuchsen(
        deal(hands=HANDS5), call("bert", "E10"), play("bert", "EO"), play("carl", "E10")
    )
    error = result.error
    assert error is not None
    assert (error.index, error.code, error.msg) == (3, Code.MUST_FOLLOW_SUIT, Msg.FOLLOW_TRUMPS)
    assert dict(error.params) == {"player": "carl", "example": "RA"}
    assert error.message == render(Msg.FOLLOW_TRUMPS, dict(error.params))
    detail = error.to_dict(detail=True)
    assert detail["template"] == Msg.FOLLOW_TRUMPS.value and detail["params"] == error.params
    assert set(error.to_dict()) == {"index", "code", "message"}  # the spec's error object


def test_a_record_level_error_carries_its_template_too() -> None:
    error = replay({"game": "skat", "events": []}).error
    assert error is not None and error.msg is Msg.UNKNOWN_GAME
    assert error.message == "'skat' is not a game of this engine"


def _used_messages() -> set[str]:
    used: set[str] = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "Msg"
            ):
                used.add(node.attr)
    return used


def test_every_message_template_is_given_by_some_rule_and_names_its_parameters() -> None:
    assert {msg.name for msg in Msg} <= _used_messages()
    for msg in Msg:
        assert "%(" not in msg.value, msg  # str.format templates, not printf ones
