"""``Result`` and ``Decision`` are frozen values whose written-out constructors take the
dataclass fields in order."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest

from engine.core import Decision
from engine.result import EngineError, Result


@pytest.mark.parametrize("cls", [Result, Decision])
def test_a_written_out_init_takes_the_fields_in_order_with_their_defaults(cls: type) -> None:
    # Result and Decision write their __init__ out (one __dict__ instead of a setattr
    # per field): the parameters must stay the dataclass fields, so that replace() and
    # callers keep working.
    params = list(inspect.signature(cls).parameters.values())
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        expected = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        assert p.default == expected, f.name


def test_result_finished_is_the_plain_finished_result() -> None:
    fields: dict[str, Any] = {
        "game": "fuchsen",
        "contract": "partner",
        "declarers": ("anna", "bert"),
        "won": False,
        "value": 20,
        "reason": "played_out",
        "tricks": 6,
        "payouts": {"anna": -20, "bert": -20, "carl": 20, "dora": 20},
    }
    extra: dict[str, Any] = {"level": "re", "has_level": True, "augen": (40, 81)}
    for more in ({}, extra):
        made = Result.finished(**fields, **more)
        assert made == Result(status="finished", has_won=True, **fields, **more)
        assert made.__dict__ == Result(status="finished", has_won=True, **fields, **more).__dict__


def test_result_stays_a_frozen_value() -> None:
    result = Result(status="invalid", game="fuchsen", error=EngineError(3, "x", "y"))
    assert dataclasses.replace(result, game=None) == Result("invalid", error=result.error)
    assert result == Result("invalid", "fuchsen", error=EngineError(3, "x", "y"))
    try:
        result.status = "finished"  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:  # pragma: no cover
        raise AssertionError("Result must stay frozen")
