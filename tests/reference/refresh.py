"""Copy the reference records again from the shared folder and rewrite the manifest.

    python -m tests.reference.refresh            # from ../shared next to the repository
    python -m tests.reference.refresh PATH       # from another copy of it
    python -m tests.reference.refresh --check    # only compare; exit 1 if they differ

(``make reference`` runs the first.) Files that are no longer in the source are
removed here, so the project's copy is exactly the source's. After a refresh, run
``pytest tests/engine/test_reference_records.py tests/engine/test_reference_examples.py
tests/engine/test_corpus.py`` and commit the changed files with the manifest.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from tests.reference import MANIFEST, REFERENCE, data_files, sha256

# ``../shared`` next to the repository (``tests/reference`` is two folders down).
DEFAULT_SOURCE = REFERENCE.parents[1].parent / "shared"


def differences(source: Path) -> list[str]:
    """What differs between ``source`` and the project's copy, one line per file."""
    theirs, ours = data_files(source), data_files(REFERENCE)
    lines = [f"missing here: {name}" for name in theirs if name not in ours]
    lines += [f"not in the source: {name}" for name in ours if name not in theirs]
    lines += [
        f"differs: {name}"
        for name in theirs
        if name in ours and sha256(source / name) != sha256(REFERENCE / name)
    ]
    return lines


def refresh(source: Path) -> None:
    for name in data_files(REFERENCE):
        if not (source / name).exists():
            (REFERENCE / name).unlink()
    names = data_files(source)
    for name in names:
        target = REFERENCE / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / name, target)
    MANIFEST.write_text(
        "".join(f"{sha256(REFERENCE / name)}  {name}\n" for name in names), encoding="utf-8"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    args = parser.parse_args(argv)
    source: Path = args.source
    if not (source / "examples").is_dir() or not (source / "corpus").is_dir():
        print(f"{source} holds no examples/ and corpus/", file=sys.stderr)
        return 2
    if args.check:
        lines = differences(source)
        print("\n".join(lines) if lines else f"the same as {source}")
        return 1 if lines else 0
    refresh(source)
    print(f"{len(data_files(REFERENCE))} files copied from {source}; {MANIFEST.name} rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
