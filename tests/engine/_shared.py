"""The reference records for the engine's tests: the repository's own copy in
``tests/reference`` (this module names them as the engine's tests have always
imported them)."""

from __future__ import annotations

from pathlib import Path

from tests.reference import (
    CORPORA,
    CORPUS,
    EXAMPLES,
    TALLY_CORPUS,
    TALLY_EXAMPLES,
    example_names,
    load,
    without_message,
)

REPO = Path(__file__).resolve().parents[2]

__all__ = [
    "CORPORA",
    "CORPUS",
    "EXAMPLES",
    "REPO",
    "TALLY_CORPUS",
    "TALLY_EXAMPLES",
    "example_names",
    "load",
    "without_message",
]
