"""Where the shared reference material lives: ``../shared`` next to the repository."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
EXAMPLES = SHARED / "examples"
CORPUS = SHARED / "corpus" / "cases.json"
# The records that end in what the table counted (a ``tally``).
TALLY_EXAMPLES = EXAMPLES / "tally"
TALLY_CORPUS = SHARED / "corpus" / "tally.json"
CORPORA = (CORPUS, TALLY_CORPUS)


def need(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"the shared reference material is not here: {path} is missing")


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def without_message(result: dict[str, Any]) -> dict[str, Any]:
    """The result as the reference files state it: error messages (and the field at
    fault, which the reference files do not name) left out."""
    out = dict(result)
    if "error" in out:
        out["error"] = {k: v for k, v in out["error"].items() if k not in ("message", "field")}
    return out
