"""The table after a record: what the service and the web pages show, and what is legal.

``table_view(record)`` never raises. Legal moves are found by asking the engine
itself, so the view can never disagree with ``replay``: the cards by the rules every
play goes through, all of a player's at once from masks (``Variant.judge_cards``);
a card that may be played face down by the same rules, with the knowledge its play
would add (the rules read it).
The view may do this extra work; ``replay`` does not.

The view never asks which game it shows: the game's own moves, tally and fields come
from the ``Variant`` hooks for the view (``offers``, ``tally_offer``, ``view_fields``,
``plays_face_down``, ``probed_blank``), which try their events through the
``core.Trial`` the view passes them (``_Appended``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields, replace
from itertools import accumulate
from typing import Any

from engine.cards import CODES, bits
from engine.core import (
    Event,
    GameState,
    Knowledge,
    NeedPartner,
    Variant,
    place,
    placement_errors,
)
from engine.legal import CallOptions, Legal
from engine.replay import (
    RecordError,
    candidate_folds,
    fold,
    prepare,
    record_error,
    replay,
    with_candidates,
)
from engine.result import EngineError, Result
from engine.tricks import trick_on_table

__all__ = ["CallOptions", "Legal", "TableView", "TrickView", "legal_moves", "table_view"]


@dataclass(frozen=True, slots=True)
class TrickView:
    """A completed trick: who led, the cards in play order, who won it."""

    leader: str
    cards: tuple[tuple[str, str], ...]
    winner: str
    # The Augen of its cards (Fuchsen), or None where the game counts none.
    augen: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "cards": [list(c) for c in self.cards],
            "winner": self.winner,
            "augen": self.augen,
        }


@dataclass(frozen=True)
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
    # Who is winning the trick on the table so far (``GameState.winner``), or
    # None with no card down.
    trick_winner: str | None = None
    # What a ``tally`` appended now may say (``tally_options``), or None when none may.
    tally: Mapping[str, Any] | None = None
    # The deck as the pages lay it out: rows ``(label, trump, cards)``, strongest card
    # first, None a gap (``Variant.view_fields``); and the game's trumps, if any.
    deck: tuple[tuple[str, bool, tuple[str | None, ...]], ...] = ()
    trumps: tuple[str, ...] = ()
    # The value of the game under its house rules at each level (Fuchsen, ``""``: none
    # said yet) or contract (Königrufen, ``<contract>_joined`` with a joiner, and
    # ``schurln``): ``Variant.values``; and its value as it stands (None before the
    # contract is known).
    values: Mapping[str, int] | None = None
    value: int | None = None
    # The card called (Fuchsen's call; Königrufen's standing bid), whether the Fuchs was
    # said, whether the Macher plays alone (Fuchsen; None for Königrufen).
    called_card: str | None = None
    fuchs_said: bool = False
    alone: bool | None = None
    # Who plays the next card: the player to act in the play, or after the first trick
    # while the raising is open, its winner (whose lead ends the raising); else None.
    next_player: str | None = None
    # A game decided as a Stilles Spiel (``Result.silent``): the bonus its value (the
    # result's) includes under the game's house rules (Fuchsen's ``silent_bonus``), so
    # that a page names it beside the value; None for every other game.
    silent_bonus: int | None = None
    # Per effective event (aligned with ``effective``): the trick it belongs to,
    # counted from 0; -1 before the first card. A play belongs to the trick it is put
    # into, any other event to the trick of the card before it.
    event_tricks: tuple[int, ...] = ()

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
            "deck": [
                {"label": label, "trump": trump, "cards": list(cards)}
                for label, trump, cards in self.deck
            ],
            "trumps": list(self.trumps),
            "values": dict(self.values) if self.values is not None else None,
            "value": self.value,
            "called_card": self.called_card,
            "fuchs_said": self.fuchs_said,
            "alone": self.alone,
            "next_player": self.next_player,
            "silent_bonus": self.silent_bonus,
            "event_tricks": list(self.event_tricks),
        }


def _plain(value: Any) -> Any:
    """``value`` as fresh JSON-ready lists and dicts (a caller may change them)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value  # the usual leaf, without the ABC's instance checks below
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


# ----------------------------------------------------------------------------- legal


def _with_event_knowledge(
    state: GameState, event: Event, index: int, events: Sequence[tuple[int, Event]] = ()
) -> GameState:
    """``state`` with the cards ``event`` would place added to its knowledge: those it
    places as the game reads them (``Variant.placements``; a ``tally``'s partner holds
    the called card of ``events``, the record's effective events before it:
    ``Variant.tally_placements``) and the blank it names (``Variant.probed_blank``).
    For reading only, as ``GameState.knowing``: it shares the board of ``state``."""
    know = state.know
    table = state.table
    typ = event.get("type")
    if know is None or table is None:
        return state
    variant = state.variant
    if typ != "tally" and (type(typ) is not str or typ not in variant.placing_types):
        return state  # no card to place (a blank is named by a call or play, both placing)
    try:
        if typ == "tally":
            pairs = variant.tally_placements(event, list(events), index)
        else:
            pairs = variant.placements(event, table)
    except (KeyError, TypeError):
        return state
    lists = None
    changed = False
    if pairs:  # copied only for a card to place (most tried events place none)
        lists = list(know.owner), list(know.known), list(know.placed_at)
        changed = place(table, pairs, index, *lists)
    blank = know.blank
    if blank < 0:
        named = variant.probed_blank(state, event)
        if named is not None:
            blank = named
            changed = True
    if not changed:
        return state
    owner, known, placed = lists or (know.owner, know.known, know.placed_at)
    return state.knowing(Knowledge(tuple(owner), tuple(known), tuple(placed), blank))


def _play_refusal(
    state: GameState, p: int, card: int, turned: bool, index: int
) -> EngineError | None:
    """Why ``p``'s play of ``card`` (face down where ``turned``), the record's event
    number ``index``, would be refused after ``state`` (the player to act in the play,
    the card one the record lets him hold), or None: the rules ``play`` judges it by
    (``check_card``, then ``face_error``) with the knowledge the play adds (the card
    in his hand, the blank it names)."""
    table = state.table
    assert table is not None
    event: dict[str, Any] = {"type": "play", "player": table.active[p], "card": CODES[card]}
    if turned:
        event["turned"] = True
    placed = _with_event_knowledge(state, event, index)
    variant = state.variant
    e = variant.check_card(placed, p, card) or variant.face_error(placed, p, card, turned)
    return None if e is None else EngineError(index, e.code, e.msg, e.params, e.field)


class _Appended:
    """The view's ``Trial``: an event tried as event number ``index`` after the record's
    effective ``events``."""

    __slots__ = ("events", "index", "playable")

    def __init__(
        self,
        index: int,
        events: Sequence[tuple[int, Event]] = (),
        playable: Sequence[str] = (),
    ) -> None:
        self.index = index
        self.events = events
        self.playable = playable

    def tally_partners(self, states: Sequence[GameState], fields: Event) -> list[str]:
        # Each candidate's state with each player named, judged by the rule every tally
        # goes through, with the knowledge the tally adds (its partner holds the called
        # card): the checks before it pass for a tally the game offers (its fields are
        # well formed, the partner seated, the game open).
        names: list[str] = []
        for s in states:
            table = s.table
            assert table is not None
            for name in table.active:
                event = {"type": "tally", **fields, "partner": name}
                if name not in names and (
                    s.variant.tally_refusal(
                        _with_event_knowledge(s, event, self.index, self.events), event
                    )
                    is None
                ):
                    names.append(name)
        table = states[0].table
        assert table is not None
        return [n for n in table.active if n in names]


def _playable(state: GameState, p: int) -> int:
    """The cards not played yet that the record lets ``p`` hold (a mask): those it
    places in his hand, and while it does not show all of it, those it places in none."""
    know = state.know
    table = state.table
    assert know is not None and table is not None
    mine = know.known[p] & ~state.played
    if know.full(p):
        return mine
    elsewhere = 0
    for q in range(table.n):
        if q != p:
            elsewhere |= know.known[q]
    return (table.deck & ~state.played & ~elsewhere) | mine


def legal_moves(state: GameState, index: int) -> Legal:
    """The events acceptable after ``state`` as the record's event number ``index``:
    the cards of the player to act here, the game's own moves by ``Variant.offers``."""
    table = state.table
    if table is None or state.decision is not None or state.annulled:
        return Legal()
    cards: list[str] = []
    refused: dict[str, EngineError] = {}
    face_down: list[str] = []
    refused_face_down: dict[str, EngineError] = {}
    p = state.to_act
    down_open = state.variant.plays_face_down(state, p) if state.phase == "play" else None
    if state.phase == "play" and p >= 0 and down_open is None:
        # Each card of the deck not played yet, judged at once by the rules every play
        # goes through (``Variant.judge_cards``, ``check_card``'s rules from masks).
        legal, errors = state.variant.judge_cards(state, p)
        cards = [CODES[c] for c in bits(legal)]
        for c in sorted(errors):
            e = errors[c]
            refused[CODES[c]] = EngineError(index, e.code, e.msg, e.params, e.field)
    elif state.phase == "play" and p >= 0:
        # A player who may hold a card turned face down: each card judged face up and
        # face down, each with the knowledge its play adds, as the face-down card's
        # hindsight reaches into the knowledge.
        playable = _playable(state, p)
        for c in bits(playable):
            why = _play_refusal(state, p, c, False, index)
            if why is None:
                cards.append(CODES[c])
            down = _play_refusal(state, p, c, True, index)
            if down is None:
                if why is not None:
                    cards.append(CODES[c])
                    why = None
                if down_open:
                    face_down.append(CODES[c])
            elif down_open:
                refused_face_down[CODES[c]] = down
            if why is not None:
                refused[CODES[c]] = why
        # The cards the record puts in another hand (or that the player cannot hold):
        # the engine's own refusal too, so every greyed card has its reason. Their play
        # adds no knowledge (it places no card, names no blank): the rule of where the
        # cards are refuses them, as ``check_card`` would, before any other.
        elsewhere = placement_errors(state, p, table.deck & ~state.played & ~playable)
        for c, e in elsewhere.items():
            refused[CODES[c]] = EngineError(index, e.code, e.msg, e.params, e.field)
    return Legal(
        cards=tuple(cards),
        refused=refused,
        face_down=tuple(face_down),
        refused_face_down=refused_face_down,
        **state.variant.offers(state, _Appended(index, playable=tuple(cards))),
    )


def tally_options(
    states: list[GameState], index: int, events: Sequence[tuple[int, Event]] = ()
) -> dict[str, Any] | None:
    """What a ``tally`` appended as event number ``index`` after the effective
    ``events`` may say, for the record whose states (one, or one per candidate partner
    still possible) are ``states``; None when no tally may stand now. The keys are
    those of the tally contract: ``kind`` (``"pure"``/``"late"``), ``fields`` (only
    those that may stand, each with ``required`` and its choices or range) and
    ``needs_outcome`` (``Variant.tally_offer``). Every offer is judged by the rule
    every tally goes through (``Variant.tally_refusal``, with the knowledge a named
    partner adds), so the page never offers a tally the engine would refuse.
    """
    open_states = [
        s
        for s in states
        if s.table is not None and s.decision is None and not s.annulled and s.phase == "play"
    ]
    if not open_states:
        return None
    return open_states[0].variant.tally_offer(open_states, _Appended(index, events))


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
        fuchs=a.fuchs or b.fuchs,
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
        # The candidates' folds, once: ``replay``'s result is made of them (the same
        # events, resolved, the same folds), and the view reads their states.
        folds = list(candidate_folds(variant, rules, events, undo_error, need))
        result = with_candidates(variant, folds)
        for state, error in folds:
            if error is None or result.status == "invalid":
                states.append(state)
        if result.awaiting == "partner" and isinstance(record, dict) and states:
            table = states[0].table
            assert table is not None
            for q in need.candidates:
                who = table.active[q]
                show = {"type": "show", "player": who, "cards": [CODES[need.called]]}
                if record_error({**record, "events": [*record["events"], show]}, who) is None:
                    partners.append(who)
    if not states:  # pragma: no cover - replay found a survivor, so the view does too
        return TableView(game=result.game, status=result.status, result=result)
    state = states[0]
    legal = Legal()
    tally: dict[str, Any] | None = None
    if result.status != "invalid":
        each = [legal_moves(s, next_index) for s in states]
        legal = each[0]
        for other in each[1:]:
            legal = _merge(legal, other)
        tally = tally_options(states, next_index, events)
        if partners:
            legal = replace(legal, partners=tuple(partners))
        if legal.face_down and isinstance(record, dict) and state.table is not None:
            legal = _face_down_in_hindsight(record, legal, state.table.active[state.to_act])
        if legal.fuchs and isinstance(record, dict) and state.table is not None:
            # The cards of a state that offers the Fuchs (one where the player to act
            # is the Hilfer) are tried first: the others' fail with it at once.
            first = [code for one in each if one.fuchs for code in one.cards]
            legal = _fuchs_in_hindsight(
                record, legal, state.table.active[state.to_act], (*first, *legal.cards)
            )
    effective = tuple([i for i, _ in events])
    n = state.table.n if state.table is not None else 0
    pages = {"values": variant.values(rules), "event_tricks": _event_tricks(events, n)}
    return _describe(state, result, legal, effective, tally, pages, partner_known=len(states) == 1)


def _event_tricks(events: Sequence[tuple[int, Event]], n: int) -> tuple[int, ...]:
    """``TableView.event_tricks`` for the effective ``events`` at a table of ``n``
    active players."""
    if not n:
        return (-1,) * len(events)
    # The plays up to each event, that one included: ``k`` of them put the event in the
    # trick of the ``k``-th (``(k - 1) // n``, -1 for none).
    plays = accumulate([isinstance(e, dict) and e.get("type") == "play" for _, e in events])
    return tuple([(k - 1) // n for k in plays])


def _face_down_in_hindsight(record: dict[str, Any], legal: Legal, name: str) -> Legal:
    """``legal`` with only the plays the whole record accepts while the turned card is
    still in the hand: a card played face down names the blank, and the call's turning
    rules judge it in hindsight (an error at the call, which ``apply`` on the current
    state cannot see); a plain card may name it too, by leaving one card the blank can
    be (which then had to follow the suit led, say)."""
    refused_down = dict(legal.refused_face_down)
    down = _played_in_hindsight(record, name, legal.face_down, refused_down, turned=True)
    # ``cards`` holds the cards he may play face down too (the turned card's own play);
    # a plain card whose play proves an earlier entry wrong stays offered, as every card
    # that does (the page then names that entry): only a card refused for itself goes.
    at = len(record["events"])
    plain_refused: dict[str, EngineError] = {}
    _played_in_hindsight(
        record, name, tuple(c for c in legal.cards if c not in down), plain_refused
    )
    itself = {c: e for c, e in plain_refused.items() if e.index >= at}
    cards = [c for c in legal.cards if c not in itself]
    refused = {**legal.refused, **itself}
    return replace(
        legal,
        cards=tuple(cards),
        refused=refused,
        face_down=tuple(down),
        refused_face_down=refused_down,
    )


def _fuchs_in_hindsight(
    record: dict[str, Any], legal: Legal, name: str, order: tuple[str, ...]
) -> Legal:
    """``legal`` offering the Fuchs only where the whole record accepts it said with
    one of the offered cards: like a card played face down, the announcement is judged
    in hindsight too (what it proves of the Hilfer's hand), which ``apply`` on the
    current state cannot see. ``order`` is ``legal.cards`` (some perhaps twice) in the
    order to try them: the answer is the same in any order, the work is not."""
    for code in dict.fromkeys(order):
        event = {"type": "play", "player": name, "card": code, "fuchs": True}
        # Only the Hilfer may say it: the candidate who makes him the Hilfer first.
        if record_error({**record, "events": [*record["events"], event]}, name) is None:
            return legal
    return replace(legal, fuchs=False)


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
        error = record_error({**record, "events": [*record["events"], event]})
        if error is not None:
            refused[code] = error
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
    pages: dict[str, Any],
    *,
    partner_known: bool,
) -> TableView:
    """The view of ``state``; ``effective`` the positions of the effective events,
    ``pages`` the fields for the pages known from the rules and events alone."""
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
        **pages,
    }
    if tally is not None:
        base["tally"] = tally
    if table is None:
        if result.status == "in_progress":
            base["awaiting"] = "deal"
        return _table_view(base)
    name = table.active
    trick, winner = trick_on_table(state)
    history = [] if state.board is None else state.board.history()
    base.update(
        players=table.players,
        active=table.active,
        dealer=table.dealer,
        sitting_out=table.sitting_out,
        trick=tuple([(name[p], CODES[c]) for p, c in trick]),
        trick_winner=name[winner] if trick else None,
        tricks=tuple(
            [
                TrickView(
                    name[leader],
                    tuple([(name[p], CODES[c]) for p, c in cards]),
                    name[winner],
                    state.variant.trick_augen(sum([1 << c for _, c in cards])),
                )
                for leader, cards, winner in history
            ]
        ),
        contract=result.contract,
        declarers=result.declarers or (),
    )
    base.update(state.variant.view_fields(state, result, partner_known=partner_known))
    if result.status in ("finished", "annulled", "invalid"):
        base["to_act"] = None
    if base["awaiting"] == "play":
        base["next_player"] = base["to_act"]
    elif base["awaiting"] == "raise_or_end" and len(history) == 1:
        base["next_player"] = name[history[0][2]]
    return _table_view(base)


def _table_view(fields: dict[str, Any]) -> TableView:
    """``TableView(**fields)``, its ``__dict__`` made at once from the defaults and
    ``fields`` (the recording API builds one per append; a frozen dataclass's
    ``__init__`` sets its ~35 fields one by one)."""
    d = _VIEW_DEFAULTS.copy()
    d.update(fields)
    view = _new_object(TableView)
    _set_attr(view, "__dict__", d)
    return view


# Every field's default, where it has one (``Legal()`` is a frozen value: one serves
# every view); ``game``, ``status`` and ``result`` have none.
_VIEW_DEFAULTS: dict[str, Any] = {}
for _field in fields(TableView):
    if _field.default is not MISSING:
        _VIEW_DEFAULTS[_field.name] = _field.default
    elif _field.default_factory is not MISSING:
        _VIEW_DEFAULTS[_field.name] = _field.default_factory()
_new_object = object.__new__
_set_attr = object.__setattr__
