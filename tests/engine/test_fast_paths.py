"""The engine's hand-written shortcuts keep the contracts of what they replace."""

from __future__ import annotations

import dataclasses
import inspect

from engine.result import EngineError, Result


def test_the_result_init_takes_the_fields_in_order_with_their_defaults() -> None:
    # Result writes its __init__ out (one __dict__ instead of 16 setattr calls): its
    # parameters must stay the dataclass fields, so replace() and callers keep working.
    params = list(inspect.signature(Result.__init__).parameters.values())[1:]
    fields = dataclasses.fields(Result)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        expected = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        assert p.default == expected, f.name
    result = Result(status="invalid", game="fuchsen", error=EngineError(3, "x", "y"))
    assert dataclasses.replace(result, game=None) == Result("invalid", error=result.error)
    assert result == Result("invalid", "fuchsen", error=EngineError(3, "x", "y"))
    try:
        result.status = "finished"  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:  # pragma: no cover
        raise AssertionError("Result must stay frozen")
