"""docs/rules says what the engine does: each example of its pages (a ```json block
with a ``record`` and its ``expected`` result) replays to that result, and each
language's table of error codes lists the engine's codes in their order."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine import ERROR_CODES, replay

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
PAGES = sorted(DOCS.glob("*/*.md"))
# Each language's page of the event format, and the heading of its error codes' table.
EVENT_PAGES = {
    "en": (DOCS / "en" / "events.md", "## Error codes"),
    "de": (DOCS / "de" / "ereignisse.md", "## Fehlercodes"),
}


def _examples(page: Path) -> list[dict[str, Any]]:
    blocks = re.findall(r"```json\n(.*?)\n```", page.read_text(encoding="utf-8"), re.S)
    found = [json.loads(block) for block in blocks]
    return [b for b in found if isinstance(b, dict) and {"record", "expected"} <= set(b)]


EXAMPLES = [
    pytest.param(example, id=f"{page.parent.name}/{page.stem}-{n}")
    for page in PAGES
    for n, example in enumerate(_examples(page), start=1)
]


def test_every_page_of_both_languages_is_there_and_gives_examples() -> None:
    names = {f"{p.parent.name}/{p.name}" for p in PAGES}
    assert names == {
        "de/fuchsen.md",
        "de/koenigrufen.md",
        "de/ereignisse.md",
        "en/fuchsen.md",
        "en/koenigrufen.md",
        "en/events.md",
    }
    for page in PAGES:
        assert len(_examples(page)) >= 3, page


@pytest.mark.parametrize("example", EXAMPLES)
def test_each_example_of_the_rules_pages_replays_to_its_expected_result(
    example: dict[str, Any],
) -> None:
    got = replay(example["record"]).to_dict()
    for key, value in example["expected"].items():
        if key == "error":  # the message is the engine's sentence: not restated
            assert {k: got["error"][k] for k in value} == value
        else:
            assert got.get(key) == value, key


@pytest.mark.parametrize("language", sorted(EVENT_PAGES))
def test_the_error_codes_table_lists_the_engines_codes_in_order(language: str) -> None:
    page, heading = EVENT_PAGES[language]
    table = page.read_text(encoding="utf-8").split(heading, 1)[1]
    assert tuple(re.findall(r"^\| `([a-z_]+)` \| ", table, re.M)) == ERROR_CODES
