"""The apps' import graph, read from the source, and the largest modules.

Run: ``.venv/bin/python bench/app_graph.py [--top 12]``

Prints which app imports which (with one import that shows each edge), whether that
edge is one the layers allow (``LAYERS``, as ``docs/DESIGN.md`` draws them), and
the line counts of the largest modules outside the engine and the migrations.
``tests/test_app_graph.py`` holds the same graph to the layers.

Every import counts, also one inside a function: a function-level import hides a
dependency from Python's start-up, not from a reader.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What each app may import (besides Django and the libraries). Lowest first:
# engine (the rules, pure Python) and stichbuch (settings, URL root, shared base
# classes and helpers; imports no app) at the bottom; web (pages that show several
# apps at once) at the top. Upward calls go through games.listeners only.
_BASE = {"engine", "stichbuch"}
LAYERS: dict[str, set[str]] = {
    "engine": set(),
    "stichbuch": set(),
    "clubs": _BASE,
    "games": _BASE | {"clubs"},
    "ledger": _BASE | {"clubs", "games"},
    "analysis": _BASE | {"clubs", "games", "ledger"},
    "live": _BASE | {"clubs", "games", "ledger"},
    "tournaments": _BASE | {"clubs", "games", "ledger", "live"},
    "web": _BASE | {"clubs", "games", "ledger", "analysis", "live", "tournaments"},
}


def app_dirs() -> list[str]:
    """The apps present: the layers' packages, and any other folder with an ``apps.py``."""
    found = {name for name in LAYERS if (ROOT / name / "__init__.py").is_file()}
    found |= {path.parent.name for path in ROOT.glob("*/apps.py")}
    return sorted(found)


def modules() -> dict[str, Path]:
    """``{dotted module name: path}`` of every app module but the migrations."""
    found = {}
    for app in app_dirs():
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def import_graph() -> dict[str, dict[str, str]]:
    """``{module: {imported app module: "path:line"}}``; ``from a import b`` counts
    ``a.b`` if that is a module, else ``a``."""
    mods = modules()

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, dict[str, str]] = {name: {} for name in mods}
    for name, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                found = resolve(target)
                if found is not None and found != name:
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    graph[name].setdefault(found, where)
    return graph


def app_graph() -> dict[str, dict[str, str]]:
    """``{app: {imported app: "path:line" of one import that shows it}}``."""
    apps: dict[str, dict[str, str]] = {app: {} for app in app_dirs()}
    for module, targets in import_graph().items():
        app = module.partition(".")[0]
        for target, where in sorted(targets.items()):
            other = target.partition(".")[0]
            if other != app:
                apps[app].setdefault(other, where)
    return apps


def wrong_edges(graph: dict[str, dict[str, str]]) -> list[str]:
    """The edges the layers do not allow, each as "app -> app (path:line)"."""
    return [
        f"{app} -> {other} ({where})"
        for app, targets in sorted(graph.items())
        for other, where in sorted(targets.items())
        if other not in LAYERS.get(app, set())
    ]


def largest_modules(top: int) -> list[tuple[int, str]]:
    """The ``top`` longest modules outside the engine: (lines, path)."""
    sizes = [
        (len(path.read_text(encoding="utf-8").splitlines()), str(path.relative_to(ROOT)))
        for name, path in modules().items()
        if not name.startswith("engine")
    ]
    return sorted(sizes, reverse=True)[:top]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=12, help="how many of the largest modules")
    args = parser.parse_args()
    graph = app_graph()
    print("The apps' imports (app -> the apps it imports):")
    for app, targets in sorted(graph.items(), key=lambda item: len(item[1])):
        print(f"  {app:12} -> {', '.join(sorted(targets)) or '(none)'}")
    wrong = wrong_edges(graph)
    print("Against the layers:", "every edge allowed" if not wrong else "")
    for edge in wrong:
        print(f"  not allowed: {edge}")
    print(f"The {args.top} largest modules (lines):")
    for lines, path in largest_modules(args.top):
        print(f"  {lines:5}  {path}")


if __name__ == "__main__":
    main()
