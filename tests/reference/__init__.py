"""The reference records, kept in the repository: the hand-checked examples and the
generated corpus, with the results the engine must return for them.

``README.md`` says where they come from and how they were checked; ``refresh.py``
copies them again from ``../shared`` and rewrites ``MANIFEST.sha256``, which a test
checks file by file.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

REFERENCE = Path(__file__).resolve().parent
EXAMPLES = REFERENCE / "examples"
# The examples that end in what the table counted (a ``tally``).
TALLY_EXAMPLES = EXAMPLES / "tally"
CORPUS = REFERENCE / "corpus" / "cases.json"
TALLY_CORPUS = REFERENCE / "corpus" / "tally.json"
CORPORA = (CORPUS, TALLY_CORPUS)
MANIFEST = REFERENCE / "MANIFEST.sha256"

# The data files, relative to ``REFERENCE``: what the manifest lists and
# ``refresh.py`` copies (this package's own code and README are not data).
DATA_GLOBS = ("examples/**/*.json", "examples/README.md", "corpus/*.json", "corpus/README.md")


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def without_message(result: dict[str, Any]) -> dict[str, Any]:
    """The result as the reference files state it: error messages (and the field at
    fault, which the reference files do not name) left out."""
    out = dict(result)
    if "error" in out:
        out["error"] = {k: v for k, v in out["error"].items() if k not in ("message", "field")}
    return out


def example_names() -> list[str]:
    """Every example, as its path relative to ``EXAMPLES`` (``tally/61-….json`` for the
    tallies), in order."""
    return sorted(str(p.relative_to(EXAMPLES)) for p in EXAMPLES.glob("**/*.json"))


def data_files(root: Path) -> list[str]:
    """The reference data files under ``root`` (this folder or ``../shared``), as
    POSIX paths relative to it, sorted."""
    found = {p.relative_to(root).as_posix() for g in DATA_GLOBS for p in root.glob(g)}
    return sorted(found)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_manifest() -> dict[str, str]:
    """``MANIFEST.sha256`` as {relative path: checksum}; the file is in the format of
    ``sha256sum`` (``cd tests/reference && sha256sum -c MANIFEST.sha256`` checks it too)."""
    entries: dict[str, str] = {}
    for line in MANIFEST.read_text(encoding="utf-8").splitlines():
        digest, name = line.split("  ", 1)
        entries[name] = digest
    return entries
