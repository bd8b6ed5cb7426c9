"""The apps' modules import each other in layers: no cycle, and nothing low imports the
pages or the APIs.

The graph is read from the source (``ast``), every import counted, also one inside
a function: a function-level import hides a cycle from Python, not from a reader.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("stichbuch", "clubs", "games", "ledger", "analysis", "live", "tournaments", "web")


# The layers below the views: they never import a module of the top layer.
LOW = ("models", "selectors", "services", "vocabulary", "presenters", "access", "checks")
TOP = ("pages", "tally_pages", "rule_profile_pages", "rules_pages", "apis", "views")


def app_modules() -> dict[str, Path]:
    modules = {}
    for app in APPS:
        if not (ROOT / app).is_dir():
            continue
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    return modules


def import_graph() -> dict[str, set[str]]:
    """``{module: the app modules it imports}``; ``from a import b`` counts ``a.b`` if
    that is a module, else ``a``."""
    modules = app_modules()

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [f"{node.module}.{alias.name}" for alias in node.names]
            for target in targets:
                found = resolve(target)
                if found is not None and found != name:
                    graph[name].add(found)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_the_imports_it_should() -> None:
    graph = import_graph()
    assert "games.selectors" in graph["games.services.append"]
    assert "games.vocabulary" in graph["games.engine_text"]  # a function-level import


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [{"a", "b", "c"}]


def test_the_live_app_is_in_the_graph() -> None:
    assert "games.listeners" in import_graph()["live.listeners"]


def is_the_celery_idiom(component: set[str]) -> bool:
    """An app's service module enqueues its task, the task calls the service: the
    two modules of one app, nothing else (the ledger avoids even that: its task
    module imports the one service module it runs)."""
    names = sorted(component)
    return (
        len(names) == 2
        and names[0].endswith(".services")
        and names[1] == (names[0].removesuffix(".services") + ".tasks")
    )


def test_no_module_of_the_apps_is_in_an_import_cycle_but_the_celery_idiom() -> None:
    unexpected = [sorted(c) for c in cycles(import_graph()) if not is_the_celery_idiom(c)]
    assert unexpected == []


def _layer(name: str) -> str:
    """A module's layer by its name, or by its package's (``games.services.append``)."""
    parts = name.split(".")
    return next((part for part in parts[1:] if part in LOW or part in TOP), parts[-1])


def test_no_lower_layer_imports_a_page_or_an_api() -> None:
    wrong = sorted(
        (name, target)
        for name, targets in import_graph().items()
        if _layer(name) in LOW
        for target in targets
        if _layer(target) in TOP
    )
    assert wrong == []
