"""The apps depend one way: each imports only the apps below it (``bench/app_graph.py``'s
``LAYERS``, drawn in ``docs/DESIGN.md``), and the graph of the apps has no cycle."""

from __future__ import annotations

from bench.app_graph import LAYERS, app_dirs, app_graph, wrong_edges


def test_the_graph_sees_an_import_inside_a_function() -> None:
    # games.engine_text imports games.vocabulary inside a function; ledger imports games.
    assert "games" in app_graph()["ledger"]


def test_a_wrong_edge_is_named_with_the_import_that_makes_it() -> None:
    assert wrong_edges({"clubs": {"games": "clubs/x.py:3"}}) == ["clubs -> games (clubs/x.py:3)"]


def test_every_app_has_its_place_in_the_layers() -> None:
    assert [app for app in app_dirs() if app not in LAYERS] == []


def test_every_app_imports_only_the_apps_below_it() -> None:
    assert wrong_edges(app_graph()) == []


def test_the_layers_themselves_have_no_cycle() -> None:
    def below(app: str, seen: frozenset[str] = frozenset()) -> set[str]:
        assert app not in seen, f"the layers loop through {app}"
        return set().union(*(below(other, seen | {app}) | {other} for other in LAYERS[app]))

    for app in LAYERS:
        assert app not in below(app)


def test_the_configuration_package_imports_no_app() -> None:
    assert app_graph()["stichbuch"] == {}
