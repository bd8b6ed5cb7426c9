"""What a finished game says for the players' statistics beyond its result JSON.

``game_facts(record)`` gives, for a finished game, the facts the statistics count
and the spec's result does not carry, each decided by the one rule book:

- **Stilles Spiel** (``silent``): ``Result.silent``, set where the game is decided
  by play (``Fuchsen._played_out``: the opponents won no trick; a tally of a game
  played out: its ``silent`` field, which also decides the payouts, so a tally that
  does not say ``silent: true`` was paid, and is counted, as no Stilles Spiel).
  ``None`` where it cannot apply: an early end, a forgotten Fuchs, a forfeit,
  Königrufen.
- **Forgotten Fuchs** (``fuchs_forgotten_by``): the Hilfer, in a game decided as
  ``fuchs_forgotten`` (fuchsen.md rule 6: he held ``GO`` and did not say it).
- **Raises per chance** (``raises``): per active player, the chances he had to say
  a raise and the raises he said (Fahren, first trick).

A chance, as a player at the table counts it: a level he could have said. At every
moment of the record (the state after each effective event, the same fold
``replay`` runs) each active player is asked whether the rules let him say the next
level now — by the game's ``may_raise``, the rule every raise goes through
(``Fuchsen._raise_refusal``: his side, his own card played, the window not lapsed, the
raising not over), exactly what the table view offers. Each level a player could so
say is one chance, however many moments it stayed open; a chance he said is a raise
said. A level his partner said while his own chance to say it was open was not his
to pass up: it counts as a chance for neither him nor against him. A chance he let
lapse (the next card, the end of the raising) counts, whoever said that level later.
So the raises said are at most the chances, and equal to the effective ``raise``
events of each player.

The raises are not known (``None``) where the raising was not recorded: a pure
tally (the level comes from the tally, no card of the first trick was recorded),
Königrufen (no raising), or a game whose Hilfer the record never names (his side,
and so whose chance a level was, is unknown). Cost: one more fold of the record and,
during the first trick only, one raise check per active player and event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event, GameState, NeedPartner
from engine.replay import VARIANTS, RecordError, fold, prepare, replay
from engine.rules import FUCHSEN_LEVELS

__all__ = ["GameFacts", "Raises", "game_facts"]


@dataclass(frozen=True)
class Raises:
    """One player's Fahren in one game: the chances he had, the raises he said."""

    chances: int
    said: int


@dataclass(frozen=True)
class GameFacts:
    """The statistics' facts of one finished game (see the module docstring).

    ``raises`` names every active player, or is ``None`` where the raising is not
    known. ``to_dict()`` is JSON: ``raises`` as ``{player: [chances, said]}``.
    """

    silent: bool | None = None
    fuchs_forgotten_by: str | None = None
    raises: Mapping[str, Raises] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "silent": self.silent,
            "fuchs_forgotten_by": self.fuchs_forgotten_by,
            "raises": None
            if self.raises is None
            else {p: [r.chances, r.said] for p, r in self.raises.items()},
        }


@dataclass
class _Chances:
    """The fold's visitor: the levels open to each player, moment by moment."""

    open_level: int = 0
    open_to: frozenset[str] = frozenset()
    chances: set[tuple[str, int]] = field(default_factory=set)
    taken: set[tuple[str, int]] = field(default_factory=set)
    said: dict[str, int] = field(default_factory=dict)

    def visit(self, state: GameState, event: Event, index: int) -> None:
        if event.get("type") == "raise":
            player = event["player"]
            level = FUCHSEN_LEVELS.index(event["level"]) + 1
            self.said[player] = self.said.get(player, 0) + 1
            if level == self.open_level:
                self.taken.update((p, level) for p in self.open_to if p != player)
        self.look(state, index + 1)

    def look(self, state: GameState, index: int) -> None:
        """Note who may say the next level after ``state`` (as event ``index``)."""
        self.open_to = frozenset()
        # No raise before the call, after the raising or the decision, or past ``end``
        # (``apply`` would refuse each; the game's hook spares trying them).
        level = state.variant.raise_open(state)
        if level is None:
            return
        table = state.table
        assert table is not None
        self.open_level = FUCHSEN_LEVELS.index(level) + 1
        variant = state.variant
        self.open_to = frozenset(
            name for p, name in enumerate(table.active) if variant.may_raise(state, p)
        )
        self.chances.update((name, self.open_level) for name in self.open_to)

    def counts(self, active: tuple[str, ...]) -> dict[str, Raises]:
        counted = self.chances - self.taken
        per: dict[str, int] = {}
        for name, _level in counted:
            per[name] = per.get(name, 0) + 1
        return {name: Raises(per.get(name, 0), self.said.get(name, 0)) for name in active}


def game_facts(record: object) -> GameFacts | None:
    """The facts of ``record`` if it is a finished game, else ``None``. Never raises
    for a record ``replay`` reads as finished."""
    result = replay(record)
    if result.status != "finished":
        return None
    forgot = None
    if result.reason == "fuchs_forgotten" and result.declarers and len(result.declarers) > 1:
        forgot = result.declarers[1]
    variant = VARIANTS.get(result.game or "")
    raises = None
    if variant is not None and variant.has_raising:
        raises = _raises(record, result.declarers or ())
    return GameFacts(silent=result.silent, fuchs_forgotten_by=forgot, raises=raises)


def _raises(record: object, declarers: tuple[str, ...]) -> dict[str, Raises] | None:
    """Each active player's chances and raises, walking the record's effective events
    with the partner the result names; ``None`` where they are not known."""
    try:
        variant, rules, events, undo_error = prepare(record)
    except RecordError:  # pragma: no cover - a finished record has a frame
        return None
    chances = _Chances()
    try:
        state, error = fold(variant, rules, events, undo_error, visit=chances.visit)
    except NeedPartner as need:
        # The record does not place the called card: go on as the candidate the
        # result names as Hilfer (``replay`` found him the one that keeps it valid).
        before = need.state
        if len(declarers) < 2 or before is None or before.table is None:
            return None
        q = before.table.index.get(declarers[1], -1)
        if q not in need.candidates:
            return None
        start = variant.assume_partner(need, q)
        if start is None:
            chances = _Chances()
        else:
            chances.look(start[0], events[start[1]][0] if start[1] < len(events) else 0)
        state, error = fold(
            variant,
            rules,
            events,
            undo_error,
            (q, need.called),
            start=start,
            dealt=need.dealt,
            visit=chances.visit,
        )
    if error is not None or state.table is None or not variant.raising_recorded(state):
        return None
    return chances.counts(state.table.active)
