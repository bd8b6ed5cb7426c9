"""The tournaments app sits above games, ledger and live: none of them (nor clubs, nor
the engine) imports it, so a tournament table's recording is the games app's alone."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BELOW = ("engine", "clubs", "games", "ledger", "live")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_no_module_below_imports_the_tournaments_app() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for app in BELOW
        for path in (ROOT / app).rglob("*.py")
        if any(name.split(".")[0] == "tournaments" for name in _imports(path))
    ]
    assert offenders == []
    # And the check reads real imports: the tournaments app itself imports games.
    assert any(
        name.startswith("games")
        for name in _imports(ROOT / "tournaments" / "services" / "draws.py")
    )
