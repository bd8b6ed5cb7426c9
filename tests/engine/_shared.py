"""The reference records for the engine's tests: the repository's own copy in
``tests/reference`` (this module names them as the engine's tests have always
imported them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from engine.core import GameState
from engine.koenigrufen import CONTRACTS
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
    "generated_games",
    "load",
    "seeds",
    "state_fields",
    "without_message",
]


def state_fields(state: GameState) -> dict[str, Any]:
    """The fields of ``state`` as values to compare: its board as every slot's value but
    the hands, which only the fold's board phase sets (``GameState.board``)."""
    fields = dict(state.__dict__)
    board = fields.get("board")
    if board is not None:
        fields["board"] = {
            name: getattr(board, name)
            for cls in type(board).__mro__
            for name in getattr(cls, "__slots__", ())
            if name != "hands"
        }
    return fields


# The generator's games (``engine.generate.random_game``) of the property tests: a seed,
# and the game, its seats and the contract asked for (None: any).
seeds = st.integers(min_value=0, max_value=2**32)
generated_games = st.one_of(
    st.tuples(
        st.just("fuchsen"), st.sampled_from([4, 5, 6]), st.sampled_from(["partner", "alone", None])
    ),
    st.tuples(st.just("koenigrufen"), st.just(4), st.sampled_from([*CONTRACTS, "schurln", None])),
)
