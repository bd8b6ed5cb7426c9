"""The machinery shared by both games: seats, hindsight knowledge, states, the fold.

A replay is a fold over the record's effective events (after ``undo`` is resolved):
the fold owns one mutable state from the deal on, and each event's handler checks the
event, then changes that state in place (as python-chess's ``Board.push``). A handler
that raises leaves the state as it was. ``apply(state, event, index)`` is the pure
step: it changes a ``copy()``. Results, errors and ``Decision`` stay frozen values. A
game is a ``Variant`` subclass overriding named hooks (``engine.fuchsen.Fuchsen``,
``engine.koenigrufen.Koenigrufen``).

Hindsight (event-stream.md, "What the engine knows"): before the fold, one pass over
the effective events gathers where every card is known to be (``Knowledge``), so an
obligation can be judged with cards a player only reveals later.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self

from engine.cards import CODES, INDEX, bits
from engine.errors import CODE_RANK, Code, Illegal, Msg
from engine.result import EngineError, Result

if TYPE_CHECKING:
    from engine.board import Board

__all__ = [
    "Decision",
    "Duty",
    "GameState",
    "Illegal",
    "Knowledge",
    "NeedPartner",
    "Table",
    "Trial",
    "Variant",
    "awaiting_partner",
    "waiting_for_partner",
]

Event = Mapping[str, Any]
# A rule of the trick (``Variant.duties``): its code, its sentence, the cards that keep
# it (a mask), the cards of the player's it names (a mask).
Duty = tuple[Code, Msg, int, int]


_set_attr = object.__setattr__  # bypasses a frozen dataclass's __setattr__
_new_object = object.__new__

# A placement the record never makes (a candidate partner's assumed called card).
NEVER = 1 << 30


class NeedPartner(Exception):
    """Raised when the partner matters and the record does not name him.

    The replay then goes on once per candidate (hindsight rule 4), each from where
    the fold stopped where the game says so (``Variant.assume_partner``).
    """

    def __init__(self, candidates: tuple[int, ...], called: int) -> None:
        super().__init__("partner unknown")
        self.candidates = candidates
        self.called = called
        # Candidates whose fold already ended, each with its last good state and its
        # error: the fold went on for several at once and an event refused them alone
        # (``Variant.open_partner``). ``replay.candidate_folds`` gives these as they are.
        self.done: dict[int, tuple[GameState, EngineError]] = {}
        self.state: GameState | None = None  # set by the fold: the state before the event
        self.position = 0  # and the event's position among the effective events
        # Set by the fold: the deal's table and the knowledge gathered from the whole
        # record (no partner assumed), which a candidate's fold from the start reuses.
        self.dealt: tuple[Table, Knowledge] | None = None


@dataclass(frozen=True)
class Table:
    """Who sits where: seated players clockwise, the active ones, dealer, deck.

    Not slotted: a deal with hands copies the cached seating's ``__dict__``
    (``with_hands``) instead of running the frozen ``__init__`` again.
    """

    players: tuple[str, ...]
    active: tuple[str, ...]
    dealer: str
    sitting_out: str | None
    index: Mapping[str, int]  # active player name -> position in ``active``
    deck: int  # bitmask of the cards in play
    removed: int  # bitmask of removed cards (Fuchsen, 5 active)
    first: int  # active index of the first player after the dealer
    dealt: tuple[int, ...] = ()  # per active player: bitmask of his dealt hand, if listed
    # Per card: the active index of the player dealt it (-1: nobody), when the deal
    # lists every active player's hand; else empty.
    dealt_owner: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        return len(self.active)

    def after(self, p: int) -> int:
        return (p + 1) % len(self.active)

    def with_hands(self, dealt: tuple[int, ...], dealt_owner: tuple[int, ...] = ()) -> Table:
        """This seating with the dealt hands (``dealt``, ``dealt_owner``): one copy of
        its fields, once per record with hands. Not the frozen ``__init__`` (the
        constructor, ``dataclasses.replace``): callgrind counts 15,000 to 34,000
        instructions more a Fuchsen record with hands so, the later loads of the
        table's fields included."""
        fields = self.__dict__.copy()
        fields["dealt"] = dealt
        fields["dealt_owner"] = dealt_owner
        new = _new_object(Table)
        _set_attr(new, "__dict__", fields)
        return new


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Where the whole record puts each card (first placement wins).

    ``owner[c]`` is the active index of the player known to hold card ``c`` (or -1),
    ``known[p]`` the bitmask of cards known in player ``p``'s hand, ``placed_at[c]`` the
    event index of the first placement, ``blank`` the Macher's turned card if the
    record reveals it (Fuchsen) or -1.
    """

    owner: tuple[int, ...]
    known: tuple[int, ...]
    placed_at: tuple[int, ...]
    blank: int

    def full(self, p: int) -> bool:
        return self.known[p].bit_count() >= 6

    def with_card(self, p: int, card: int) -> Knowledge:
        """This knowledge with ``card`` assumed in ``p``'s hand (never shown by the record)."""
        owner = list(self.owner)
        owner[card] = p
        known = list(self.known)
        known[p] |= 1 << card
        placed = list(self.placed_at)
        placed[card] = NEVER
        # Once per candidate partner: without the frozen ``__init__`` (half the cost of
        # this method).
        return _knowledge(owner, known, placed, self.blank)

    def shown_by(self, p: int, card: int, index: int) -> bool:
        """Has the record, up to event ``index``, placed ``card`` in ``p``'s hand?"""
        return self.owner[card] == p and self.placed_at[card] <= index


@dataclass(frozen=True)
class Decision:
    """How a decided game ended and what it pays."""

    reason: str
    won: bool | None
    value: int
    payouts: tuple[tuple[str, int], ...]
    declarers: tuple[str, ...]
    tricks: int
    augen: tuple[int, int] | None = None

    # Written out, as ``Result.__init__``: one ``__dict__`` instead of a frozen
    # dataclass's setattr per field. The parameters are the fields, in order.
    def __init__(
        self,
        reason: str,
        won: bool | None,
        value: int,
        payouts: tuple[tuple[str, int], ...],
        declarers: tuple[str, ...],
        tricks: int,
        augen: tuple[int, int] | None = None,
    ) -> None:
        _set_attr(
            self,
            "__dict__",
            {
                "reason": reason,
                "won": won,
                "value": value,
                "payouts": payouts,
                "declarers": declarers,
                "tricks": tricks,
                "augen": augen,
            },
        )


@dataclass
class GameState:
    """The state after a prefix of a record. Fields shared by both games.

    ``table``/``know`` are ``None`` until the deal. ``phase`` is ``"deal"``, then the
    game's phases, ``"play"``; ``decision`` is set once the game is decided.

    Mutable, owned by whoever made it: the handlers change it in place. No field's
    value is ever changed in place (numbers, strings, tuples; the rules, table and
    knowledge are shared, never changed) but the ``board``'s, so ``copy()`` is one
    shallow copy and a copy of the board.
    """

    variant: Variant
    rules: Mapping[str, Any]
    table: Table | None = None
    know: Knowledge | None = None
    assumed: int = -1  # candidate partner taken to hold the called card, or -1
    phase: str = "deal"
    annulled: bool = False
    decision: Decision | None = None
    to_act: int = -1
    played: int = 0  # bitmask of every card played
    shown: int = 0  # bitmask of every card shown
    first_play: tuple[int, ...] = ()  # per active player: event index of his first card
    last_play: int = -1  # event index of the latest play
    # The card play, from the moment it opens (None before): the game's board
    # (``engine.board``), on which every card is pushed (``tricks.add_card``; the fold's
    # board phase pushes plain plays on it directly). It keeps the trick on the table,
    # its leader, class and winner, the cards each player has won, the declaring side
    # and the game's ranking. Its ``hands`` are the known hands only where
    # ``Variant.fold_board`` set them: the state's checks read the knowledge, never
    # them, and ``push`` only takes the card out of them.
    board: Board | None = None

    @property
    def tricks_done(self) -> int:
        """The tricks collected (none before the card play opens)."""
        board = self.board
        return 0 if board is None else board.tricks

    @classmethod
    def prototype(cls, **fields: Any) -> Self:
        """A state of ``fields`` for ``copy()`` to start each deal from (a game's
        ``initial_state``).

        Its ``__dict__`` is made a plain dict: CPython 3.11 keeps the attributes of an
        instance of a class with at most 30 of them in a table shared with the class,
        a copy of that dict shares it too, and the attribute loads and stores of every
        state copied from it then miss the interpreter's fast paths (measured with
        callgrind: 13 % more instructions for a Königrufen auction, whose state has 29
        fields)."""
        state = cls(**fields)
        state.__dict__ = dict(state.__dict__)
        return state

    def knowing(self, know: Knowledge) -> Self:
        """This state with the knowledge ``know``, for reading only (a trial's checks):
        it shares this state's board, so nothing may be pushed on it (``apply`` copies
        it first)."""
        new = _new_object(type(self))
        new.__dict__ = fields = self.__dict__.copy()
        fields["know"] = know
        return new

    def copy(self) -> Self:
        """An independent state at the same point (``apply``, a trial, a prefix kept)."""
        new = _new_object(type(self))
        new.__dict__ = fields = self.__dict__.copy()
        board = fields.get("board")
        if board is not None:
            fields["board"] = board.copy()
        return new


# ----------------------------------------------------------------------------- schema


# Field specs: name -> checker. Required fields first, then optional ones.
def _is_str(v: object) -> bool:
    return type(v) is str


def _is_bool(v: object) -> bool:
    return type(v) is bool


def _is_str_list(v: object) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _is_str_or_bool(v: object) -> bool:
    return isinstance(v, str | bool)


def _is_int(v: object) -> bool:
    return type(v) is int


def _is_str_or_none(v: object) -> bool:
    return v is None or type(v) is str


def _any(v: object) -> bool:
    return True


Checker = Callable[[object], bool]
# The checkers that ask for exactly one type, as that type.
_EXACT: dict[Checker, type] = {_is_str: str, _is_bool: bool, _is_int: int}


@dataclass(frozen=True)
class EventSpec:
    """The fields of one event type: required and optional ones with their JSON kind."""

    required: Mapping[str, Checker]
    optional: Mapping[str, Checker]
    cards: tuple[str, ...] = ()  # fields holding one card code
    card_lists: tuple[str, ...] = ()  # fields holding a list of card codes
    # Fields besides ``player`` naming one player, or a list of players (a tally's).
    players: tuple[str, ...] = ()
    player_lists: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # One lookup table for the hot path: every allowed key (``type`` included).
        fields: dict[str, Checker] = {"type": _any, **self.required, **self.optional}
        object.__setattr__(self, "fields", fields)
        object.__setattr__(self, "required_keys", tuple(self.required))
        # For the well-formed event: no key outside ``allowed``, every key of
        # ``required_set``, and only the ``checked`` fields' kinds to test.
        object.__setattr__(self, "allowed", frozenset(fields))
        object.__setattr__(self, "required_set", frozenset(self.required))
        # Each checked field with the one type its value must have, where its kind asks
        # for exactly one (a test of the type instead of a call), else with its checker.
        checked = tuple(
            (key, _EXACT.get(check, check)) for key, check in fields.items() if check is not _any
        )
        object.__setattr__(self, "checked", checked)

    fields: dict[str, Checker] = field(init=False, repr=False, compare=False)
    required_keys: tuple[str, ...] = field(init=False, repr=False, compare=False)
    allowed: frozenset[str] = field(init=False, repr=False, compare=False)
    required_set: frozenset[str] = field(init=False, repr=False, compare=False)
    checked: tuple[tuple[str, Checker | type], ...] = field(init=False, repr=False, compare=False)


COMMON_EVENTS: dict[str, EventSpec] = {
    "deal": EventSpec({"dealer": _any, "players": _any}, {"hands": _any}),
    "play": EventSpec({"player": _is_str, "card": _is_str}, {}, cards=("card",)),
    "show": EventSpec({"player": _is_str, "cards": _is_str_list}, {}, card_lists=("cards",)),
    "forfeit": EventSpec({"player": _is_str}, {"reason": _is_str}),
    "annul": EventSpec({}, {"reason": _is_str}),
    "undo": EventSpec({}, {}),
}


# ----------------------------------------------------------------------------- variant


class Variant:
    """One game's rules. Subclasses override the hooks; shared code never asks which game.

    Hooks: ``events`` (the schema of each event type), ``check_shape``,
    ``validate_deal``, ``initial_state``, ``placements``, ``tally_placements`` and
    ``find_blank`` (knowledge), ``handle`` (the game's own events), ``play``,
    ``check_card``, ``duties``, ``duty_error``, ``after_show`` and ``result``; for the
    table view ``judge_cards``, ``probed_blank``, ``plays_face_down``, ``offers``,
    ``tally_refusal``, ``tally_offer`` and ``view_fields``.
    """

    name: ClassVar[str] = ""
    events: ClassVar[dict[str, EventSpec]] = {}

    def check_shape(self, typ: str, event: Event) -> None:
        """Shape rules beyond field kinds (``malformed_event``); none by default."""
        return None

    def open_partner(self, state: GameState) -> NeedPartner | None:
        """Where the fold reached ``state`` with the partner still open for several
        candidates (an event that reads who he is raises ``NeedPartner`` itself): the
        ``NeedPartner`` for the fold to raise at the end of the events, at an illegal
        event and, for a visitor who reads every state, at once; None by default."""
        return None

    def assume_partner(self, need: NeedPartner, q: int) -> tuple[GameState, int] | None:
        """Where candidate ``q``'s replay may go on from: a state and the position of
        the next event in the effective events, or None to replay from the start.

        It must be the state the fold reaches with ``q`` assumed to hold the called
        card, a new one: ``need``'s states stay as they were (every candidate's). None
        by default (the deal's table and knowledge are reused: ``NeedPartner.dealt``).
        """
        return None

    # --- deal ---------------------------------------------------------------------
    def __init__(self) -> None:
        self._seat_cache: dict[tuple[Any, ...], Table] = {}

    def validate_deal(self, event: Event, rules: Mapping[str, Any]) -> Table:
        """The deal's seating (``seats``) with its hands parsed (``check_hands``), or
        raise ``Illegal``. The seating is a pure function of the fields ``seat_key``
        names, and clubs reuse a few: a valid one is kept under that key, so only the
        same names and values find it."""
        key: tuple[Any, ...] | None = None
        if type(event["players"]) is list:
            try:
                key = self.seat_key(event, rules)
                table = self._seat_cache.get(key)
            except TypeError:  # an unhashable value
                key, table = None, None
            if table is not None:
                return check_hands(event, table)
        table = self.seats(event, rules)
        if key is not None:
            if len(self._seat_cache) > 4096:
                self._seat_cache.clear()
            self._seat_cache[key] = table
        return check_hands(event, table)

    def seat_key(self, event: Event, rules: Mapping[str, Any]) -> tuple[Any, ...]:
        """Every field of the deal and the house ``rules`` the seating reads (the
        ``players`` a list), as a key (raises ``TypeError`` for an unhashable one)."""
        raise NotImplementedError

    def seats(self, event: Event, rules: Mapping[str, Any]) -> Table:
        """The seating of the deal ``event`` (its hands not read), or raise ``Illegal``."""
        raise NotImplementedError

    def initial_state(
        self, rules: Mapping[str, Any], assumed: int, table: Table, know: Knowledge
    ) -> GameState:
        """A new state after the deal under the house ``rules``, ``assumed`` the
        candidate partner taken to hold the called card (-1: none), ``table`` the deal's
        seating, ``know`` the knowledge gathered from the whole record."""
        raise NotImplementedError

    # --- knowledge ----------------------------------------------------------------
    # The event types whose ``placements`` may place a card: the knowledge pass skips
    # the hook for the others.
    placing_types: ClassVar[frozenset[str]] = frozenset({"play", "show"})

    def placements(self, event: Event, table: Table) -> list[tuple[str, str]]:
        """(player, card) pairs this well-formed event places in hands (only events of
        ``placing_types`` can place any)."""
        typ = event["type"]
        if typ == "play":
            return [(event["player"], event["card"])]
        if typ == "show":
            return [(event["player"], c) for c in event["cards"]]
        return []

    def find_blank(self, events: list[tuple[int, Event]], table: Table) -> int:
        """The card the record shows was turned face down (Fuchsen), or -1."""
        return -1

    def tally_placements(
        self, event: Event, events: list[tuple[int, Event]], index: int
    ) -> list[tuple[str, str]]:
        """The (player, card) pairs the ``tally`` at event number ``index`` places: its
        ``partner`` holds the called card of the call or bid before it (knowledge, as a
        ``show`` of it there would be). None by default."""
        return []

    def after_show(self, state: GameState, index: int) -> None:
        """Change ``state`` in place after a ``show`` revealed cards (a game may now be
        decided)."""

    # --- events -------------------------------------------------------------------
    # Every handler checks first and then changes the state it is given in place (no
    # copy per event; ``apply`` copies for a pure step). One that raises
    # (``Illegal``, ``NeedPartner``) leaves the state exactly as it was: the fold
    # reports it as the last good state, and as ``NeedPartner.state``.
    def handle(self, state: GameState, event: Event, index: int) -> None:
        """Change ``state`` by the game's own ``event`` (its shape, cards and players
        checked by ``apply``), or raise ``Illegal``/``NeedPartner``."""
        raise NotImplementedError

    def play(self, state: GameState, p: int, card: int, event: Event | None, index: int) -> None:
        """Change ``state`` by a card played by active player ``p`` (event fields
        already checked), or raise. ``event`` is the play's event, for the game's own
        fields, or None for a play of the three common fields only (``apply`` has
        parsed it into ``p`` and ``card``)."""
        raise NotImplementedError

    # --- results ------------------------------------------------------------------
    def result(self, state: GameState) -> Result:
        raise NotImplementedError

    # --- legal view ---------------------------------------------------------------
    # The sentence of ``out_of_order`` for a card played before the card play opens.
    play_not_open: ClassVar[Msg]

    def check_card(self, state: GameState, p: int, card: int) -> Illegal | None:
        """The ``Illegal`` unless ``p`` may put ``card`` into the trick now, face up and
        saying nothing: the phase (``play_not_open``), ``not_your_turn``, where the card
        is (``placement_error``), then the trick's ``duties``: the first rule broken,
        else None. ``play`` judges every card by it first; the table view judges all
        of a player's cards at once by the same rules (``judge_cards``)."""
        if state.phase != "play":
            return Illegal(Code.OUT_OF_ORDER, self.play_not_open)
        if p != state.to_act:
            if state.to_act < 0:
                return Illegal(Code.NOT_YOUR_TURN, Msg.NOBODYS_TURN, player=name_of(state, p))
            return Illegal(
                Code.NOT_YOUR_TURN,
                Msg.NOT_TURN_TO_PLAY,
                player=name_of(state, p),
                other=name_of(state, state.to_act),
            )
        know = state.know
        assert know is not None
        if know.owner[card] != p or state.played >> card & 1:
            broken = placement_error(state, p, card)
            if broken is not None:
                return broken
        return self.duty_refusal(state, p, (know.known[p] | 1 << card) & ~state.played, card)

    def duty_refusal(self, state: GameState, p: int, hand: int, card: int) -> Illegal | None:
        """The error of the first of the trick's ``duties`` that ``card`` breaks, played
        by ``p`` holding ``hand`` (his known unplayed cards, the card among them), or
        None: ``check_card``'s last rule, once the card is known to be his."""
        for duty in self.duties(state, p, hand, card):
            if not duty[2] >> card & 1:
                return self.duty_error(state, p, duty, card)
        return None

    def duties(self, state: GameState, p: int, hand: int, card: int = -1) -> Sequence[Duty]:
        """The rules of the trick ``p``'s next card must keep, holding ``hand`` (his
        known unplayed cards, the card played among them), in the code table's order:
        each ``(code, msg, allowed, held)``, ``allowed`` the cards that keep it (a
        mask), ``held`` the cards of his it names (``duty_error``). ``card``: the card
        played, where a rule reads it (Fuchsen's blank never identified); -1 for all
        his cards at once, asked only where no rule reads it (``plays_face_down``
        None). Where ``plays_face_down`` is None they read nothing of the knowledge
        that placing a card in his hand changes (``judge_cards`` asks them of a hand
        holding a card the record places nowhere). None by default."""
        return ()

    def duty_error(self, state: GameState, p: int, duty: Duty, card: int) -> Illegal:
        """The error of ``p`` playing ``card``, which ``duty`` (of ``duties``) does not
        allow."""
        raise NotImplementedError

    def face_error(self, state: GameState, p: int, card: int, turned: bool) -> Illegal | None:
        """Why ``p`` may not play ``card`` face up (``turned`` False) or face down
        (True), ``check_card`` passed: a card turned face down is played so, and only
        that card is; or None. ``play`` asks it of every play that names the turned card
        or is one; the table view of each card of a player who may play face down
        (``plays_face_down``). None by default (no card is turned)."""
        return None

    def judge_cards(self, state: GameState, p: int) -> tuple[int, dict[int, Illegal]]:
        """``check_card`` of every card of the deck not played yet, for the player to
        act ``p`` in the play whose plays it judges alone (``plays_face_down`` None), at
        once: the cards he may play (a mask) and every other card's error. A card the
        record places in no hand is judged as his, as its play would place it. The
        errors are in no particular order.

        The rules as ``check_card`` asks them, from masks: where the record puts each
        card (``placement_errors`` for the cards it puts elsewhere), then the trick's
        ``duties``, once for the cards it puts in his hand. A card it places nowhere
        adds itself to his hand, which the duties read: each such card is judged
        alone (a player the record does not show whole)."""
        know = state.know
        table = state.table
        assert know is not None and table is not None
        unplayed = table.deck & ~state.played
        hand = know.known[p] & unplayed
        may_hold = 0
        if not know.full(p):
            placed = 0
            for mask in know.known:
                placed |= mask
            may_hold = unplayed & ~placed
        # The cards the record puts in another hand (or in none, his being full).
        refused = placement_errors(state, p, unplayed & ~hand & ~may_hold)
        legal = hand
        for duty in self.duties(state, p, hand):
            allowed = duty[2]
            for c in bits(legal & ~allowed):
                refused[c] = self.duty_error(state, p, duty, c)
            legal &= allowed
        # A card placed nowhere is his once he plays it: ``check_card`` with it placed
        # in his hand finds it where it must be and judges it by the duties of his hand
        # holding it, which read nothing else that the placing changes where
        # ``plays_face_down`` is None (``duties``).
        for c in bits(may_hold):
            broken = self.duty_refusal(state, p, hand | 1 << c, c)
            if broken is None:
                legal |= 1 << c
            else:
                refused[c] = broken
        return legal, refused

    # --- table view ---------------------------------------------------------------
    # What the table view asks of the game; each move it offers is judged by the rule
    # every such event goes through (with the knowledge it adds, where it adds any:
    # ``Trial``), so these hooks only say which moves to judge and where the game's own
    # fields are.

    def probed_blank(self, state: GameState, event: Event) -> int | None:
        """The card that ``event``, tried after ``state``, names as the card turned face
        down, as ``find_blank`` reads it in a record: its index (-1 for a code that is
        no card), or None where it names none. None by default."""
        return None

    def plays_face_down(self, state: GameState, p: int) -> bool | None:
        """Whether ``p``'s next play may be a card turned face down (``"turned":
        true``): None where no card of his is (his plays are judged by ``check_card``
        alone), False once he has played it, True while he still may. Each of his
        cards is then judged face up and face down, each with the knowledge its play
        adds (``check_card``, then ``face_error``). None by default."""
        return None

    def offers(self, state: GameState, trial: Trial) -> dict[str, Any]:
        """The moves of the game's own phases open after ``state`` (not decided), each
        tried with ``trial``, as fields of ``engine.legal.Legal`` (``raises``,
        ``can_end_raising``, ``calls``, ``bids``, ``can_pass``, ``can_join``); the
        cards are the view's. None by default."""
        return {}

    def tally_refusal(self, state: GameState, event: Event) -> Illegal | None:
        """Why the ``tally`` ``event`` (its fields' kinds checked, its players seated)
        may not stand after ``state`` (in the play phase, not decided, the knowledge its
        partner adds placed), or None: the ``Illegal`` of ``tally_outcome``."""
        outcome = self.tally_outcome(state, event)
        return outcome if isinstance(outcome, Illegal) else None

    def tally_outcome(self, state: GameState, event: Event) -> object:
        """The rule every tally goes through (the game's tally handler, and the view's
        offer by ``tally_refusal``): an ``Illegal`` where the ``tally`` ``event`` may
        not stand after ``state``, else what it says (the game's own value). None (no
        refusal) by default."""
        return None

    def tally_offer(self, states: Sequence[GameState], trial: Trial) -> dict[str, Any] | None:
        """What a ``tally`` may say after ``states`` (the record's
        state, or one per candidate partner still possible; in the play phase, not
        decided): ``kind``, ``fields`` and ``needs_outcome`` (``TableView.tally``), or
        None when none may stand now. None by default."""
        return None

    def view_fields(
        self, state: GameState, result: Result, *, partner_known: bool
    ) -> dict[str, Any]:
        """The game's own ``TableView`` fields after ``state`` (dealt), whose ``result``
        the view shows (``partner_known``: ``state`` is the only candidate left), and
        any shared field the game reads otherwise (``to_act``). None by default."""
        return {}

    # --- statistics ------------------------------------------------------------------
    # Does the game have a raising (Fahren) whose chances the statistics count?
    has_raising: ClassVar[bool] = False

    def raise_open(self, state: GameState) -> str | None:
        """The level the next ``raise`` would say after ``state``, or None where no
        raise may come now (before the call, the raising over, the game decided, past
        the last level). None by default."""
        return None

    def may_raise(self, state: GameState, p: int) -> bool:
        """May active player ``p`` say the next level (``raise_open``) now? False by
        default."""
        return False

    def raising_recorded(self, state: GameState) -> bool:
        """Does the record of ``state`` (the end of a finished game) hold its raising
        (not a pure tally, which says only the level reached)? False by default."""
        return False

    def card_board(self, state: GameState) -> Board | None:
        """A copy of the card play's board after ``state`` (in the play, decided or not:
        the analysis plays a deal out) with every hand set (``set_hands``) and no pushes
        to undo, or None before the play or where a hand is not known."""
        board = state.board
        know = state.know
        if board is None or know is None or not self.board_stands(state):
            return None
        if not all([know.full(q) for q in range(board.n)]):
            return None
        board = board.copy()
        board.stack = []
        self.set_hands(board, state)
        return board

    def board_stands(self, state: GameState) -> bool:
        """Does the state's board, its hands set, stand for the deal (``card_board``)?
        True by default."""
        return True

    def set_hands(self, board: Board, state: GameState) -> None:
        """Set ``board``'s hands (the state's own or a copy of it) from the knowledge
        of ``state``: each player's cards not played yet that the record places in his
        hand (all of them where every hand is known: ``card_board``)."""
        know = state.know
        table = state.table
        assert know is not None and table is not None
        left = table.deck & ~state.played  # (a positive mask: ``&`` on it stays fast)
        board.hands = [hand & left for hand in know.known]

    # The complete tricks before which ``fold_board`` is never asked (it would say None).
    board_from: ClassVar[int] = 0

    def fold_board(self, state: GameState) -> Board | None:
        """``state.board`` with its hands set (``set_hands``), for the fold to push the
        plain plays after ``state`` on, or None where the play of a card still decides
        more than the card play (the game's own facts that ``play`` settles card by
        card); ``replay.fold`` then goes on card by card. None by default.

        A hand the record shows in part serves as well as a whole one: a plain play
        places its card in the player's hand (the knowledge is the whole record's), so
        the board judges it on the cards the record places in his hand, as
        ``check_card`` does; a card it refuses goes to ``play``."""
        return None

    def board_ended(self, state: GameState) -> None:
        """Decide ``state`` (in place) after a trick that ends the card play
        (``Board.ends_play``) was pushed on its board by the fold's board phase, as the
        game's ``play`` decides it after that card."""
        raise NotImplementedError

    def values(self, rules: Mapping[str, Any]) -> dict[str, int]:
        """The value of the game under ``rules`` at each level or contract it may be
        played at, as the pages list them (``TableView.values``). None by default."""
        return {}

    def trick_augen(self, cards: int) -> int | None:
        """The Augen of a trick's ``cards`` (a mask), or None where the game counts
        none. None by default."""
        return None


class Trial(Protocol):
    """What the view's hooks read of the record beyond the state: the cards the view
    offers, and the partners a tally appended as the next event may name (judged by
    ``tally_refusal`` with the knowledge that tally adds). The table view implements
    it (``engine.view``), which the games cannot import."""

    # The cards the view offers the player to act (``Legal.cards``), found before the
    # hooks are asked; empty where the view tries no cards.
    playable: Sequence[str]

    def tally_partners(self, states: Sequence[GameState], fields: Event) -> list[str]:
        """The players a ``tally`` of ``fields`` (accepted after some of ``states``)
        may name as the ``partner``, in seat order."""
        ...


# ----------------------------------------------------------------------------- helpers


def awaiting_partner(result: Result) -> Result:
    """What is known while the result depends on who the partner is: ``result`` is
    the first surviving candidate's."""
    return waiting_for_partner(
        result.game,
        result.contract,
        result.declarers[:1] if result.declarers else result.declarers,
        result.level,
        result.has_level,
        result.tricks,
    )


def waiting_for_partner(
    game: str | None,
    contract: str | None,
    declarers: tuple[str, ...] | None,
    level: str | None,
    has_level: bool,
    tricks: int | None,
) -> Result:
    """``Result(status="in_progress", ..., awaiting="partner")`` with these fields."""
    fields = (game, contract, declarers, level, has_level)
    return Result("in_progress", *fields, tricks=tricks, awaiting="partner")


def name_of(state: GameState, p: int) -> str:
    assert state.table is not None
    return state.table.active[p]


def check_event_shape(variant: Variant, event: object) -> tuple[str, EventSpec]:
    """Raise ``malformed_event`` unless ``event`` is an object of a known type with
    exactly the allowed fields of the right JSON types."""
    if not isinstance(event, dict):
        raise Illegal(Code.MALFORMED_EVENT, Msg.EVENT_NOT_OBJECT, rvalue=event)
    typ = event.get("type")
    if not isinstance(typ, str) or (spec := variant.events.get(typ)) is None:
        raise Illegal(Code.MALFORMED_EVENT, Msg.UNKNOWN_EVENT_TYPE, rtype=typ, rgame=variant.name)
    # The usual event passes with set comparisons of its keys (in C) and its few typed
    # fields; any other is walked field by field, which words the first problem.
    keys = event.keys()
    if type(event) is dict and keys <= spec.allowed and keys >= spec.required_set:
        for key, kind in spec.checked:
            if key in event:
                value = event[key]
                if type(kind) is type:
                    if type(value) is not kind:
                        break
                elif not kind(value):
                    break
        else:
            return typ, spec
    return typ, _walk_event_shape(typ, spec, event)


def _walk_event_shape(typ: str, spec: EventSpec, event: dict[Any, Any]) -> EventSpec:
    """``check_event_shape`` field by field: raises for the first field (in the event's
    order) that is not allowed or malformed, then for a missing one."""
    fields = spec.fields
    for key, value in event.items():
        check = fields.get(key)
        if check is None:
            raise Illegal(Code.MALFORMED_EVENT, Msg.UNKNOWN_FIELD, type=typ, rfield=key)
        if check is not _any and not check(value):
            raise Illegal(Code.MALFORMED_EVENT, Msg.FIELD_MALFORMED, rfield=key, type=typ)
    for key in spec.required_keys:
        if key not in event:
            raise Illegal(Code.MALFORMED_EVENT, Msg.FIELD_MISSING, type=typ, rfield=key)
    return spec


def check_cards_and_player(state: GameState, event: Event, spec: EventSpec) -> None:
    """``unknown_card`` for a code outside this game's deck, then ``unknown_player``."""
    table = state.table
    assert table is not None
    deck = table.deck
    for key in spec.cards:
        code = event.get(key)
        if isinstance(code, str):
            i = INDEX.get(code)
            if i is None or not deck >> i & 1:
                raise Illegal(Code.UNKNOWN_CARD, Msg.NOT_IN_DECK, rcard=code)
    for key in spec.card_lists:
        for code in event.get(key, ()):
            i = INDEX.get(code)
            if i is None or not deck >> i & 1:
                raise Illegal(Code.UNKNOWN_CARD, Msg.NOT_IN_DECK, rcard=code)
    player = event.get("player")
    if isinstance(player, str) and player not in table.index:
        _unknown_player(table, player)
    for key in spec.players:
        name = event.get(key)
        if isinstance(name, str) and name not in table.index:
            _unknown_player(table, name)
    for key in spec.player_lists:
        for name in event.get(key, ()):
            if name not in table.index:
                _unknown_player(table, name)


def _unknown_player(table: Table, player: str) -> None:
    if player == table.sitting_out:
        raise Illegal(Code.UNKNOWN_PLAYER, Msg.SITS_OUT, player=player)
    raise Illegal(Code.UNKNOWN_PLAYER, Msg.NOT_PLAYING, rplayer=player)


# ``placed_at`` of fully dealt hands, per (dealt cards, deal index).
_PLACED_AT_DEAL: dict[tuple[int, int], tuple[int, ...]] = {}


def gather_knowledge(
    variant: Variant, table: Table, deal: Event, events: list[tuple[int, Event]], deal_index: int
) -> Knowledge:
    """One pass in record order: the first event placing a card decides where it is.

    A deal listing every hand places every card; any other record is walked
    forwards, event by event (``_gather_each``)."""
    dealt = table.dealt
    if len(dealt) == len(table.active) and 0 not in dealt:
        # Every hand was dealt in the record (each listed hand is six valid cards): the
        # deal placed every card first, and no later event can change where a card is.
        by_card = table.dealt_owner
        if not by_card:
            full = [-1] * 32
            index = table.index
            for name, codes in deal["hands"].items():
                p = index[name]
                for code in codes:
                    full[INDEX[code]] = p
            by_card = tuple(full)
        # Where each card was placed depends only on which cards were dealt and when.
        cards = sum(dealt)  # the hands are disjoint: their sum is their union
        placed = _PLACED_AT_DEAL.get((cards, deal_index))
        if placed is None:
            placed = tuple([NEVER if q < 0 else deal_index for q in by_card])
            if len(_PLACED_AT_DEAL) < 256:
                _PLACED_AT_DEAL[cards, deal_index] = placed
        return Knowledge(by_card, dealt, placed, variant.find_blank(events, table))
    return _gather_each(variant, table, events, deal_index)


def _gather_each(
    variant: Variant, table: Table, events: list[tuple[int, Event]], deal_index: int
) -> Knowledge:
    """``gather_knowledge`` event by event, the dealt hands first: each placement is
    tested (a seated player, a card of the deck not placed yet, a hand not yet full)."""
    owner = [-1] * 32
    known = [0] * table.n
    placed_at = [NEVER] * 32
    for p, mask in enumerate(table.dealt):
        known[p] = mask
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            owner[c] = p
            placed_at[c] = deal_index
            mask ^= low
    placing = variant.placing_types
    index = table.index
    deck = table.deck
    for i, event in events:
        # Subscripts, not ``get``: an event that is no object, lacks a field or has one
        # of a kind no name or code can be (a KeyError or TypeError) places nothing.
        try:
            typ = event["type"]
            if typ == "play":
                # The usual event: its card in its player's hand (``Variant.placements``
                # of a play, the same in every game), placed as ``place`` places it.
                name = event["player"]
                code = event["card"]
                p = index.get(name, -1) if type(name) is str else -1
                c = INDEX.get(code, -1) if type(code) is str else -1
                if (
                    p >= 0
                    and c >= 0
                    and deck >> c & 1
                    and owner[c] < 0
                    and known[p].bit_count() < 6
                ):
                    owner[c] = p
                    known[p] |= 1 << c
                    placed_at[c] = i
                continue
            if typ == "tally":
                pairs: list[tuple[str, str]] = variant.tally_placements(event, events, i)
            elif type(typ) is not str or typ not in placing:
                continue
            else:
                pairs = variant.placements(event, table)
        except (KeyError, TypeError, AttributeError):
            continue
        place(table, pairs, i, owner, known, placed_at)
    blank = variant.find_blank(events, table)
    return Knowledge(tuple(owner), tuple(known), tuple(placed_at), blank)


def _knowledge(owner: list[int], known: list[int], placed_at: list[int], blank: int) -> Knowledge:
    """``Knowledge`` of these lists (as tuples), its slots set directly: without the
    frozen ``__init__``'s keyword matching, once per record."""
    new = _new_object(Knowledge)
    _set_attr(new, "owner", tuple(owner))
    _set_attr(new, "known", tuple(known))
    _set_attr(new, "placed_at", tuple(placed_at))
    _set_attr(new, "blank", blank)
    return new


def place(
    table: Table,
    pairs: list[tuple[str, str]],
    i: int,
    owner: list[int],
    known: list[int],
    placed_at: list[int],
) -> bool:
    """Put each card of ``pairs`` (player name, card code) in that hand as placed by
    event ``i``, where hindsight allows: a seated player, a card of the deck, not placed
    before, a hand not yet full (a later, conflicting placement is not made: that event
    is the illegal one). True if any card was placed."""
    index = table.index
    deck = table.deck
    changed = False
    for name, code in pairs:
        p = index.get(name, -1) if type(name) is str else -1
        c = INDEX.get(code, -1) if type(code) is str else -1
        if p < 0 or c < 0 or not deck >> c & 1 or owner[c] >= 0 or known[p].bit_count() >= 6:
            continue
        owner[c] = p
        known[p] |= 1 << c
        placed_at[c] = i
        changed = True
    return changed


def check_placement(state: GameState, p: int, card: int, *, show: bool = False) -> None:
    """Raise ``placement_error``, if any."""
    broken = placement_error(state, p, card, show=show)
    if broken is not None:
        raise broken


def placement_error(state: GameState, p: int, card: int, *, show: bool = False) -> Illegal | None:
    """``card_already_played`` / ``card_not_in_hand`` for an event putting ``card`` in
    ``p``'s hand (``show``: a ``show``, for which a card shown before counts too):
    ``placement_errors`` of the one card."""
    return placement_errors(state, p, 1 << card, show=show).get(card)


def placement_errors(
    state: GameState, p: int, cards: int, *, show: bool = False
) -> dict[int, Illegal]:
    """The error of each card of ``cards`` (a mask) that an event putting it in ``p``'s
    hand would break the rule of where the cards are with (the table view judges a
    whole deck at once; ``placement_error`` one card).

    A card played before is ``card_already_played`` wherever the record puts it (the
    spec's exception to ``card_not_in_hand``); a card only shown before is that only
    when no other hand holds it: otherwise both rules are broken and the first code in
    the table, ``card_not_in_hand``, wins."""
    know = state.know
    table = state.table
    assert know is not None and table is not None
    names = table.active
    player = names[p]
    played = state.played
    shown = state.shown if show else 0
    owner = know.owner
    placed_at = know.placed_at
    errors: dict[int, Illegal] = {}
    while cards:
        low = cards & -cards
        cards ^= low
        card = low.bit_length() - 1
        code = CODES[card]
        if played & low:
            errors[card] = _illegal(
                _ALREADY_PLAYED, _MSG_ALREADY_PLAYED, {"card": code, "player": player}
            )
        elif owner[card] != p:
            holder = owner[card]
            if holder >= 0 and placed_at[card] < NEVER:
                errors[card] = _illegal(
                    _NOT_IN_HAND,
                    _IN_ANOTHER_HAND,
                    {"player": player, "card": code, "other": names[holder]},
                )
            else:
                errors[card] = _illegal(
                    _NOT_IN_HAND, _HAND_ALREADY_FULL, {"player": player, "card": code}
                )
        elif shown & low:
            errors[card] = _illegal(
                _ALREADY_PLAYED, _ALREADY_SHOWN, {"card": code, "player": player}
            )
    return errors


def _illegal(code: Code, msg: Msg, params: dict[str, Any]) -> Illegal:
    """``Illegal(code, msg, **params)``, made without the class call (whose keywords
    cost as much as the rest of ``placement_errors``: the table view words a placement
    error for most cards of the deck)."""
    e = _new_illegal(Illegal, code, msg)  # ``args`` as the class call keeps them
    e.code = code
    e.msg = msg
    e.params = params
    e.field = None
    return e


_new_illegal = Illegal.__new__


# Plain names: an enum member's lookup costs several times a global's, and the table
# view words a placement error for most cards of the deck.
_ALREADY_PLAYED, _NOT_IN_HAND = Code.CARD_ALREADY_PLAYED, Code.CARD_NOT_IN_HAND
_MSG_ALREADY_PLAYED, _ALREADY_SHOWN = Msg.ALREADY_PLAYED, Msg.ALREADY_SHOWN
_IN_ANOTHER_HAND, _HAND_ALREADY_FULL = Msg.IN_ANOTHER_HAND, Msg.HAND_ALREADY_FULL


def check_hands(event: Event, table: Table) -> Table:
    """Validate the deal's ``hands`` (``unknown_card``, then ``invalid_deal``) and return
    the table with each listed hand as a bitmask."""
    hands = event.get("hands")
    if hands is None:
        return table
    if type(hands) is not dict:
        raise Illegal(Code.INVALID_DEAL, Msg.HANDS_NOT_OBJECT)
    deck = table.deck
    dealt = [0] * len(table.active)
    index = table.index
    seen = 0
    owner = [-1] * 32
    try:
        # The usual case: every hand is six known codes of the deck, no card twice.
        for name, cards in hands.items():
            if type(cards) is not list:  # an object of six codes would unpack too
                raise TypeError
            # Six codes or a ValueError; an unknown code is a KeyError.
            c1, c2, c3, c4, c5, c6 = cards
            i1, i2, i3, i4, i5, i6 = (
                INDEX[c1],
                INDEX[c2],
                INDEX[c3],
                INDEX[c4],
                INDEX[c5],
                INDEX[c6],
            )
            mask = 1 << i1 | 1 << i2 | 1 << i3 | 1 << i4 | 1 << i5 | 1 << i6
            p = index[name]
            dealt[p] = mask
            seen |= mask
            owner[i1] = owner[i2] = owner[i3] = owner[i4] = owner[i5] = owner[i6] = p
    except (LookupError, TypeError, ValueError):
        pass  # the careful walk finds the problem and names it
    else:
        # Each hand has at most six cards: six cards to a hand in all only if no hand
        # repeats a card and no card is dealt twice.
        if seen.bit_count() == 6 * len(hands) and not seen & ~deck:
            return table.with_hands(
                tuple(dealt), tuple(owner) if 0 not in dealt else table.dealt_owner
            )
    return _walk_hands(hands, table)


def _walk_hands(hands: dict[Any, Any], table: Table) -> Table:
    """``check_hands`` hand by hand and card by card: raises for the first problem (an
    unknown card in any hand before any ``invalid_deal``)."""
    deck = table.deck
    masks: dict[str, int] = {}
    dealt = [0] * len(table.active)
    for name, cards in hands.items():
        if type(cards) is not list:
            raise Illegal(Code.INVALID_DEAL, Msg.HAND_NOT_LIST, player=name)
        mask = 0
        for code in cards:
            i = INDEX.get(code, -1) if type(code) is str else -1
            if i < 0 or not deck >> i & 1:
                raise Illegal(Code.UNKNOWN_CARD, Msg.HAND_CARD_NOT_IN_DECK, rcard=code, player=name)
            mask |= 1 << i
        masks[name] = mask
    seen = 0
    for name, cards in hands.items():
        p = table.index.get(name, -1)
        if p < 0:
            raise Illegal(Code.INVALID_DEAL, Msg.HAND_OF_NON_PLAYER, rplayer=name)
        mask = masks[name]
        if len(cards) != 6 or mask.bit_count() != 6:
            raise Illegal(Code.INVALID_DEAL, Msg.HAND_NOT_SIX, player=name)
        if seen & mask:
            raise Illegal(Code.INVALID_DEAL, Msg.CARD_DEALT_TWICE)
        seen |= mask
        dealt[p] = mask
    return table.with_hands(tuple(dealt), table.dealt_owner)


def worse_error(a: EngineError, b: EngineError) -> EngineError:
    """The error reported when every candidate fails: the largest index, then the
    first code in the table."""
    if a.index != b.index:
        return a if a.index > b.index else b
    return a if CODE_RANK[a.code] <= CODE_RANK[b.code] else b


def tally_partner_refusal(table: Table, know: Knowledge, called: int, name: str) -> Illegal | None:
    """A tally's ``partner`` must be able to hold the called card: ``invalid_tally`` on
    the field when the record puts the card in another hand or shows all of his."""
    holder = know.owner[called]
    if holder != table.index[name]:
        msg = Msg.PARTNER_CALLED_ELSEWHERE if holder >= 0 else Msg.PARTNER_HAND_FULL
        other = table.active[holder] if holder >= 0 else name
        return Illegal(
            Code.INVALID_TALLY, msg, field="partner", player=name, card=CODES[called], other=other
        )
    return None
