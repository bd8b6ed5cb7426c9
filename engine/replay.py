"""Replaying a record: parse it, resolve ``undo``, fold ``apply`` over the events,
and try each candidate partner when the record does not name him."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from functools import reduce
from typing import TYPE_CHECKING, Any

from engine.cards import INDEX
from engine.core import (
    Event,
    GameState,
    Illegal,
    Knowledge,
    NeedPartner,
    Table,
    Variant,
    awaiting_partner,
    check_cards_and_player,
    check_event_shape,
    check_placement,
    gather_knowledge,
    worse_error,
)
from engine.errors import Code, Msg, render
from engine.fuchsen import Fuchsen
from engine.history import undo_targets
from engine.koenigrufen import Koenigrufen
from engine.result import EngineError, Result
from engine.rules import InvalidRules, effective_rules
from engine.tricks import board_into

if TYPE_CHECKING:
    from engine.board import Board

__all__ = [
    "VARIANTS",
    "RecordError",
    "apply",
    "board_at",
    "candidate_folds",
    "deal_table",
    "fold",
    "prepare",
    "replay",
    "with_candidates",
]

VARIANTS: dict[str, Variant] = {"fuchsen": Fuchsen(), "koenigrufen": Koenigrufen()}
AFTER_DECISION = frozenset({"show", "annul", "undo"})
# The state before the deal, per game: the fold starts from it (never changing it) and
# makes a copy with the record's rules only where it stops before the deal.
_START = {name: GameState(variant=v, rules={}) for name, v in VARIANTS.items()}


def apply(state: GameState, event: object, index: int) -> GameState:
    """The state after ``event`` (at position ``index`` of the record's events).

    Pure: ``state`` is not changed. Raises ``Illegal`` (code, message) when the event
    breaks a rule, and ``UndoInFold`` for a well-formed ``undo`` (no move of the game:
    ``prepare`` resolves them). The deal event yields a state without hindsight
    knowledge; ``fold`` attaches the knowledge gathered from the whole record.
    """
    new = state.copy()
    _step(new, event, index)
    return new


def _step(state: GameState, event: object, index: int) -> None:
    """``apply``, changing ``state`` in place (left as it was where it raises)."""
    variant = state.variant
    if state.table is None:
        state.table = deal_table(variant, state.rules, event)
        return
    typ, spec = check_event_shape(variant, event)
    assert isinstance(event, dict)
    if typ == "undo":
        raise UndoInFold  # no move of the game: ``prepare`` resolves it (see replay)
    variant.check_shape(typ, event)
    if typ == "deal":
        raise Illegal(Code.OUT_OF_ORDER, Msg.GAME_HAS_ALREADY_BEEN_DEALT)
    check_cards_and_player(state, event, spec)
    decided = state.decision is not None or state.annulled
    if decided and typ not in AFTER_DECISION:
        raise Illegal(Code.GAME_FINISHED, Msg.GAME_ALREADY_DECIDED_NOW, type=typ)
    if typ == "annul":
        state.annulled = True
    elif typ == "show":
        _show(state, event, index)
    else:
        variant.handle(state, event, index)


def deal_table(variant: Variant, rules: Mapping[str, Any], event: object) -> Table:
    """The seating (and dealt hands) that ``event``, the first event, deals under the
    house ``rules``; raises ``Illegal`` as ``apply`` does."""
    typ, _ = check_event_shape(variant, event)
    assert isinstance(event, dict)
    variant.check_shape(typ, event)
    if typ != "deal":
        raise Illegal(Code.OUT_OF_ORDER, Msg.EVENT_BEFORE_DEAL, type=typ)
    return variant.validate_deal(event, rules)


def _show(state: GameState, event: Event, index: int) -> None:
    table = state.table
    assert table is not None
    p = table.index[event["player"]]
    shown = state.shown
    try:
        for code in event["cards"]:
            card = INDEX[code]
            # Against the cards shown before, this event's earlier ones too.
            check_placement(state, p, card, show=True)
            state.shown |= 1 << card
    except Illegal:
        state.shown = shown  # a refused show leaves the state as it was
        raise
    state.variant.after_show(state, index)


def prepare(record: object) -> tuple[Variant, Mapping[str, Any], list[tuple[int, Event]], int]:
    """Check the record's frame and resolve ``undo``.

    Returns the variant, the effective house rules, the effective events as
    ``(index, event)`` pairs and the index of a failing ``undo`` (or -1). Raises
    ``RecordError`` for a malformed record or invalid rules.
    """
    variant, rules, events = _frame(record)
    try:
        # The usual record: no ``undo`` (the careful walk below handles the rest).
        plain = "undo" not in [event["type"] for event in events]
    except Exception:  # an event that is not an object, or has no type
        plain = False
    if plain:
        return variant, rules, list(enumerate(events)), -1
    # ``undo`` as a stack (``history.undo_targets``): each removes the latest event
    # not yet removed; the events from a failing one on are not read.
    removed, undo_error = undo_targets(events)
    end = len(events) if undo_error < 0 else undo_error
    kept: list[tuple[int, Event]] = [
        (i, event)
        for i, event in enumerate(events[:end])
        if i not in removed and not (isinstance(event, dict) and event.get("type") == "undo")
    ]
    return variant, rules, kept, undo_error


def _frame(record: object) -> tuple[Variant, Mapping[str, Any], list[Any]]:
    """The record's variant, effective house rules and events (as they stand); raises
    ``RecordError`` for a malformed record or invalid rules."""
    if not isinstance(record, dict):
        raise RecordError(Code.MALFORMED_RECORD, Msg.RECORD_NOT_OBJECT, None)
    game = record.get("game")
    variant = VARIANTS.get(game) if isinstance(game, str) else None
    if variant is None or not isinstance(game, str):
        raise RecordError(Code.MALFORMED_RECORD, Msg.UNKNOWN_GAME, None, rgame=game)
    events = record.get("events")
    if not isinstance(events, list):
        raise RecordError(Code.MALFORMED_RECORD, Msg.EVENTS_NOT_LIST, game)
    try:
        rules = effective_rules(game, record.get("rules"))
    except InvalidRules as exc:
        raise RecordError(Code.INVALID_RULES, exc.msg, game, **exc.params) from None
    return variant, rules, events


def _holds_undo(events: list[tuple[int, Event]]) -> bool:
    """Does any event ask to undo (as ``prepare`` reads them)?"""
    # One list of the types, then one search in C (cheaper than ``any`` over a generator).
    return "undo" in [event.get("type") for _, event in events if isinstance(event, dict)]


class UndoInFold(Exception):
    """``apply`` met an ``undo``: the events were not resolved (see ``prepare``)."""


class RecordError(Exception):
    """The record itself is unusable (``malformed_record``, ``invalid_rules``)."""

    def __init__(self, code: Code, msg: Msg, game: str | None, **params: Any) -> None:
        super().__init__(render(msg, params))
        self.code = code
        self.msg = msg
        self.params = params
        self.game = game


def fold(
    variant: Variant,
    rules: Mapping[str, Any],
    events: list[tuple[int, Event]],
    undo_error: int,
    assumed: tuple[int, int] | None = None,
    start: tuple[GameState, int] | None = None,
    *,
    dealt: tuple[Table, Knowledge] | None = None,
    visit: Callable[[GameState, Event, int], None] | None = None,
) -> tuple[GameState, EngineError | None]:
    """Fold ``apply`` over the effective events; stop at the first illegal one.

    Returns the last good state and the error (or None). ``assumed`` is a candidate
    partner and the called card he is taken to hold; ``start`` a state and the
    position in ``events`` to go on from: the fold takes that state over and changes
    it (``Variant.assume_partner`` makes a new one per candidate). Raises
    ``NeedPartner`` (with the state before the event and its position) when the
    partner matters and is unknown: at the event that reads him, or where the fold
    stands for several candidates at once (``Variant.open_partner``) at an illegal
    event, at the end of the events and, for a visitor, after the event that opened
    them.

    Events not resolved by ``prepare`` may hold an ``undo``: ``apply`` then raises
    ``UndoInFold`` through the fold.

    ``dealt`` is the table and the knowledge (no partner assumed) that an earlier
    fold over the same events and rules found at the deal (``NeedPartner.dealt``,
    which the fold sets): the deal is then not checked, nor the knowledge gathered,
    again.

    ``visit`` is called with the state after each event the fold accepts, the event
    and its index (``engine.statistics`` reads every moment of a game so). The fold
    changes its own state in place at every event: a visitor that keeps a state keeps
    a ``copy()``.
    """
    who = -1 if assumed is None else assumed[0]
    if start is None:
        # Read only (never changed) until the deal, which makes the fold's own state
        # from the rules and the assumed partner (``Variant.initial_state``).
        state = _START[variant.name]
        position = 0
    else:
        state, position = start
    stop = len(events)
    if undo_error >= 0:
        stop = next((k for k, (i, _) in enumerate(events) if i > undo_error), stop)
    k = position
    play = variant.play
    fold_board, board_from = variant.fold_board, variant.board_from
    # The seats and deck once dealt: a play of the three common fields is parsed here
    # into its player and card (the usual event), and goes straight to the game's
    # ``play``. It passes every check ``apply`` makes before that (the shape, a card of
    # the deck, a seated player), which words any other event's fault.
    seats: Mapping[str, int] = {}
    deck = 0
    if state.table is not None:
        seats, deck = state.table.index, state.table.deck
    # The board phase (``_on_board``): from trick ``board_from`` on, its hands the cards
    # the record places in each (the knowledge is the whole record's); never for a
    # visitor, who reads the state after each event. ``tried`` is the position where a
    # board phase stopped: that play goes card by card.
    boards = visit is None
    tried = -1
    while k < stop:
        i, event = events[k]
        # Each step checks the event first, then changes ``state`` in place: an illegal
        # event leaves it as the last good state.
        try:
            if (
                type(event) is dict
                and len(event) == 3
                and event.get("type") == "play"
                and state.decision is None
                and not state.annulled
            ):
                if (
                    boards
                    and k != tried
                    and state.board is not None
                    and state.board.tricks >= board_from
                ):
                    board = fold_board(state)
                    if board is not None:
                        tried = _on_board(state, board, events, k, stop, seats)
                        if tried != k:
                            k = tried
                            continue
                player = event.get("player")
                code = event.get("card")
                p = card = -1
                if type(player) is str and type(code) is str:
                    p = seats.get(player, -1)
                    card = INDEX.get(code, -1)
                if p >= 0 and card >= 0 and deck >> card & 1:
                    play(state, p, card, None, i)
                else:
                    _step(state, event, i)
            elif state.table is None:
                # The deal: the start state goes
                # straight to the state after it, with the knowledge gathered from the
                # whole record.
                if dealt is None:
                    table = deal_table(variant, rules, event)
                    assert isinstance(event, dict)
                    know = gather_knowledge(variant, table, event, events, i)
                    dealt = table, know
                else:
                    table, know = dealt
                if assumed is not None:
                    know = know.with_card(*assumed)
                state = variant.initial_state(rules, who, table, know)
                seats, deck = table.index, table.deck
            else:
                _step(state, event, i)
        except Illegal as exc:
            opened = variant.open_partner(state)
            if opened is None:
                return _dealt_or_start(state, rules, who), EngineError(
                    i, exc.code, exc.msg, exc.params, exc.field
                )
            # Each candidate's fold meets the event (and its own error) again.
            raise _needing(opened, state, k, dealt, assumed) from None
        except NeedPartner as need:
            raise _needing(need, state, k, dealt, assumed) from None
        if visit is not None:
            opened = variant.open_partner(state)
            if opened is not None:
                # A visitor reads every state: each candidate's from the next event on.
                raise _needing(opened, state, k + 1, dealt, assumed)
            visit(state, event, i)
        k += 1
    opened = variant.open_partner(state)
    if opened is not None:
        raise _needing(opened, state, k, dealt, assumed)
    state = _dealt_or_start(state, rules, who)
    if undo_error >= 0:
        return state, EngineError(undo_error, Code.NOTHING_TO_UNDO, Msg.NOTHING_TO_UNDO)
    return state, None


def _needing(
    need: NeedPartner,
    state: GameState,
    position: int,
    dealt: tuple[Table, Knowledge] | None,
    assumed: tuple[int, int] | None,
) -> NeedPartner:
    """``need``, raised by the fold at ``position`` of the events with ``state`` before
    it: where each candidate's fold goes on (``Variant.assume_partner``); the deal's
    table and knowledge only from a fold that assumed no partner."""
    need.state = state
    need.position = position
    need.dealt = dealt if assumed is None else None
    return need


def _on_board(
    state: GameState,
    board: Board,
    events: list[tuple[int, Event]],
    k: int,
    stop: int,
    seats: Mapping[str, int],
) -> int:
    """The fold's card play on the state's board, from the plain play at position
    ``k``: the plain plays the board takes pushed on it, and the position of the first
    event it leaves to the fold (``k`` itself where it takes none).

    ``board`` is ``state.board`` with its hands set (the cards the record places in
    each), where it may take over (``Variant.fold_board``). Each plain play must be
    ``to_act``'s card, legal by the board's masks (the duties ``Variant.check_card``
    asks too) and playable plainly (not ``not_plain``); a refused card (left to
    ``play``, which gives its error), another event or the end of the events stop the
    phase, and the state's own records of the play are brought up to date once
    (``tricks.board_into``). A trick that ends the card play (``Board.ends_play``)
    stops it too, and the game decides (``Variant.board_ended``, as its ``play``
    decides after that card)."""
    plain = ~board.not_plain
    indexes: list[int] = []
    done = board.tricks
    while k < stop:
        i, event = events[k]
        if type(event) is not dict or len(event) != 3 or event.get("type") != "play":
            break
        player = event.get("player")
        code = event.get("card")
        if type(player) is not str or type(code) is not str:
            break
        card = INDEX.get(code, -1)
        if card < 0 or seats.get(player, -1) != board.to_act:
            break
        if not (board.legal() & plain) >> card & 1:
            break
        board.push(card)
        indexes.append(i)
        k += 1
        if board.tricks != done:
            done = board.tricks
            if board.ends_play():
                # The game decides the card play by this trick, as its ``play`` would.
                board_into(state, indexes)
                state.variant.board_ended(state)
                return k
    if indexes:
        board_into(state, indexes)
    return k


def _dealt_or_start(state: GameState, rules: Mapping[str, Any], who: int) -> GameState:
    """``state``, or before the deal a copy of the start state with the record's
    ``rules`` and assumed partner ``who``."""
    if state.table is None:
        state = state.copy()
        state.rules = rules
        state.assumed = who
    return state


def _error_result(error: EngineError, game: str | None) -> Result:
    return Result(status="invalid", game=game, error=error)


def replay(record: object) -> Result:
    """Replay a whole record and return its ``Result``. Never raises for bad input:
    a malformed record gives status ``"invalid"``."""
    # Most records hold no ``undo``: fold the events as they stand rather than read
    # every event for one first. Each event the fold reaches goes through ``apply``
    # (which raises UndoInFold for one); only where the fold
    # stops early (an error, the partner unknown) are the others looked through. A
    # record with an ``undo`` is replayed again, resolved.
    try:
        variant, rules, raw = _frame(record)
    except RecordError as exc:
        return _error_result(EngineError(-1, exc.code, exc.msg, exc.params), exc.game)
    # Every event as it stands, ``undo`` not resolved (a fold that meets one raises
    # ``UndoInFold``, and the record is replayed resolved).
    return _replay_folded(record, variant, rules, list(enumerate(raw)), -1)


def _replay_folded(
    record: object,
    variant: Variant,
    rules: Mapping[str, Any],
    events: list[tuple[int, Event]],
    undo_error: int,
) -> Result:
    """``replay`` by the fold over ``events`` as they stand (``undo`` not resolved)."""
    try:
        state, error = fold(variant, rules, events, undo_error)
    except UndoInFold:
        return _replay_resolved(record)
    except NeedPartner as need:
        if _holds_undo(events):
            return _replay_resolved(record)
        return with_candidates(variant, candidate_folds(variant, rules, events, undo_error, need))
    if error is not None:
        if _holds_undo(events):
            return _replay_resolved(record)
        return _error_result(error, variant.name)
    if state.table is None:
        return Result(status="in_progress", game=variant.name, awaiting="deal")
    return variant.result(state)


def record_error(record: object, first: str | None = None) -> EngineError | None:
    """The error of ``replay(record)`` where its status is ``invalid``, else None, with
    less work where the partner is unknown: any candidate that keeps the record valid
    makes it valid (hindsight rule 4), so the candidates' folds stop at the first such
    one (``replay`` goes on to compare their results). ``first``: the name of a
    candidate to fold first, the one the caller expects to keep it valid; where none
    does, the error is ``replay``'s all the same (the candidates' errors are weighed in
    their own order). For the table view's trials, which ask only whether an appended
    event is accepted."""
    try:
        variant, rules, events, undo_error = prepare(record)
    except RecordError as exc:
        return EngineError(-1, exc.code, exc.msg, exc.params)
    try:
        _state, error = fold(variant, rules, events, undo_error)
    except NeedPartner as need:
        order = list(need.candidates)
        seat = -1 if need.dealt is None else need.dealt[0].index.get(first or "", -1)
        if seat in order:
            order.remove(seat)
            order.insert(0, seat)
        errors: dict[int, EngineError] = {}
        folds = candidate_folds(variant, rules, events, undo_error, need, order)
        for q, (_state, error) in zip(order, folds, strict=True):
            if error is None:
                return None
            errors[q] = error
        # No survivor: replay's error at the largest index, weighed as replay does.
        return reduce(worse_error, [errors[q] for q in need.candidates])
    return error


def _replay_resolved(record: object) -> Result:
    """``replay`` with ``undo`` resolved before the fold."""
    try:
        variant, rules, events, undo_error = prepare(record)
    except RecordError as exc:
        return _error_result(EngineError(-1, exc.code, exc.msg, exc.params), exc.game)
    try:
        state, error = fold(variant, rules, events, undo_error)
    except NeedPartner as need:
        return with_candidates(variant, candidate_folds(variant, rules, events, undo_error, need))
    if error is not None:
        return _error_result(error, variant.name)
    if state.table is None:
        return Result(status="in_progress", game=variant.name, awaiting="deal")
    return variant.result(state)


def candidate_folds(
    variant: Variant,
    rules: Mapping[str, Any],
    events: list[tuple[int, Event]],
    undo_error: int,
    need: NeedPartner,
    order: Iterable[int] | None = None,
) -> Iterator[tuple[GameState, EngineError | None]]:
    """Hindsight rule 4: the fold once per candidate partner (in ``need.candidates``'
    order, or ``order``'s), each the last good state and the error as ``fold`` gives
    them.

    Where the events before the one that needed the partner do not depend on who holds
    the called card, the variant says where to go on from instead of folding the deal
    again (``Variant.assume_partner``)."""
    for q in need.candidates if order is None else order:
        done = need.done.get(q)
        if done is not None:
            # His fold ended while the candidates' was one (``Variant.open_partner``).
            yield done
            continue
        start = variant.assume_partner(need, q)
        yield fold(
            variant, rules, events, undo_error, (q, need.called), start=start, dealt=need.dealt
        )


def with_candidates(
    variant: Variant, folds: Iterable[tuple[GameState, EngineError | None]]
) -> Result:
    """Hindsight rule 4: the result over the candidates' folds (``candidate_folds``).

    No survivor: the error at the largest first-failure index. One: his result.
    Several with the same result but for ``declarers``: that result without the
    partner. Two that differ: the result waits for the partner, whatever the other
    candidates give, so the remaining ones need not be folded (``folds`` is read no
    further).
    """
    first: Result | None = None
    first_key: dict[str, Any] | None = None
    survivors = 0
    worst: EngineError | None = None
    for state, error in folds:
        if error is not None:
            worst = error if worst is None else worse_error(worst, error)
            continue
        result = variant.result(state)
        key = result.to_dict()
        key.pop("declarers", None)
        survivors += 1
        if first is None:
            first, first_key = result, key
        elif key != first_key:
            return _awaiting_partner(first)
    if first is None:
        assert worst is not None
        return _error_result(worst, variant.name)
    if survivors == 1:
        return first
    declarers = first.declarers
    return replace(first, declarers=declarers[:1] if declarers else declarers)


# What is known while the result depends on who the partner is.
_awaiting_partner = awaiting_partner


def board_at(record: object, index: int | None = None) -> Board | None:
    """The board of ``record`` just before event ``index`` (default: its first card),
    or None where there is none (see the module's docstring)."""
    try:
        variant, rules, events, undo_error = prepare(record)
    except RecordError:
        return None
    if undo_error >= 0:
        events = [(i, e) for i, e in events if i < undo_error]
    k = 0
    if index is None:
        while k < len(events) and not (
            isinstance(events[k][1], dict) and events[k][1].get("type") == "play"
        ):
            k += 1
        if k == len(events):
            return None
    else:
        while k < len(events) and events[k][0] < index:
            k += 1
    before: list[GameState] = []
    seen = [0]

    def keep(state: GameState, _event: object, _i: int) -> None:
        # The fold changes its state in place: a copy of the one state the board
        # starts from.
        seen[0] += 1
        if seen[0] == k:
            before.append(state.copy())

    try:
        _state, error = fold(variant, rules, events, -1, visit=keep)
    except NeedPartner:
        return None
    if k == 0 or not before:
        return None  # no deal yet, or an event before the position is illegal
    end = 1 << 30 if error is None else error.index  # the plays stop at an illegal one
    at = before[0]
    board = at.variant.card_board(at)
    if board is None:
        return None
    for i, event in events[k:]:
        if i >= end:
            break
        if isinstance(event, dict) and event.get("type") == "play":
            board.pending.append(INDEX[event["card"]])
    return board
