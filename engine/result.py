"""The result of a replay: the spec's result JSON as a frozen value."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import ERROR_CODES, Code, Msg, render

__all__ = ["ERROR_CODES", "EngineError", "Result"]


@dataclass(frozen=True)
class EngineError:
    """The first illegal event of a record: its position in ``events`` (-1 for the
    record itself), its ``Code``, the message's template (``Msg``) and parameters.

    ``message`` is the English sentence rendered from them; ``field`` the event's field
    at fault, where the rule names one. ``to_dict()`` is the spec's error object;
    ``to_dict(detail=True)`` adds ``template`` and ``params`` (JSON values), from
    which ``games/engine_text.py`` words the sentence in the reader's language."""

    index: int
    code: Code | str  # a ``Code``; a caller outside the engine may use its own string
    msg: Msg | str  # a template (``str.format``), a ``Msg`` for the engine's own errors
    params: Mapping[str, Any] = field(default_factory=dict)
    field: str | None = None

    # Written out, as ``Result.__init__``: one ``__dict__`` instead of a frozen
    # dataclass's setattr per field (the table view builds one per card it refuses).
    # The parameters are the fields, in order; no ``params`` is an empty dict.
    def __init__(
        self,
        index: int,
        code: Code | str,
        msg: Msg | str,
        params: Mapping[str, Any] | None = None,
        field: str | None = None,
    ) -> None:
        _set_attr(
            self,
            "__dict__",
            {
                "index": index,
                "code": code,
                "msg": msg,
                "params": {} if params is None else params,
                "field": field,
            },
        )

    @property
    def message(self) -> str:
        return render(self.msg, self.params)

    def to_dict(self, *, detail: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": self.index,
            "code": str(self.code),
            "message": render(self.msg, self.params),
        }
        if self.field is not None:
            out["field"] = self.field
        if detail:
            out["template"] = str(self.msg)
            out["params"] = dict(self.params)
        return out

    def refusal_dict(self) -> dict[str, Any]:
        """``to_dict(detail=True)`` without the index: a refused move in the table
        view's JSON (every other card the view refuses has one)."""
        # ``render``, written out, and one dict literal: the view words every card it
        # refuses.
        params = self.params
        if self.field is None:
            return {
                "code": str(self.code),
                "message": str.format(self.msg, **params),
                "template": str(self.msg),
                "params": dict(params),
            }
        return {
            "code": str(self.code),
            "message": str.format(self.msg, **params),
            "field": self.field,
            "template": str(self.msg),
            "params": dict(params),
        }


_set_attr = object.__setattr__


@dataclass(frozen=True)
class Result:
    """What a record amounts to.

    ``status`` is ``"finished"``, ``"in_progress"``, ``"annulled"`` or ``"invalid"``.
    Fields that do not apply are ``None``; ``has_level``/``has_won`` say whether
    ``level``/``won`` apply, so that a ``null`` level or schurln's ``won: null`` is
    kept apart from "not applicable".
    """

    status: str
    game: str | None = None
    contract: str | None = None
    declarers: tuple[str, ...] | None = None
    level: str | None = None
    has_level: bool = False
    won: bool | None = None
    has_won: bool = False
    value: int | None = None
    augen: tuple[int, int] | None = None
    reason: str | None = None
    tricks: int | None = None
    payouts: dict[str, int] | None = None
    awaiting: str | None = None
    to_act: str | None = None
    error: EngineError | None = None
    # Fuchsen, a game decided by play (played out, or a tally of a game played out):
    # did the opponents take no trick (Stilles Spiel)? ``None`` where it cannot apply
    # (an early end, a forgotten Fuchs, a forfeit, Königrufen, a game not decided).
    # Not in the spec's result JSON: ``to_dict()`` leaves it out (the statistics read it).
    silent: bool | None = None

    # Written out rather than generated: a frozen dataclass's __init__ sets its 17
    # fields one by one through object.__setattr__, and every replay builds a Result
    # (several when candidate partners are tried). One ``__dict__`` is half the cost.
    # The parameters are the fields, in order, with the same defaults.
    def __init__(
        self,
        status: str,
        game: str | None = None,
        contract: str | None = None,
        declarers: tuple[str, ...] | None = None,
        level: str | None = None,
        has_level: bool = False,
        won: bool | None = None,
        has_won: bool = False,
        value: int | None = None,
        augen: tuple[int, int] | None = None,
        reason: str | None = None,
        tricks: int | None = None,
        payouts: dict[str, int] | None = None,
        awaiting: str | None = None,
        to_act: str | None = None,
        error: EngineError | None = None,
        silent: bool | None = None,
    ) -> None:
        _set_attr(
            self,
            "__dict__",
            {
                "status": status,
                "game": game,
                "contract": contract,
                "declarers": declarers,
                "level": level,
                "has_level": has_level,
                "won": won,
                "has_won": has_won,
                "value": value,
                "augen": augen,
                "reason": reason,
                "tricks": tricks,
                "payouts": payouts,
                "awaiting": awaiting,
                "to_act": to_act,
                "error": error,
                "silent": silent,
            },
        )

    @classmethod
    def finished(
        cls,
        game: str,
        contract: str | None,
        declarers: tuple[str, ...],
        won: bool | None,
        value: int,
        reason: str,
        tricks: int,
        payouts: dict[str, int],
        level: str | None = None,
        has_level: bool = False,
        augen: tuple[int, int] | None = None,
        silent: bool | None = None,
    ) -> Result:
        """``Result(status="finished", has_won=True, ...)`` with these fields: the
        result of most replays, built without matching 13 keywords against 16
        parameters (and passed by position where the caller is hot)."""
        result = object.__new__(cls)
        _set_attr(
            result,
            "__dict__",
            {
                "status": "finished",
                "game": game,
                "contract": contract,
                "declarers": declarers,
                "level": level,
                "has_level": has_level,
                "won": won,
                "has_won": True,
                "value": value,
                "augen": augen,
                "reason": reason,
                "tricks": tricks,
                "payouts": payouts,
                "awaiting": None,
                "to_act": None,
                "error": None,
                "silent": silent,
            },
        )
        return result

    def to_dict(self, *, detail: bool = False) -> dict[str, Any]:
        """The spec's result JSON: keys that do not apply are absent. ``detail``: the
        error with its template and parameters (``EngineError.to_dict``)."""
        out: dict[str, Any] = {"status": self.status}
        if self.game is not None:
            out["game"] = self.game
        if self.status == "invalid":
            if self.error is not None:
                out["error"] = self.error.to_dict(detail=detail)
            return out
        if self.status == "annulled":
            return out
        if self.contract is not None:
            out["contract"] = self.contract
        if self.declarers is not None:
            out["declarers"] = list(self.declarers)
        if self.has_level:
            out["level"] = self.level
        if self.has_won:
            out["won"] = self.won
        if self.value is not None:
            out["value"] = self.value
        if self.augen is not None:
            out["augen"] = {"declarers": self.augen[0], "opponents": self.augen[1]}
        if self.reason is not None:
            out["reason"] = self.reason
        if self.tricks is not None:
            out["tricks"] = self.tricks
        if self.payouts is not None:
            out["payouts"] = dict(self.payouts)
        if self.awaiting is not None:
            out["awaiting"] = self.awaiting
        if self.to_act is not None:
            out["to_act"] = self.to_act
        return out
