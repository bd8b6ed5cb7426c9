"""The engine's shared modules never ask which game they judge: a game differs only
through its ``Variant`` hooks.

Read from the source (``ast``): a shared module imports from a game's module nothing
but its ``Variant`` subclass (the registry in ``replay``, which only constructs it),
never names a game's state class, never tests a value against a game's class
(``isinstance``, ``issubclass``, ``type(...) is``) and never compares with a game's
name. ``engine.generate`` (the test and benchmark generator) plays each game its own
way and is not a shared module.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from types import ModuleType

import pytest

from engine.core import GameState, Variant
from engine.replay import VARIANTS
from engine.rules import GAMES

SHARED_MODULES = (
    "engine.cards",
    "engine.core",
    "engine.errors",
    "engine.history",
    "engine.legal",
    "engine.replay",
    "engine.result",
    "engine.tricks",
    "engine.view",
)
GAME_MODULES = tuple(sorted({type(v).__module__ for v in VARIANTS.values()}))


def _classes(module: ModuleType, base: type) -> set[str]:
    return {
        name
        for name, value in vars(module).items()
        if inspect.isclass(value)
        and issubclass(value, base)
        and value is not base
        and value.__module__ == module.__name__
    }


def _game_classes() -> tuple[set[str], set[str]]:
    """The games' state classes and their ``Variant`` subclasses, by name."""
    states: set[str] = set()
    variants: set[str] = set()
    for name in GAME_MODULES:
        module = importlib.import_module(name)
        states |= _classes(module, GameState)
        variants |= _classes(module, Variant)
    return states, variants


def game_questions(source: str, states: set[str], variants: set[str]) -> list[str]:
    """Where ``source`` asks which game it judges: one line per place, empty if never."""
    tree = ast.parse(source)
    found: list[str] = []
    classes = states | variants
    constructed: set[int] = set()  # the Name nodes of ``Fuchsen()`` (the registry)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in GAME_MODULES:
            for alias in node.names:
                if alias.name not in variants:
                    found.append(f"line {node.lineno}: imports {alias.name} from {node.module}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in GAME_MODULES:
                    found.append(f"line {node.lineno}: imports {alias.name}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in variants and not node.args and not node.keywords:
                constructed.add(id(node.func))
        elif isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                if isinstance(operand, ast.Constant) and operand.value in GAMES:
                    found.append(f"line {node.lineno}: compares with {operand.value!r}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in classes and id(node) not in constructed:
            found.append(f"line {node.lineno}: names {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr in classes:
            found.append(f"line {node.lineno}: names {node.attr}")
    return found


@pytest.mark.parametrize("module", SHARED_MODULES)
def test_a_shared_module_never_asks_which_game_it_judges(module: str) -> None:
    states, variants = _game_classes()
    path = Path(importlib.import_module(module).__file__ or "")
    assert game_questions(path.read_text(encoding="utf-8"), states, variants) == []


def test_the_games_have_state_classes_and_variants_to_look_for() -> None:
    states, variants = _game_classes()
    assert {"FuchsenState", "KoenigState"} <= states
    assert {"Fuchsen", "Koenigrufen"} <= variants


@pytest.mark.parametrize(
    "source",
    [
        "from engine.fuchsen import FuchsenState\n",
        "from engine.koenigrufen import WITH_CALLED\n",
        "import engine.fuchsen\n",
        "def f(state):\n    return isinstance(state, KoenigState)\n",
        "def f(state, fuchsen):\n    return isinstance(state, fuchsen.FuchsenState)\n",
        "def f(state):\n    return type(state.variant) is Fuchsen\n",
        "def f(state):\n    return state.variant.name == 'koenigrufen'\n",
        "def f(state: FuchsenState) -> None:\n    pass\n",
    ],
)
def test_each_way_of_asking_which_game_is_found(source: str) -> None:
    states, variants = _game_classes()
    assert game_questions(source, states, variants) != []


def test_the_registry_of_games_is_no_question() -> None:
    states, variants = _game_classes()
    source = (
        "from engine.fuchsen import Fuchsen\n"
        "from engine.koenigrufen import Koenigrufen\n"
        "VARIANTS = {'fuchsen': Fuchsen(), 'koenigrufen': Koenigrufen()}\n"
    )
    assert game_questions(source, states, variants) == []
