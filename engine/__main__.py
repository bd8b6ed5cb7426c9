"""``python -m engine replay FILE|-``: print the result of one record (or a JSON array
of records) as JSON. ``python -m engine analyse FILE|-``: print its analysis
(``engine.analysis``) the same way. Exit 0 for any readable input, 2 for a missing
file or bad JSON."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from engine.analysis import analyse
from engine.replay import replay

USAGE = "usage: python -m engine replay|analyse RECORD.json|-"


def _replayed(record: object) -> dict[str, Any]:
    return replay(record).to_dict()


COMMANDS: dict[str, Callable[[object], dict[str, Any]]] = {
    "replay": _replayed,
    "analyse": analyse,
}


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in COMMANDS:
        print(USAGE, file=sys.stderr)
        return 2
    source = argv[1]
    try:
        if source == "-":
            text = sys.stdin.read()
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        print(f"cannot read {source}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(f"{source} is not UTF-8 text: {exc}", file=sys.stderr)
        return 2
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"{source} is not JSON: {exc}", file=sys.stderr)
        return 2
    command = COMMANDS[argv[0]]
    if isinstance(data, list):
        out: object = [command(record) for record in data]
    else:
        out = command(data)
    json.dump(out, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
