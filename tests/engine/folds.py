"""The fold with runs against the plain event-by-event fold: what the fast-path tests compare."""

from __future__ import annotations

from typing import Any

from engine.core import NeedPartner
from engine.replay import RecordError, fold, prepare


def state_fields(state: Any) -> dict[str, Any]:
    """A state's fields, its variant left out (variants compare by identity)."""
    return {k: v for k, v in state.__dict__.items() if k != "variant"}


def fold_both(record: Any, assumed: tuple[int, int] | None = None) -> tuple[Any, Any] | None:
    """The fold with runs and the plain fold, each as the state's fields and the error,
    or as the ``NeedPartner`` it raised (candidates, position, the state after the call);
    None for a record ``prepare`` refuses. ``assumed``: the partner taken as known."""
    try:
        variant, rules, events, undo_error = prepare(record)
    except RecordError:
        return None
    out: list[Any] = []
    for runs in (True, False):
        try:
            state, error = fold(variant, rules, events, undo_error, assumed, runs=runs)
        except NeedPartner as need:
            out.append(("partner", need.candidates, need.position, need.after))
            continue
        out.append((state_fields(state), error))
    return out[0], out[1]


def partner_needed(record: Any) -> tuple[Any, Any, list[Any], int, NeedPartner] | None:
    """The record prepared (variant, rules, events, undo_error) and the ``NeedPartner``
    its fold raises; None when ``prepare`` refuses it or the fold needs no partner."""
    try:
        variant, rules, events, undo_error = prepare(record)
    except RecordError:
        return None
    try:
        fold(variant, rules, events, undo_error)
    except NeedPartner as need:
        return variant, rules, events, undo_error, need
    return None


def fold_watching_runs(
    variant: Any, rules: Any, events: list[Any], undo_error: int
) -> tuple[Any, Any, list[tuple[int, int]]]:
    """``fold`` with runs, and the ``(start, end)`` positions of each run it took
    (``Variant.play_run`` is watched for the fold only; what the fold raises passes)."""
    calls: list[tuple[int, int]] = []
    original = variant.play_run

    def watch(state: Any, events: Any, k: int, stop: int) -> Any:
        new, after = original(state, events, k, stop)
        calls.append((k, after))
        return new, after

    variant.play_run = watch
    try:
        state, error = fold(variant, rules, events, undo_error)
    finally:
        del variant.play_run
    return state, error, calls
