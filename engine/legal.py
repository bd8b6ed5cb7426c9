"""What the table view offers next: the legal events (``Legal``) and the Macher's call
options (``CallOptions``).

Its own module, below the games: the variants' view hooks (``Variant.offers``) build
these values, and ``engine.view`` (which imports the games through ``replay``) gathers
them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.result import EngineError

__all__ = ["CallOptions", "Legal"]


@dataclass(frozen=True, slots=True)
class CallOptions:
    """What the Macher may call before the first card, as far as the record knows.

    ``cards``: cards he may call without turning; ``alone``: may he play alone;
    ``turn``: the cards he may turn (codes), or ``("?",)`` when his hand is unknown;
    ``cards_turning``: the cards he may call while turning a card (a call with
    ``"turned": true``; naming the turned card may refuse one more, the card itself).
    """

    cards: tuple[str, ...] = ()
    alone: bool = False
    turn: tuple[str, ...] = ()
    cards_turning: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "cards": list(self.cards),
            "alone": self.alone,
            "turn": list(self.turn),
            "cards_turning": list(self.cards_turning),
        }


@dataclass(frozen=True, slots=True)
class Legal:
    """The events that would be accepted next (appended to the record)."""

    cards: tuple[str, ...] = ()
    raises: tuple[tuple[str, str], ...] = ()
    can_end_raising: bool = False
    bids: tuple[str, ...] = ()
    can_pass: bool = False
    can_join: bool = False
    calls: CallOptions | None = None
    # Why each card of the player to act that is not legal is refused: card code ->
    # the error ``replay`` would give that play.
    refused: Mapping[str, EngineError] = field(default_factory=dict)
    # The Macher's cards he may play face down as his turned card (the blank), while
    # the record has not played it yet; ``refused_face_down`` says why the others not.
    face_down: tuple[str, ...] = ()
    refused_face_down: Mapping[str, EngineError] = field(default_factory=dict)
    # While the result waits for the partner: the players who may hold the called card
    # (a ``show`` of it by any of them keeps the record valid).
    partners: tuple[str, ...] = ()
    # Fuchsen: a play with ``"fuchs": true`` by the player to act is accepted for some
    # card (he may announce the Fuchs with this card).
    fuchs: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "cards": list(self.cards),
            "raises": [list(r) for r in self.raises],
            "can_end_raising": self.can_end_raising,
            "bids": list(self.bids),
            "can_pass": self.can_pass,
            "can_join": self.can_join,
            "calls": self.calls.to_dict() if self.calls is not None else None,
            "refused": {c: r.refusal_dict() for c, r in self.refused.items()},
            "face_down": list(self.face_down),
            "partners": list(self.partners),
            "fuchs": self.fuchs,
            "refused_face_down": {c: r.refusal_dict() for c, r in self.refused_face_down.items()},
        }
