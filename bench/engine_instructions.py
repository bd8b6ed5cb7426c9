"""Instructions per record of the engine's replay and table view, old against new
(valgrind's callgrind counts instructions, not seconds).

    python bench/engine_instructions.py --old REV [--records N] [--games G]

On a machine shared with other work the CPU times of ``bench/engine.py`` move by
10-20 % from run to run; an instruction count is the same for the same program and
input whatever the neighbours do, so it shows a change of a few per cent that the
timed runs cannot. It is not a time: it weighs a cache miss or a slow instruction
like any other. ``bench/engine.py`` stays the measure of speed (records/s and the
ratio to the floor); this one says which of two engines does less work.

For each suite it runs the engine under callgrind twice per engine, replaying the
suite's records ``k`` = 1 and 2 times, and prints the difference divided by the
records: the engine's own instructions per record, start-up and imports taken out.
Suites: ``replay`` of ``--records`` generated played-out games, five-player Fuchsen and
Königrufen, with the deal's hands and without; ``view`` (``table_view``) of every
prefix of ``--games`` of those games. The old engine is ``engine/`` at git revision
``REV`` (``bench/old_engine.py``). Needs valgrind.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# The program callgrind runs: the engine's package named on the command line
# (``engine`` or the old one's), ``k`` rounds over the records of a file.
_RUN = """
import importlib, json, sys
package, what, path, k = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sys.path[:0] = sys.argv[5:]
engine = importlib.import_module(package)
importlib.import_module(package + ".view")
fn = engine.replay if what == "replay" else engine.table_view
texts = [json.dumps(r) for r in json.load(open(path, encoding="utf-8"))]
for _ in range(k):
    for text in texts:
        fn(json.loads(text))
"""

SUITES = [
    ("fuchsen", 5, True),
    ("fuchsen", 5, False),
    ("koenigrufen", 4, True),
    ("koenigrufen", 4, False),
]


def _count(package: str, what: str, path: Path, k: int, paths: list[str]) -> int:
    out = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            _RUN,
            package,
            what,
            str(path),
            str(k),
            *paths,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    match = re.search(r"Collected : (\d+)", out.stderr)
    if match is None:
        raise SystemExit(f"callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(match.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, help="git revision of the old engine")
    parser.add_argument("--records", type=int, default=300, help="games per replay suite")
    parser.add_argument("--games", type=int, default=15, help="games whose prefixes are viewed")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")

    from bench.old_engine import load
    from engine.generate import random_game

    old = load(args.old)
    assert old.__file__ is not None
    old_dir = str(Path(old.__file__).resolve().parents[1])
    engines = [("new", "engine", [str(ROOT)]), (f"old {args.old}", old.__name__, [old_dir])]
    work = Path(tempfile.mkdtemp(prefix="stichbuch-instructions-"))
    print(f"instructions per record (callgrind), python {sys.version.split()[0]}")
    print(f"{'suite':44} {'new':>12} {'old':>12} {'new/old':>8}")
    try:
        for game, seats, hands in SUITES:
            games = [random_game(10_000 + i, game, seats, hands=hands) for i in range(args.records)]
            prefixes = [
                {**g, "events": g["events"][:end]}
                for g in games[: args.games]
                for end in range(1, len(g["events"]) + 1)
            ]
            label = f"{game}, {'with' if hands else 'no'} hands"
            for what, records in (("replay", games), ("view", prefixes)):
                path = work / f"{game}-{hands}-{what}.json"
                path.write_text(json.dumps(records), encoding="utf-8")
                per = []
                for _name, package, paths in engines:
                    once = _count(package, what, path, 1, paths)
                    twice = _count(package, what, path, 2, paths)
                    per.append((twice - once) / len(records))
                suite = f"{what} {label}" + (" (every prefix)" if what == "view" else "")
                print(f"{suite:44} {per[0]:12,.0f} {per[1]:12,.0f} {per[0] / per[1]:8.3f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
