"""The table after a record: what the service and the web pages show, and what is legal.

``table_view(record)`` never raises. Legal moves are found by asking the engine
itself: each possible next event is tried with ``apply`` on the current state (with
the knowledge that event would add), so the view can never disagree with ``replay``.
The view may do this extra work; ``replay`` does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.cards import CODES, INDEX, bits
from engine.core import (
    Event,
    GameState,
    Illegal,
    Knowledge,
    NeedPartner,
    Variant,
    evolve,
    place,
)
from engine.fuchsen import FuchsenState, augen_of
from engine.koenigrufen import CONTRACTS, WITH_CALLED, KoenigState, aces_and_tens
from engine.replay import RecordError, apply, fold, prepare, replay
from engine.result import EngineError, Result
from engine.rules import FUCHSEN_LEVELS

__all__ = ["CallOptions", "Legal", "TableView", "TrickView", "legal_moves", "table_view"]


@dataclass(frozen=True, slots=True)
class CallOptions:
    """What the Macher may call before the first card, as far as the record knows.

    ``cards``: cards he may call without turning; ``alone``: may he play alone;
    ``turn``: the cards he may turn (codes), or ``("?",)`` when his hand is unknown.
    """

    cards: tuple[str, ...] = ()
    alone: bool = False
    turn: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "alone": self.alone, "turn": list(self.turn)}


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

    def to_dict(self) -> dict[str, Any]:
        return {
            "cards": list(self.cards),
            "raises": [list(r) for r in self.raises],
            "can_end_raising": self.can_end_raising,
            "bids": list(self.bids),
            "can_pass": self.can_pass,
            "can_join": self.can_join,
            "calls": self.calls.to_dict() if self.calls is not None else None,
            "refused": {c: _refusal_dict(r) for c, r in self.refused.items()},
            "face_down": list(self.face_down),
            "partners": list(self.partners),
            "refused_face_down": {c: _refusal_dict(r) for c, r in self.refused_face_down.items()},
        }


def _refusal_dict(error: EngineError) -> dict[str, Any]:
    """A refusal in the view's JSON: code, English message, template and parameters."""
    out = error.to_dict(detail=True)
    del out["index"]
    return out


@dataclass(frozen=True, slots=True)
class TrickView:
    """A completed trick: who led, the cards in play order, who won it."""

    leader: str
    cards: tuple[tuple[str, str], ...]
    winner: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "cards": [list(c) for c in self.cards],
            "winner": self.winner,
        }


@dataclass(frozen=True, slots=True)
class TableView:
    """The table after the whole record (its effective events after ``undo``)."""

    game: str | None
    status: str
    result: Result
    awaiting: str | None = None
    to_act: str | None = None
    players: tuple[str, ...] = ()
    active: tuple[str, ...] = ()
    dealer: str | None = None
    sitting_out: str | None = None
    contract: str | None = None
    declarers: tuple[str, ...] = ()
    level: str | None = None
    macher: str | None = None
    declarer: str | None = None
    trick: tuple[tuple[str, str], ...] = ()
    tricks: tuple[TrickView, ...] = ()
    augen: Mapping[str, int] | None = None
    # Schurln played out: each player's count of aces and tens, which decided it.
    aces_tens: Mapping[str, int] | None = None
    legal: Legal = field(default_factory=Legal)
    events_effective: int = 0
    # The positions in ``events`` of the effective events (after ``undo``), in order.
    effective: tuple[int, ...] = ()
    # Who is winning the trick on the table so far (the engine's ``trick_winner``), or
    # None with no card down.
    trick_winner: str | None = None
    # What a ``tally`` appended now may say (``tally_options``), or None when none may.
    tally: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "game": self.game,
            "status": self.status,
            "result": self.result.to_dict(detail=True),
            "awaiting": self.awaiting,
            "to_act": self.to_act,
            "players": list(self.players),
            "active": list(self.active),
            "dealer": self.dealer,
            "sitting_out": self.sitting_out,
            "contract": self.contract,
            "declarers": list(self.declarers),
            "level": self.level,
            "macher": self.macher,
            "declarer": self.declarer,
            "trick": [list(c) for c in self.trick],
            "tricks": [t.to_dict() for t in self.tricks],
            "augen": dict(self.augen) if self.augen is not None else None,
            "aces_tens": dict(self.aces_tens) if self.aces_tens is not None else None,
            "legal": self.legal.to_dict(),
            "events_effective": self.events_effective,
            "effective": list(self.effective),
            "trick_winner": self.trick_winner,
            "tally": _plain(self.tally),
        }


def _plain(value: Any) -> Any:
    """``value`` as fresh JSON-ready lists and dicts (a caller may change them)."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


# ----------------------------------------------------------------------------- legal


def _with_event_knowledge(state: GameState, event: Event, index: int) -> GameState:
    """``state`` with the cards ``event`` would place added to its knowledge."""
    know = state.know
    table = state.table
    typ = event.get("type")
    if know is None or table is None:
        return state
    if typ != "tally" and (type(typ) is not str or typ not in state.variant.placing_types):
        return state  # no card to place (a blank is named by a call or play, both placing)
    try:
        if typ == "tally":
            pairs = _tally_placements(state, event)
        else:
            pairs = state.variant.placements(event, table)
    except (KeyError, TypeError):
        return state
    owner = list(know.owner)
    known = list(know.known)
    placed = list(know.placed_at)
    changed = place(table, pairs, index, owner, known, placed)
    blank = know.blank
    if isinstance(state, FuchsenState) and blank < 0:
        turned = event.get("turned")
        if event.get("type") == "call" and isinstance(turned, str):
            blank = INDEX.get(turned, -1)
            changed = True
        elif event.get("type") == "play" and turned is True and state.turned:
            played = event.get("card")
            blank = INDEX.get(played, -1) if isinstance(played, str) else -1
            changed = True
    if not changed:
        return state
    return evolve(state, know=Knowledge(tuple(owner), tuple(known), tuple(placed), blank))


def _tally_placements(state: GameState, event: Event) -> list[tuple[str, str]]:
    """The called card a tally's ``partner`` holds (``Variant.tally_placements``, read
    off the state instead of the events)."""
    partner = event.get("partner")
    if type(partner) is not str:
        return []
    if isinstance(state, FuchsenState) and not state.alone and state.called >= 0:
        return [(partner, CODES[state.called])]
    if isinstance(state, KoenigState) and state.contract in WITH_CALLED:
        return [(partner, CODES[state.high_called])]
    return []


def accepts(state: GameState, event: Event, index: int) -> bool:
    """Would ``event`` be accepted after ``state`` (at position ``index``)?"""
    return refusal(state, event, index) is None


def refusal(state: GameState, event: Event, index: int) -> EngineError | None:
    """Why ``event`` would be refused after ``state`` (the error ``replay`` would give
    it as event ``index``), or None if it would be accepted."""
    try:
        apply(_with_event_knowledge(state, event, index), event, index)
    except Illegal as e:
        return EngineError(index, e.code, e.msg, e.params, e.field)
    except NeedPartner:
        return None  # accepted for some candidate: the replay decides which
    return None


def _turned_by(state: GameState, p: int) -> bool:
    """Is ``p`` the Macher of a Fuchsen game with a turned card?"""
    return isinstance(state, FuchsenState) and state.turned and p == state.macher


def _unplaced(state: GameState) -> int:
    """The cards of the deck the record places in no hand and has not played."""
    know = state.know
    table = state.table
    assert know is not None and table is not None
    placed = 0
    for mask in know.known:
        placed |= mask
    return table.deck & ~placed & ~state.played


def _playable(state: GameState, p: int) -> list[int]:
    know = state.know
    table = state.table
    assert know is not None and table is not None
    mine = know.known[p] & ~state.played
    if know.full(p):
        return list(bits(mine))
    elsewhere = 0
    for q in range(table.n):
        if q != p:
            elsewhere |= know.known[q]
    return list(bits((table.deck & ~state.played & ~elsewhere) | mine))


def legal_moves(state: GameState, index: int) -> Legal:
    """The events acceptable after ``state`` as the record's event number ``index``."""
    table = state.table
    if table is None or state.decision is not None or state.annulled:
        return Legal()
    cards: list[str] = []
    raises: list[tuple[str, str]] = []
    can_end = False
    bids: list[str] = []
    can_pass = can_join = False
    calls: CallOptions | None = None
    refused: dict[str, EngineError] = {}
    face_down: list[str] = []
    refused_face_down: dict[str, EngineError] = {}
    if state.phase == "play" and state.to_act >= 0 and not _turned_by(state, state.to_act):
        # Each card of the deck not played yet, judged by the rule function every play
        # goes through (``Variant.check_card``): with the card placed in the player's
        # hand where the record has not placed it (as the play itself would place it).
        p = state.to_act
        know = state.know
        assert know is not None
        may_hold = 0 if know.full(p) else _unplaced(state)
        for c in bits(table.deck & ~state.played):
            judged = state
            if may_hold >> c & 1:
                judged = evolve(state, know=know.with_card(p, c))
            try:
                state.variant.check_card(judged, p, c)
            except Illegal as e:
                refused[CODES[c]] = EngineError(index, e.code, e.msg, e.params, e.field)
            else:
                cards.append(CODES[c])
    elif state.phase == "play" and state.to_act >= 0:
        # The Macher who turned a card: each card tried face up and face down with
        # ``apply``, as the blank's hindsight reaches into the knowledge.
        p = state.to_act
        name = table.active[p]
        playable = _playable(state, p)
        blank_open = (
            isinstance(state, FuchsenState)
            and state.turned
            and p == state.macher
            and not state.blank_played
        )
        for c in playable:
            event: dict[str, Any] = {"type": "play", "player": name, "card": CODES[c]}
            why = refusal(state, event, index)
            if why is None:
                cards.append(CODES[c])
            if isinstance(state, FuchsenState) and state.turned and p == state.macher:
                down = refusal(state, {**event, "turned": True}, index)
                if down is None:
                    if why is not None:
                        cards.append(CODES[c])
                        why = None
                    if blank_open:
                        face_down.append(CODES[c])
                elif blank_open:
                    refused_face_down[CODES[c]] = down
            if why is not None:
                refused[CODES[c]] = why
        # The cards the record puts in another hand (or that the player cannot hold):
        # the engine's own refusal too, so every greyed card has its reason.
        for c in bits(table.deck & ~state.played):
            if CODES[c] in refused or CODES[c] in cards or c in playable:
                continue
            why = refusal(state, {"type": "play", "player": name, "card": CODES[c]}, index)
            if why is not None:
                refused[CODES[c]] = why
    if isinstance(state, FuchsenState):
        if state.phase == "play" and not state.raising_ended and state.level < 8:
            level = FUCHSEN_LEVELS[state.level]
            for name in table.active:
                if accepts(state, {"type": "raise", "player": name, "level": level}, index):
                    raises.append((name, level))
        if state.phase == "play":
            can_end = accepts(state, {"type": "end_raising"}, index)
        if state.phase == "call":
            calls = _call_options(state, index)
    if isinstance(state, KoenigState) and state.phase == "auction":
        name = table.active[state.to_act]
        for contract in CONTRACTS:
            if _biddable(state, name, contract, index):
                bids.append(contract)
        can_pass = accepts(state, {"type": "pass", "player": name}, index)
        can_join = accepts(state, {"type": "join", "player": name}, index)
    return Legal(
        cards=tuple(cards),
        raises=tuple(raises),
        can_end_raising=can_end,
        bids=tuple(bids),
        can_pass=can_pass,
        can_join=can_join,
        calls=calls,
        refused=refused,
        face_down=tuple(face_down),
        refused_face_down=refused_face_down,
    )


def _biddable(state: KoenigState, name: str, contract: str, index: int) -> bool:
    event: dict[str, Any] = {"type": "bid", "player": name, "contract": contract}
    if contract not in WITH_CALLED:
        return accepts(state, event, index)
    table = state.table
    assert table is not None
    return any(accepts(state, {**event, "called": CODES[c]}, index) for c in bits(table.deck))


def _call_options(state: FuchsenState, index: int) -> CallOptions:
    table = state.table
    know = state.know
    assert table is not None and know is not None
    eo = INDEX["EO"]
    macher = know.owner[eo]
    if macher < 0:
        # Nobody is shown to hold EO yet: judge the call for a player who may hold it.
        possible = [q for q in range(table.n) if not know.full(q)]
        if not possible:
            return CallOptions()
        macher = possible[0]
    name = table.active[macher]
    cards = tuple(
        CODES[c]
        for c in bits(table.deck)
        if accepts(state, {"type": "call", "player": name, "card": CODES[c]}, index)
    )
    alone = accepts(state, {"type": "call", "player": name, "alone": True}, index)
    turn = _turn_options(state, index, name) if know.full(macher) else ("?",)
    return CallOptions(cards=cards, alone=alone, turn=turn)


def _turn_options(state: FuchsenState, index: int, name: str) -> tuple[str, ...]:
    """The cards of the Macher's whole (known) hand he may turn, alone or with a call.

    Naming the turned card only adds checks to the same call with an unknown turned
    card (``"turned": true``): checks of the card itself (may it be turned at all)
    and that it is not the called card. With the whole hand known, naming it adds no
    knowledge either. So a call naming ``c`` can be accepted only with a card that is
    callable when turning, and whether it is depends on ``c`` alone once that card is
    not ``c`` itself: the first such card decides. About 80 trial events instead of
    200 to 250 for a whole hand (``tests/engine/test_view_turn_options.py`` holds
    the answers to those of trying every pair).
    """
    table = state.table
    know = state.know
    assert table is not None and know is not None
    base: dict[str, Any] = {"type": "call", "player": name}
    callable_turning = [
        CODES[k]
        for k in bits(table.deck)
        if accepts(state, {**base, "card": CODES[k], "turned": True}, index)
    ]
    turn: list[str] = []
    for c in bits(know.known[table.index[name]]):
        code = CODES[c]
        deciding = next((k for k in callable_turning if k != code), None)
        if accepts(state, {**base, "alone": True, "turned": code}, index) or (
            deciding is not None
            and accepts(state, {**base, "card": deciding, "turned": code}, index)
        ):
            turn.append(code)
    return tuple(turn)


def tally_options(states: list[GameState], index: int) -> dict[str, Any] | None:
    """What a ``tally`` appended as event number ``index`` may say, for the record whose
    states (one, or one per candidate partner still possible) are ``states``; None
    when no tally may stand now. The keys are those of the tally contract: ``kind``
    (``"pure"``/``"late"``), ``fields`` (only those that may stand, each with
    ``required`` and its choices or range) and ``needs_outcome``. Every offer is
    tried with ``apply``, so the page never offers a tally the engine would refuse.
    """
    open_states = [
        s
        for s in states
        if s.table is not None and s.decision is None and not s.annulled and s.phase == "play"
    ]
    if not open_states:
        return None
    first = open_states[0]
    if isinstance(first, FuchsenState):
        return _fuchsen_tally([s for s in open_states if isinstance(s, FuchsenState)], index)
    if isinstance(first, KoenigState):
        return _koenig_tally([s for s in open_states if isinstance(s, KoenigState)], index)
    return None  # pragma: no cover - only two games


def _tried(states: list[Any], event: dict[str, Any], index: int) -> list[Any]:
    """The states among ``states`` that accept ``event``."""
    return [s for s in states if accepts(s, {"type": "tally", **event}, index)]


def _partner_choices(states: list[Any], index: int, probe: dict[str, Any]) -> list[str]:
    """The players a tally may name as the partner: each candidate's state tried with
    him named (``probe`` the rest of a tally that state accepts)."""
    names: list[str] = []
    for s in states:
        table = s.table
        for name in table.active:
            if name not in names and accepts(s, {"type": "tally", **probe, "partner": name}, index):
                names.append(name)
    return [n for n in states[0].table.active if n in names]


def _fuchsen_tally(states: list[FuchsenState], index: int) -> dict[str, Any] | None:
    first = states[0]
    if first.trick or (first.tricks and not first.raising_ended):
        return None
    pure = not first.tricks
    fields: dict[str, Any] = {}
    if pure:
        choices = []
        for k in range(len(FUCHSEN_LEVELS) + 1):
            level = FUCHSEN_LEVELS[k - 1] if k else None
            played_out = k >= 2
            probes = [{"level": level, "won": True}, {"level": level, "won": False}]
            if not any(_tried(states, probe, index) for probe in probes):
                continue
            choices.append(
                {"level": level, "played_out": played_out, "played_out_with_fuchs": k != 1}
            )
        if not choices:
            return None
        fields["level"] = {"required": False, "choices": choices}
        probe: dict[str, Any] = {"level": "re", "won": True}
    else:
        probes = [{"won": True}, {"won": False}]
        if not any(_tried(states, p, index) for p in probes):
            return None
        probe = next(p for p in probes if _tried(states, p, index))
    fields["won"] = {"required": False}
    low, high = 0, 121
    if not pure:
        ranges = [_augen_range(s) for s in states]
        low, high = min(r[0] for r in ranges), max(r[1] for r in ranges)
    fields["augen"] = {"required": False, "min": low, "max": high}
    if _tried(states, {**probe, "won": True, "silent": True}, index):
        fields["silent"] = {"required": False}
    if pure and not first.alone and not first.own_card:
        fields["fuchs"] = {"required": False}
    if not first.alone:
        partners = _partner_choices(states, index, probe)
        if partners:
            fields["partner"] = {"required": False, "choices": partners}
    return {"kind": "pure" if pure else "late", "fields": fields, "needs_outcome": not pure}


def _augen_range(state: FuchsenState) -> tuple[int, int]:
    """The Augen of the Macher's side the recorded tricks still allow."""
    side = state.won_cards[state.macher]
    if state.hilfer >= 0:
        side |= state.won_cards[state.hilfer]
    every = 0
    for cards in state.won_cards:
        every |= cards
    return augen_of(side), 121 - augen_of(every & ~side)


def _koenig_tally(states: list[KoenigState], index: int) -> dict[str, Any] | None:
    first = states[0]
    table = first.table
    assert table is not None
    if first.trick:
        return None
    kind = "late" if first.tricks else "pure"
    fields: dict[str, Any] = {}
    if first.contract == "schurln":
        if not _tried(states, {"losers": [table.active[0]]}, index):
            return None
        fields["losers"] = {"required": True, "choices": list(table.active), "min": 1, "max": 3}
        return {"kind": kind, "fields": fields, "needs_outcome": False}
    probes = [{"won": True}, {"won": False}]
    good = [p for p in probes if _tried(states, p, index)]
    if not good:
        return None
    fields["won"] = {"required": True}
    if first.contract in WITH_CALLED or first.contract == "durchmarsch_letzter":
        partners = _partner_choices(states, index, {"won": True})
        if partners:
            fields["partner"] = {"required": False, "choices": partners}
    return {"kind": kind, "fields": fields, "needs_outcome": True}


def _merge(a: Legal, b: Legal) -> Legal:
    def union(x: tuple[Any, ...], y: tuple[Any, ...]) -> tuple[Any, ...]:
        return x + tuple(v for v in y if v not in x)

    return Legal(
        cards=union(a.cards, b.cards),
        raises=union(a.raises, b.raises),
        can_end_raising=a.can_end_raising or b.can_end_raising,
        bids=union(a.bids, b.bids),
        can_pass=a.can_pass or b.can_pass,
        can_join=a.can_join or b.can_join,
        calls=a.calls or b.calls,
        # A card legal for some candidate partner is not refused.
        refused={
            c: r
            for c, r in {**b.refused, **a.refused}.items()
            if c not in a.cards and c not in b.cards
        },
        face_down=union(a.face_down, b.face_down),
        refused_face_down={
            c: r
            for c, r in {**b.refused_face_down, **a.refused_face_down}.items()
            if c not in a.face_down and c not in b.face_down
        },
    )


# ----------------------------------------------------------------------------- view


def table_view(record: object) -> TableView:
    """The table after ``record``: seats, the trick on the table, the tricks taken,
    whose turn it is and what is legal next. Never raises."""
    try:
        variant, rules, events, undo_error = prepare(record)
    except RecordError:
        result = replay(record)
        return TableView(game=result.game, status=result.status, result=result)
    next_index = len(record["events"]) if isinstance(record, dict) else 0
    states: list[GameState] = []
    partners: list[str] = []  # who may be the partner, while the result waits for him
    try:
        state, error = fold(variant, rules, events, undo_error)
        states.append(state)
        # Where the partner is not in question, ``replay`` would fold these same
        # (resolved) events and read its result off this state: one fold, not two
        # (the recording API builds a view on every append).
        result = _result_of(variant, state, error)
    except NeedPartner as need:
        result = replay(record)
        for q in need.candidates:
            state, error = fold(variant, rules, events, undo_error, assumed=(q, need.called))
            if error is None or result.status == "invalid":
                states.append(state)
        if result.awaiting == "partner" and isinstance(record, dict) and states:
            table = states[0].table
            assert table is not None
            for q in need.candidates:
                who = table.active[q]
                show = {"type": "show", "player": who, "cards": [CODES[need.called]]}
                if replay({**record, "events": [*record["events"], show]}).status != "invalid":
                    partners.append(who)
    if not states:  # pragma: no cover - replay found a survivor, so the view does too
        return TableView(game=result.game, status=result.status, result=result)
    state = states[0]
    legal = Legal()
    tally: dict[str, Any] | None = None
    if result.status != "invalid":
        for s in states:
            legal = _merge(legal, legal_moves(s, next_index))
        tally = tally_options(states, next_index)
        if partners:
            legal = replace(legal, partners=tuple(partners))
        if legal.face_down and isinstance(record, dict) and state.table is not None:
            legal = _face_down_in_hindsight(record, legal, state.table.active[state.to_act])
    effective = tuple([i for i, _ in events])
    return _describe(state, result, legal, effective, tally, partner_known=len(states) == 1)


def _face_down_in_hindsight(record: dict[str, Any], legal: Legal, name: str) -> Legal:
    """``legal`` with only the face-down plays the whole record accepts: a card played
    face down names the blank, and the call's turning rules judge it in hindsight (an
    error at the call, which ``apply`` on the current state cannot see)."""
    refused = dict(legal.refused_face_down)
    keep = _played_in_hindsight(record, name, legal.face_down, refused, turned=True)
    return replace(legal, face_down=tuple(keep), refused_face_down=refused)


def _played_in_hindsight(
    record: dict[str, Any],
    name: str,
    codes: tuple[str, ...],
    refused: dict[str, EngineError],
    **extra: Any,
) -> list[str]:
    """The cards of ``codes`` whose play by ``name`` (with the ``extra`` fields) the
    whole record appended with it accepts; each other's error goes into ``refused``."""
    keep: list[str] = []
    for code in codes:
        event = {"type": "play", "player": name, "card": code, **extra}
        result = replay({**record, "events": [*record["events"], event]})
        if result.status == "invalid" and result.error is not None:
            refused[code] = result.error
        else:
            keep.append(code)
    return keep


def _result_of(variant: Variant, state: GameState, error: EngineError | None) -> Result:
    """What ``replay`` returns for a record whose resolved events fold to ``state`` and
    ``error`` without needing the partner (``replay._replay_resolved``'s ending)."""
    if error is not None:
        return Result(status="invalid", game=variant.name, error=error)
    if state.table is None:
        return Result(status="in_progress", game=variant.name, awaiting="deal")
    return variant.result(state)


def _describe(
    state: GameState,
    result: Result,
    legal: Legal,
    effective: tuple[int, ...],
    tally: dict[str, Any] | None,
    *,
    partner_known: bool,
) -> TableView:
    """The view of ``state``; ``effective`` the positions of the effective events."""
    table = state.table
    base: dict[str, Any] = {
        "game": state.variant.name,
        "status": result.status,
        "result": result,
        "awaiting": result.awaiting,
        "to_act": result.to_act,
        "legal": legal,
        "events_effective": len(effective),
        "effective": effective,
    }
    if tally is not None:
        base["tally"] = tally
    if table is None:
        if result.status == "in_progress":
            base["awaiting"] = "deal"
        return TableView(**base)
    name = table.active
    base.update(
        players=table.players,
        active=table.active,
        dealer=table.dealer,
        sitting_out=table.sitting_out,
        trick=tuple((name[p], CODES[c]) for p, c in state.trick),
        trick_winner=name[state.variant.trick_winner(state, state.trick)] if state.trick else None,
        tricks=tuple(
            TrickView(name[leader], tuple((name[p], CODES[c]) for p, c in cards), name[winner])
            for leader, cards, winner in state.tricks
        ),
        contract=result.contract,
        declarers=result.declarers or (),
    )
    if isinstance(state, FuchsenState):
        base["level"] = FUCHSEN_LEVELS[state.level - 1] if state.level else None
        if state.macher >= 0:
            base["macher"] = name[state.macher]
            if partner_known or state.hilfer < 0:
                side = 1 << state.macher
                if state.hilfer >= 0:
                    side |= 1 << state.hilfer
                ours = sum(augen_of(w) for q, w in enumerate(state.won_cards) if side >> q & 1)
                theirs = sum(
                    augen_of(w) for q, w in enumerate(state.won_cards) if not side >> q & 1
                )
                base["augen"] = {"declarers": ours, "opponents": theirs}
        if state.phase == "call" and state.know is not None and result.status == "in_progress":
            holder = state.know.owner[INDEX["EO"]]
            base["to_act"] = name[holder] if holder >= 0 else None
    if isinstance(state, KoenigState) and state.declarer >= 0:
        base["declarer"] = name[state.declarer]
    if (
        isinstance(state, KoenigState)
        and state.contract == "schurln"
        and result.status == "finished"
        and result.reason == "played_out"
    ):
        base["aces_tens"] = dict(zip(name, aces_and_tens(state), strict=True))
    if result.status in ("finished", "annulled", "invalid"):
        base["to_act"] = None
    return TableView(**base)
