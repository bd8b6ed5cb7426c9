"""Fuchsen (spec/fuchsen.md): the call, Fahren in the first trick, the Fuchs, payouts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, Self

from engine.board import Board
from engine.cards import CODES, INDEX, SUITS, bits, mask_of, suit_of
from engine.core import (
    COMMON_EVENTS,
    Decision,
    Duty,
    Event,
    EventSpec,
    GameState,
    Illegal,
    Knowledge,
    NeedPartner,
    Table,
    Trial,
    Variant,
    _any,
    _is_bool,
    _is_int,
    _is_str,
    _is_str_or_bool,
    _is_str_or_none,
    name_of,
    placement_error,
    tally_partner_refusal,
)
from engine.errors import Code, Msg
from engine.legal import CallOptions
from engine.result import EngineError, Result
from engine.rules import FUCHSEN_LEVELS, REMOVABLE_CARDS
from engine.tricks import add_card, on_table

__all__ = [
    "TRUMP_CODES",
    "Fuchsen",
    "FuchsenBoard",
    "FuchsenState",
    "deck_rows",
    "obligations",
    "table_deck",
]

TRUMP = 4
NO_SUIT = -1
EO = INDEX["EO"]
GO = INDEX["GO"]

TRUMP_CODES = ("EO", "GO", "EU", "GU", "SU", "RU", "RA", "R10", "RK", "RO", "R9", "R8", "R7")
TRUMPS = mask_of(TRUMP_CODES)
_PLAIN_POWER = {"A": 7, "10": 6, "K": 5, "O": 4, "9": 3, "8": 2, "7": 1}
_AUGEN_BY_RANK = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0}

# Per card index: class (0 E, 1 G, 3 S, 4 trump) and power within its class.
CLASS: tuple[int, ...]
POWER: tuple[int, ...]
AUGEN: tuple[int, ...]
_cls: list[int] = []
_pow: list[int] = []
_aug: list[int] = []
for _i, _code in enumerate(CODES):
    _rank = _code[1:]
    if _code in TRUMP_CODES:
        _cls.append(TRUMP)
        _pow.append(100 + len(TRUMP_CODES) - TRUMP_CODES.index(_code))
    else:
        _cls.append(suit_of(_i))
        _pow.append(_PLAIN_POWER.get(_rank, 0))
    _aug.append(4 if _code == "EO" else _AUGEN_BY_RANK[_rank])
CLASS, POWER, AUGEN = tuple(_cls), tuple(_pow), tuple(_aug)
CLASS_MASK: tuple[int, ...] = tuple(
    sum(1 << i for i in range(32) if CLASS[i] == k) for k in range(5)
)
# Per power a card must beat: the cards of higher power, of any class (the last entry,
# read as ``_ABOVE[-1]``, is every card).
_ABOVE: tuple[int, ...] = (
    *[sum(1 << c for c in range(32) if POWER[c] > key) for key in range(max(POWER) + 1)],
    (1 << 32) - 1,
)
_EICHEL, _GRUEN, _SCHELLEN = CLASS_MASK[0], CLASS_MASK[1], CLASS_MASK[3]
CLASS_NAME = {0: "Eichel", 1: "Grün", 3: "Schellen", TRUMP: "trump"}
NO_SEVENS_EIGHTS = mask_of(c for c in CODES if c.endswith(("7", "8")))
FULL_DECK = (1 << 32) - 1
LOW_PLAIN = mask_of(c for c in CODES if c[1:] in ("7", "8") and c not in TRUMP_CODES)
PLAIN = FULL_DECK & ~TRUMPS


_ABSENT = object()  # a field the deal leaves out (unlike one that is null)

LEVEL_NUMBER: dict[str, int] = {name: k + 1 for k, name in enumerate(FUCHSEN_LEVELS)}


@dataclass
class FuchsenState(GameState):
    """A Fuchsen game after some events (see ``GameState`` for the shared fields)."""

    macher: int = -1
    hilfer: int = -1  # holder of the called card (or the assumed candidate); -1 alone
    alone: bool = False
    own_card: bool = False  # call_own_card and the Macher holds his called card
    called: int = -1
    called_suit: int = NO_SUIT
    turned: bool = False
    blank_played: bool = False
    level: int = 0
    said_at: tuple[int, ...] = ()  # event index where level k was said; [0] the call
    raising_ended: bool = False
    fuchs_said: bool = False
    tallied: bool = False  # a tally decided the game: it said whether "Fuchs" was said
    tally_augen: int = -1  # the Augen of the Macher's side the tally gave, or -1
    # The event index of the first raise of the Macher's side by the Hilfer (which shows
    # who the Hilfer is, for a forgotten Fuchs at a tally), or -1.
    hilfer_raised: int = -1
    # Set with the decision: Stilles Spiel in a game decided by play, else None.
    silent: bool | None = None
    # Hindsight rule 4 in one fold: the record never places the called card, and the
    # fold stands for all these candidate partners (a mask of seats) at once, to end
    # through ``NeedPartner`` (``open_partner``); 0 in a candidate's own fold.
    candidates: int = 0
    # Those not yet refused while no event has read which of them holds the card; 0
    # once one is left, assumed in place (``hilfer``).
    pending: int = 0
    # The candidates an event refused while the others went on: each seat with its
    # last good state and its error (``NeedPartner.done``).
    refused: tuple[tuple[int, GameState, EngineError], ...] = ()


@cache  # a value per (blank, its class): a handful per process
def ranking(blank: int, blank_class: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Fuchsen's ranking in the card play (the board's ``led_of``/``keys``):
    per card the class a trick it leads follows, and per class followed (``NO_SUIT``
    last: none yet) each card's key. ``blank`` is the Macher's turned card (-1: none, or
    not identified), ``blank_class`` its class: the called suit, in which it is the
    lowest card, or ``NO_SUIT`` in an alone game (it cannot win, and a trick it leads
    follows the next card's class)."""
    led_of = tuple(blank_class if c == blank else CLASS[c] for c in range(32))
    rows = []
    for led in (0, 1, 2, 3, TRUMP, NO_SUIT):
        row = []
        for c in range(32):
            if c == blank:
                row.append(0 if led == blank_class and led != NO_SUIT else -1)
            elif CLASS[c] in (TRUMP, led):
                row.append(POWER[c])
            else:
                row.append(-1)
        rows.append(tuple(row))
    return led_of, tuple(rows)


class Fuchsen(Variant):
    """Fuchsen with 4 or 5 active players (6 seated: one sits out)."""

    name: ClassVar[str] = "fuchsen"
    play_not_open: ClassVar[Msg] = Msg.PLAYED_BEFORE_MACHER_HAS_CALLED

    def __init__(self) -> None:
        super().__init__()
        # The house rules the seating depends on, for the latest rules object seen
        # (held here, so that ``is`` cannot confuse it with a later object).
        self._rules_last: tuple[Mapping[str, Any] | None, tuple[Any, ...]] = (None, ())
        # The state before the call, copied for each deal (``initial_state``): callgrind
        # counts ~40,000 instructions a record fewer than the dataclass ``__init__`` of
        # its ~30 fields (the fold's later attribute loads included).
        self._prototype = FuchsenState.prototype(variant=self, rules={}, phase="call")

    events: ClassVar[dict[str, EventSpec]] = {
        **COMMON_EVENTS,
        "deal": EventSpec(
            # ``_any``: the shape check skips these (validate_deal judges them).
            {"dealer": _any, "players": _any},
            {"hands": _any, "removed": _any, "sitting_out": _any},
        ),
        "play": EventSpec(
            {"player": _is_str, "card": _is_str},
            {"fuchs": _is_bool, "turned": _is_bool},
            cards=("card",),
        ),
        "call": EventSpec(
            {"player": _is_str},
            {"card": _is_str, "turned": _is_str_or_bool, "alone": _is_bool},
            cards=("card", "turned"),
        ),
        "raise": EventSpec({"player": _is_str, "level": _is_str}, {}),
        "end_raising": EventSpec({}, {}),
        "tally": EventSpec(
            {},
            {
                "level": _is_str_or_none,
                "won": _is_bool,
                "augen": _is_int,
                "silent": _is_bool,
                "fuchs": _is_bool,
                "partner": _is_str,
            },
            players=("partner",),
        ),
    }

    # ------------------------------------------------------------------ shape extras
    def check_shape(self, typ: str, event: Event) -> None:
        if typ == "call" and "card" not in event and event.get("alone") is not True:
            raise Illegal(Code.MALFORMED_EVENT, Msg.CALL_WITHOUT_CARD)

    # ------------------------------------------------------------------ deal
    def seat_key(self, event: Event, rules: Mapping[str, Any]) -> tuple[Any, ...]:
        last = self._rules_last
        if last[0] is not rules:
            last = (rules, (rules["sit_out"], tuple(rules["removed_cards"])))
            self._rules_last = last  # one assignment: safe between threads
        removed = event.get("removed", _ABSENT)
        return (
            event["dealer"],
            event.get("sitting_out", _ABSENT),
            tuple(removed) if type(removed) is list else removed,
            last[1],
            *event["players"],
        )

    def seats(self, event: Event, rules: Mapping[str, Any]) -> Table:
        players = event["players"]
        dealer = event["dealer"]
        if not isinstance(players, list) or not 4 <= len(players) <= 6:
            raise Illegal(Code.INVALID_DEAL, Msg.FUCHSEN_SEATS)
        if not all(isinstance(p, str) and p for p in players):
            raise Illegal(Code.INVALID_DEAL, Msg.EMPTY_NAME)
        if len(set(players)) != len(players):
            raise Illegal(Code.INVALID_DEAL, Msg.SEATED_TWICE)
        if not isinstance(dealer, str) or dealer not in players:
            raise Illegal(Code.INVALID_DEAL, Msg.DEALER_NOT_SEATED, rplayer=dealer)
        sitting_out: str | None = None
        named = event.get("sitting_out")
        if len(players) == 6:
            if rules["sit_out"] == "named":
                if not isinstance(named, str) or named not in players:
                    raise Illegal(Code.INVALID_DEAL, Msg.SIX_SEATED_SIT_OUT_NAMED)
                sitting_out = named
            else:
                if named is not None and named != dealer:
                    raise Illegal(Code.INVALID_DEAL, Msg.SIT_OUT_DEALER_DEALER_SITS)
                sitting_out = dealer
        elif named is not None:
            raise Illegal(Code.INVALID_DEAL, Msg.SIX_SEATED_DOES_PLAYER_SIT)
        seat = players.index(dealer)
        order = players[seat + 1 :] + players[: seat + 1]
        active = tuple(p for p in order if p != sitting_out)
        # ``active`` starts with the first active player after the dealer (he leads).
        seated_active = tuple(p for p in players if p != sitting_out)
        index = {name: i for i, name in enumerate(seated_active)}
        first = index[active[0]]
        removed = 0
        if len(seated_active) == 5:
            given = event.get("removed", rules["removed_cards"])
            if not isinstance(given, list) or len(given) != 2:
                raise Illegal(Code.INVALID_DEAL, Msg.DEAL_REMOVES_EXACTLY_TWO)
            for code in given:
                if not isinstance(code, str) or code not in INDEX:
                    raise Illegal(Code.UNKNOWN_CARD, Msg.NOT_A_CARD, rcard=code)
            if given[0] == given[1] or not all(code in REMOVABLE_CARDS for code in given):
                raise Illegal(
                    Code.INVALID_DEAL,
                    Msg.REMOVED_ARE_TWO_DIFFERENT_ZERO,
                    cards=" ".join(REMOVABLE_CARDS),
                )
            removed = mask_of(given)
            deck = table_deck(5, given)
        else:
            if "removed" in event:
                raise Illegal(Code.INVALID_DEAL, Msg.ARE_REMOVED_FIVE_ACTIVE_PLAYERS)
            deck = table_deck(len(seated_active), ())
        table = Table(
            players=tuple(players),
            active=seated_active,
            dealer=dealer,
            sitting_out=sitting_out,
            index=index,
            deck=deck,
            removed=removed,
            first=first,
        )
        return table

    def initial_state(
        self, rules: Mapping[str, Any], assumed: int, table: Table, know: Knowledge
    ) -> GameState:
        n = len(table.active)
        state = self._prototype.copy()
        state.rules = rules
        state.table = table
        state.know = know
        state.assumed = assumed
        state.to_act = know.owner[EO]
        state.first_play = (-1,) * n
        return state

    # ------------------------------------------------------------------ knowledge
    placing_types: ClassVar[frozenset[str]] = frozenset({"play", "show", "call"})

    def placements(self, event: Event, table: Table) -> list[tuple[str, str]]:
        typ = event["type"]
        if typ == "call":
            turned = event.get("turned")
            if isinstance(turned, str):
                return [(event["player"], turned)]
            return []
        return super().placements(event, table)

    def find_blank(self, events: list[tuple[int, Event]], table: Table) -> int:
        macher: str | None = None
        for _, event in events:
            if not isinstance(event, dict):
                continue
            typ = event.get("type")
            if typ == "call" and macher is None:
                macher = event.get("player")
                blank = _named_blank(event, None)
                if blank is not None:
                    return blank
                if event.get("turned") is not True:
                    return -1
            elif typ == "play" and macher is not None:
                blank = _named_blank(event, macher)
                if blank is not None:
                    return blank
        return -1

    # ------------------------------------------------------------------ events
    def handle(self, state: GameState, event: Event, index: int) -> None:
        assert isinstance(state, FuchsenState)
        typ = event["type"]
        if typ == "raise":  # three or four in a usual record
            self._raise(state, event, index)
        elif typ == "play":
            table = state.table
            assert table is not None
            self.play(state, table.index[event["player"]], INDEX[event["card"]], event, index)
        elif typ == "end_raising":
            self._end_raising_event(state, index)
        elif typ == "call":
            self._call(state, event, index)
        elif typ == "forfeit":
            self._forfeit(state, event, index)
        elif typ == "tally":
            self._tally(state, event, index)
        else:
            raise AssertionError(typ)  # pragma: no cover

    def tally_placements(
        self, event: Event, events: list[tuple[int, Event]], index: int
    ) -> list[tuple[str, str]]:
        """The tally's ``partner`` holds the card the call (the first one) named."""
        partner = event.get("partner")
        if type(partner) is not str:
            return []
        for i, before in events:
            if i >= index:
                break
            if type(before) is dict and before.get("type") == "call":
                card = before.get("card")
                if type(card) is str and before.get("alone") is not True:
                    return [(partner, card)]
                break
        return []

    def _tally(self, state: FuchsenState, event: Event, index: int) -> None:
        """What the table counted (event-stream.md, "The tally"): a pure tally before
        anything of the first trick, or a late one after the raising ended."""
        self._partner_read(state)
        outcome = self.tally_outcome(state, event)
        if isinstance(outcome, Illegal):
            raise outcome
        level, fuchs, early, won, augen, silent = outcome
        # The state the tally's outcome is judged on: the level reached, the Fuchs said
        # or not, the raising over.
        state.level = level
        state.fuchs_said = fuchs
        state.raising_ended = state.tallied = True
        value = self._value(state)
        if early:
            self._decide(state, "no_kontra" if won else "no_re", won, value)
        else:
            if silent:
                value += int(state.rules["silent_bonus"])
            state.tally_augen = augen
            self._decide(state, "tally", won, value, augen, silent)
        self._after(state, index)

    def tally_outcome(  # type: ignore[override]
        self, state: FuchsenState, event: Event
    ) -> Illegal | tuple[int, bool, bool, bool, int, bool]:
        """The rule every tally goes through (``_tally``), which the view's tally offer
        asks too: why the ``tally`` ``event`` (its fields' kinds checked) may not stand
        after ``state``, or what it says: the level reached, the Fuchs said, whether the
        game ended after the first trick (no kontra, no re), won, the Augen (-1: not
        given) and Stilles Spiel. A tally's partner is read against the knowledge of
        ``state`` (in which the tally has placed him, ``Variant.tally_placements``)."""
        if state.phase == "call":
            return Illegal(Code.OUT_OF_ORDER, Msg.TALLY_COMES_AFTER_CALL)
        if on_table(state):
            return Illegal(Code.OUT_OF_ORDER, Msg.TALLY_COMES_BETWEEN_TRICKS_TRICK)
        pure = not state.tricks_done
        if not pure and not state.raising_ended:
            return Illegal(Code.OUT_OF_ORDER, Msg.TALLY_DOES_END_RAISING_RAISING)
        table = state.table
        know = state.know
        assert table is not None and know is not None
        level = state.level
        if "level" in event:
            said = event["level"]
            if not pure:
                return Illegal(Code.INVALID_TALLY, Msg.TALLY_AFTER_FIRST_TRICK_GIVES, field="level")
            if said is not None and said not in LEVEL_NUMBER:
                return Illegal(Code.INVALID_TALLY, Msg.UNKNOWN_LEVEL, rlevel=said, field="level")
            level = 0 if said is None else LEVEL_NUMBER[said]
        fuchs = state.fuchs_said
        if "fuchs" in event:
            if state.alone:
                return Illegal(Code.INVALID_TALLY, Msg.ALONE_GAME_HAS_HILFER_WHO, field="fuchs")
            if not pure:
                return Illegal(Code.INVALID_TALLY, Msg.TALLY_AFTER_FIRST_TRICK_DOES, field="fuchs")
            fuchs = event["fuchs"]
            if fuchs:
                h = state.hilfer
                if h < 0:
                    return Illegal(
                        Code.INVALID_TALLY, Msg.NOBODY_CAN_HAVE_SAID_FUCHS, field="fuchs"
                    )
                name = table.active[h]
                go_holder = know.owner[GO]
                if (go_holder >= 0 and go_holder != h) or (
                    go_holder < 0 and know.full(h) and not know.known[h] >> GO & 1
                ):
                    return Illegal(
                        Code.INVALID_TALLY,
                        Msg.CANNOT_HAVE_SAID_FUCHS_RECORD,
                        player=name,
                        field="fuchs",
                    )
        if "partner" in event:
            name = event["partner"]
            if state.alone:
                return Illegal(
                    Code.INVALID_TALLY,
                    Msg.ALONE_GAME_HAS_HILFER_CANNOT,
                    player=name,
                    field="partner",
                )
            broken = tally_partner_refusal(table, know, state.called, name)
            if broken is not None:
                return broken
        has_won = "won" in event
        has_augen = "augen" in event
        if pure and ((level == 0 and not fuchs) or level == 1):
            # The game was over after the first trick: nothing more was counted.
            why = Msg.ENDED_NO_KONTRA if level == 0 else Msg.ENDED_NO_RE
            for key in ("augen", "silent"):
                if key in event:
                    return Illegal(Code.INVALID_TALLY, why, field=key, rfield=key)
            won = level == 0
            if has_won and event["won"] != won:
                text = Msg.NO_KONTRA_WON if won else Msg.NO_RE_LOST
                return Illegal(Code.INVALID_TALLY, text, field="won")
            return level, fuchs, True, won, -1, False
        # Played out: the tally says who won.
        if not has_won and not has_augen:
            return Illegal(Code.INVALID_TALLY, Msg.GAME_WAS_PLAYED_OUT_TALLY, field="won")
        augen = event["augen"] if has_augen else -1
        if has_augen and not 0 <= augen <= 121:
            return Illegal(Code.INVALID_TALLY, Msg.AUGEN_LIE_BETWEEN, rvalue=augen, field="augen")
        won = event["won"] if has_won else augen >= 61
        if has_won and has_augen and won != (augen >= 61):
            msg = Msg.AUGEN_LOSE if won else Msg.AUGEN_WIN
            return Illegal(Code.INVALID_TALLY, msg, field="augen", n=augen)
        silent = event.get("silent") is True
        if silent and not won:
            return Illegal(Code.INVALID_TALLY, Msg.STILLES_SPIEL_NEEDS_MACHER_SIDE, field="silent")
        if silent and has_augen and augen != 121:
            return Illegal(
                Code.INVALID_TALLY, Msg.STILLES_SPIEL_MACHER_SIDE_TAKES, n=augen, field="silent"
            )
        if not pure:
            broken = self._tricks_refusal(state, won, augen, silent)
            if broken is not None:
                return broken
        return level, fuchs, False, won, augen, silent

    def _tricks_refusal(
        self, state: FuchsenState, won: bool, augen: int, silent: bool
    ) -> Illegal | None:
        """Why a late tally's outcome cannot stand with the recorded tricks
        (``invalid_tally``), or None."""
        ours, theirs = _augen_won(state)
        if not won and ours >= 61:
            return Illegal(
                Code.INVALID_TALLY,
                Msg.MACHER_SIDE_RECORDED_TRICKS_ALREADY,
                n=ours,
                field="won" if augen < 0 else "augen",
            )
        if won and theirs >= 61:
            return Illegal(
                Code.INVALID_TALLY,
                Msg.OPPONENTS_RECORDED_TRICKS_ALREADY_HOLD,
                n=theirs,
                field="won" if augen < 0 else "augen",
            )
        if augen >= 0 and not ours <= augen <= 121 - theirs:
            return Illegal(
                Code.INVALID_TALLY,
                Msg.RECORDED_TRICKS_LEAVE_MACHER_SIDE,
                n=ours,
                n2=121 - theirs,
                n3=augen,
                field="augen",
            )
        if silent:
            macher, hilfer = state.macher, state.hilfer
            board = state.board
            assert board is not None
            if any(winner not in (macher, hilfer) for _, _, winner in board.history()):
                return Illegal(
                    Code.INVALID_TALLY, Msg.OPPONENTS_WON_RECORDED_TRICK_STILLES, field="silent"
                )
        return None

    def _call(self, state: FuchsenState, event: Event, index: int) -> None:
        table = state.table
        know = state.know
        assert table is not None and know is not None
        p = table.index[event["player"]]
        alone = event.get("alone") is True
        card_code = event.get("card")
        turned_field = event.get("turned")
        broken = self._call_refusal(state, p, alone, card_code, turned_field)
        if broken is not None:
            raise broken
        turned = turned_field is True or isinstance(turned_field, str)
        called = -1 if alone else INDEX[str(card_code)]
        holder = -1 if alone else know.owner[called]
        pending = 0
        if not alone and holder < 0 and state.assumed < 0:
            # Nobody known to hold the called card: every check passed without the
            # partner (``_call_refusal``), and none reads who holds it (it is no trump,
            # not turned, not the caller's). The fold goes on for every candidate at
            # once (``pending``) until an event reads who holds it (``_partner_read``).
            known = know.known
            for q in range(len(known)):
                if q != p and known[q].bit_count() < 6:
                    pending |= 1 << q
            if not pending:
                raise NeedPartner((), called)
        self._called(state, p, turned, called, holder, index)
        if pending:
            state.candidates = state.pending = pending
            assert isinstance(state.board, FuchsenBoard)
            state.board.candidates = pending

    @staticmethod
    def _called(
        state: FuchsenState, p: int, turned: bool, called: int, holder: int, index: int
    ) -> None:
        """Change ``state`` to the state after ``p``'s call (checked) of ``called``
        (-1: alone), whose holder the record knows as ``holder`` (-1: nobody)."""
        table = state.table
        know = state.know
        assert table is not None and know is not None
        blank = know.blank if turned else -1
        state.phase = "play"
        state.macher = p
        state.turned = turned
        state.to_act = table.first
        state.said_at = (index,)
        if called < 0:
            state.hilfer = -1
            state.alone = True
        else:
            own_card = holder == p
            state.hilfer = -1 if own_card else holder if holder >= 0 else state.assumed
            state.own_card = own_card
            state.called = called
            state.called_suit = CLASS[called]
        # The card play opens: its board, the hands not set (``fold_board`` sets them).
        side = 1 << p if state.hilfer < 0 else 1 << p | 1 << state.hilfer
        board = FuchsenBoard(
            table.active,
            [0] * table.n,
            side,
            macher=p,
            alone=state.alone,
            called_suit=state.called_suit,
            blank=blank,
        )
        board.leader = board.to_act = table.first
        state.board = board

    def _call_refusal(
        self,
        state: FuchsenState,
        p: int,
        alone: bool,
        card_code: object,
        turned_field: object,
    ) -> Illegal | None:
        """Why ``p`` may not make the call of ``card_code`` (or ``alone``) with the
        ``turned`` field ``turned_field`` (as the event gives them, the fields' kinds
        and cards checked), or None: the rule every call goes through (``_call``) and
        the view's offers ask (``_call_options``)."""
        if state.phase != "call":
            return Illegal(Code.OUT_OF_ORDER, Msg.MACHER_HAS_ALREADY_CALLED)
        table = state.table
        know = state.know
        assert table is not None and know is not None
        rules = state.rules
        name = table.active[p]
        turned_card = INDEX[turned_field] if isinstance(turned_field, str) else -1
        turned = turned_field is True or turned_card >= 0
        if turned_card >= 0:
            broken = placement_error(state, p, turned_card)
            if broken is not None:
                return broken
        elif turned_field is True and know.blank >= 0:
            # The record reveals the blank later (its face-down play): in hindsight the
            # call turned that card, and the turning rules below judge it at the call.
            turned_card = know.blank
        if alone and card_code is not None:
            return Illegal(Code.INVALID_CALL, Msg.PLAYS_ALONE_SO_CALLS, player=name)
        holder_eo = know.owner[EO]
        if holder_eo >= 0 and holder_eo != p:
            return Illegal(
                Code.INVALID_CALL, Msg.MACHER_HOLDS_EO, player=name, other=table.active[holder_eo]
            )
        hand = know.known[p]
        full = hand.bit_count() >= 6  # ``know.full(p)``, without the call
        if full and not hand >> EO & 1:
            return Illegal(Code.INVALID_CALL, Msg.MACHER_SIX_RECORD_SHOWS_FOR, player=name)
        six_trumps = full and hand & TRUMPS == hand
        if turned_card >= 0:
            if turned_card == EO:
                return Illegal(Code.INVALID_CALL, Msg.MAY_TURN_EO_MACHER_STAYS, player=name)
            if TRUMPS >> turned_card & 1:
                if full and not six_trumps:
                    return Illegal(
                        Code.INVALID_CALL,
                        Msg.MAY_TURN_TRUMP_SIX_TRUMPS,
                        player=name,
                        card=CODES[turned_card],
                    )
            elif not (rules["turn_low_plain"] and LOW_PLAIN >> turned_card & 1):
                msg = (
                    Msg.TURN_NOT_PLAIN_LOW if rules["turn_low_plain"] else Msg.TURN_NOT_ALLOWED_HERE
                )
                return Illegal(Code.INVALID_CALL, msg, player=name, card=CODES[turned_card])
        if alone:
            if rules["alone_requires_six_trumps"] and full and not six_trumps:
                return Illegal(Code.INVALID_CALL, Msg.MAY_PLAY_ALONE_SIX_TRUMPS, player=name)
            return None
        assert isinstance(card_code, str)
        called = INDEX[card_code]
        if TRUMPS >> called & 1:
            return Illegal(Code.INVALID_CALL, Msg.MAY_CALL_TRUMP, player=name, card=card_code)
        if called == turned_card:
            return Illegal(Code.INVALID_CALL, Msg.MAY_CALL_TURNED, player=name)
        holder = know.owner[called]
        if holder == p and not rules["call_own_card"]:
            return Illegal(Code.INVALID_CALL, Msg.CALLS_OWN_CARD, player=name, card=card_code)
        if full and not self._callable(table, hand, turned, rules["call_own_card"]) >> called & 1:
            return Illegal(
                Code.INVALID_CALL, Msg.MAY_CALL_CALLED_MUST_SUIT, player=name, card=card_code
            )
        if holder < 0 and state.assumed < 0:
            known = know.known
            if not any(q != p and known[q].bit_count() < 6 for q in range(len(known))):
                return Illegal(Code.INVALID_CALL, Msg.NOBODY_HOLDS_CALLED, card=card_code)
        return None

    def assume_partner(self, need: NeedPartner, q: int) -> tuple[GameState, int] | None:
        """Candidate ``q`` goes on from the event where the fold for all candidates
        stopped (``open_partner``): its state before that event with ``q`` holding the
        called card and as the Hilfer (already so where he was the one left)."""
        before = need.state
        assert isinstance(before, FuchsenState) and before.candidates
        if before.pending:
            return self._assumed(before, q), need.position
        assert q == before.hilfer
        return self._own(before), need.position

    @staticmethod
    def _own(state: FuchsenState) -> FuchsenState:
        """A copy of ``state`` without the fields of the fold for all candidates."""
        start = state.copy()
        assert isinstance(start, FuchsenState)
        start.candidates = 0
        start.refused = ()
        return start

    @staticmethod
    def _assumed(state: FuchsenState, q: int) -> FuchsenState:
        """A copy of ``state`` (the candidates ``pending``), candidate ``q``'s own."""
        start = Fuchsen._own(state)
        Fuchsen._assume(start, q)
        return start

    @staticmethod
    def _assume(state: FuchsenState, q: int) -> None:
        """``state`` (the candidates ``pending``) with ``q`` holding the called card and
        as the Hilfer: the state his own fold has, but for the candidates' fields."""
        know = state.know
        assert know is not None
        state.know = know.with_card(q, state.called)
        state.assumed = state.hilfer = q
        state.pending = 0
        board = state.board
        assert isinstance(board, FuchsenBoard)
        board.side |= 1 << q
        board.candidates = 0

    def open_partner(self, state: GameState) -> NeedPartner | None:
        # (Before the deal the state is the shared start, no game's own.)
        if not isinstance(state, FuchsenState) or not state.candidates:
            return None
        need = NeedPartner(tuple(bits(state.candidates)), state.called)
        need.done = {q: (before, error) for q, before, error in state.refused}
        return need

    def _partner_read(self, state: FuchsenState) -> None:
        """The event about to be judged reads which of the candidates ``pending`` holds
        the called card: each one's fold goes on from here (raises ``NeedPartner``,
        ``state`` unchanged)."""
        need = self.open_partner(state)
        if need is not None:
            raise need

    def _refuse(self, state: FuchsenState, seats: int, broken: Illegal, index: int) -> None:
        """The fold of each candidate of ``seats`` (pending) ends at event ``index``
        with ``broken``, before it changes ``state``; the others go on, the one left
        assumed in place. Where none would be left, every fold goes on from here."""
        pending = state.pending
        if seats & pending == pending:
            self._partner_read(state)
        error = EngineError(index, broken.code, broken.msg, broken.params, broken.field)
        refused = [(q, self._assumed(state, q), error) for q in bits(seats)]
        state.refused = (*state.refused, *refused)
        state.pending = pending = pending & ~seats
        assert isinstance(state.board, FuchsenBoard)
        state.board.candidates = pending
        if pending & (pending - 1) == 0:
            self._assume(state, pending.bit_length() - 1)

    @staticmethod
    def _callable(table: Table, hand: int, turned: bool, own_ok: bool) -> int:
        """The cards a Macher with this whole hand may call."""
        plain_deck = table.deck & PLAIN
        not_held = plain_deck if own_ok else plain_deck & ~hand
        if turned:
            return not_held
        # The plain suits he holds a card of.
        suits = (
            (_EICHEL if hand & _EICHEL else 0)
            | (_GRUEN if hand & _GRUEN else 0)
            | (_SCHELLEN if hand & _SCHELLEN else 0)
        )
        allowed = not_held & suits
        if not allowed & ~hand:
            # His hand allows no call at all: he may call any plain card not in his hand.
            return not_held
        return allowed

    def _raise(self, state: FuchsenState, event: Event, index: int) -> None:
        if state.phase == "call":
            raise Illegal(Code.OUT_OF_ORDER, Msg.NOBODY_CAN_RAISE_BEFORE_CALL)
        table = state.table
        assert table is not None
        p = table.index[event["player"]]
        level = event["level"]
        k = LEVEL_NUMBER.get(level, 0)
        if not k:
            raise Illegal(Code.INVALID_RAISE, Msg.UNKNOWN_LEVEL, rlevel=level)
        broken = self._raise_refusal(state, p, k)
        if state.pending >> p & 1:
            # His side is the Macher's only where he holds the called card: the raise
            # ends either his fold or the other candidates'.
            state.hilfer = p
            as_hilfer = self._raise_refusal(state, p, k)
            state.hilfer = -1
            if (broken is None) == (as_hilfer is None):
                self._partner_read(state)
            elif as_hilfer is not None:
                self._refuse(state, 1 << p, as_hilfer, index)
            else:
                assert broken is not None
                self._refuse(state, state.pending & ~(1 << p), broken, index)
                broken = None  # (his fold now: ``hilfer`` is he)
        if broken is not None:
            raise broken
        if p == state.hilfer and p != state.macher and state.hilfer_raised < 0:
            state.hilfer_raised = index
        state.said_at = (*state.said_at, index)
        state.level = k

    @staticmethod
    def _raise_refusal(state: FuchsenState, p: int, k: int) -> Illegal | None:
        """Why active player ``p`` may not say level number ``k`` now (after the call),
        or None: the raising over, not the next level, not his side's level, before
        his first card, his chance lapsed. ``_raise`` judges every raise by it; the
        table view and the statistics ask it of each player."""
        # The names for the message only once a rule is broken (most raises stand).
        if state.raising_ended:
            msg = Msg.CANNOT_SAY_RAISING_OVER
        elif k != state.level + 1:
            expected = FUCHSEN_LEVELS[state.level] if state.level < 8 else "nothing more"
            return Illegal(
                Code.INVALID_RAISE,
                Msg.CANNOT_SAY_NEXT_LEVEL,
                player=name_of(state, p),
                level=FUCHSEN_LEVELS[k - 1],
                level2=expected,
            )
        elif (p == state.macher or p == state.hilfer) != (k % 2 == 0):
            msg = Msg.RAISE_MACHERS_SIDE if k % 2 == 0 else Msg.RAISE_OPPONENTS
        else:
            first = state.first_play[p]
            if first < 0:
                msg = Msg.CANNOT_SAY_BEFORE_PLAYING
            elif (
                state.last_play > first
                and state.last_play > state.said_at[k - 1]
                and state.rules["strict_raise_windows"]
            ):
                msg = Msg.CANNOT_SAY_CHANCE_LAPSED_WHEN
            else:
                return None
        return Illegal(
            Code.INVALID_RAISE, msg, player=name_of(state, p), level=FUCHSEN_LEVELS[k - 1]
        )

    @staticmethod
    def _may_end_raising(state: FuchsenState) -> bool:
        """The raising may be ended now: the first trick complete, the second not begun."""
        return not (
            state.phase == "call" or not state.tricks_done or on_table(state) or state.raising_ended
        )

    def _end_raising_event(self, state: FuchsenState, index: int) -> None:
        if not self._may_end_raising(state):
            raise Illegal(Code.OUT_OF_ORDER, Msg.RAISING_ENDS_ONCE_WHEN_FIRST)
        if state.pending and self._raising_decides(state):
            self._partner_read(state)  # the decision names the declarers
        state.raising_ended = True
        self._raising_decided(state)
        self._after(state, index)

    @staticmethod
    def _raising_decides(state: FuchsenState) -> bool:
        """Does the end of the raising now decide the game (``_raising_decided``)?"""
        return (state.level == 0 and not state.fuchs_said) or state.level == 1

    def _raising_decided(self, state: FuchsenState) -> None:
        """Decide ``state``, the raising just ended, where the raising decides the game
        (no kontra, no re)."""
        if state.level == 0 and not state.fuchs_said:
            self._decide(state, "no_kontra", True, self._value(state))
        elif state.level == 1:
            self._decide(state, "no_re", False, self._value(state))

    def play(  # type: ignore[override]
        self, state: FuchsenState, p: int, card: int, event: Event | None, index: int
    ) -> None:
        if state.pending:
            self._play_for_candidates(state, p, card, event, index)
        broken = self.check_card(state, p, card)
        if broken is not None:
            raise broken
        know = state.know
        assert know is not None
        fuchs = turned = False
        if event is not None:
            fuchs = event.get("fuchs") is True
            turned = event.get("turned") is True
        if fuchs:
            broken = self._fuchs_refusal(state, p, know)
            if broken is not None:
                raise broken
        is_blank = state.turned and p == state.macher and card == know.blank
        if turned or is_blank:
            broken = self.face_error(state, p, card, turned)
            if broken is not None:
                raise broken
        # Every check passed: the card changes the state from here on.
        if fuchs:
            state.fuchs_said = True
        elif is_blank:
            state.blank_played = True
        board = state.board
        assert isinstance(board, FuchsenBoard)
        ends_raising = not state.raising_ended and board.tricks == 1 and not board.trick
        if ends_raising:
            state.raising_ended = True
        if state.turned:
            # The ranking follows the blank as the knowledge names it: a record that
            # grows event by event (the generator) names it only with its face-down play.
            board.set_blank(know.blank)
        add_card(state, p, card, index)
        if ends_raising:
            self._raising_decided(state)
        elif board.tricks == 6 and state.decision is None:
            self._played_out(state)
        h = state.hilfer
        # Only a Hilfer who holds GO (in hindsight) can have forgotten his Fuchs.
        if h >= 0 and state.raising_ended and not state.fuchs_said and know.owner[GO] == h:
            self._after(state, index)

    def _play_for_candidates(
        self, state: FuchsenState, p: int, card: int, event: Event | None, index: int
    ) -> None:
        """Before ``play`` judges ``p``'s ``card`` for the candidates ``pending`` at once:
        end the folds of those it refuses alone, or go on in each one's own fold where
        the play reads more of who holds the called card. The Fuchs is the Hilfer's
        alone; a candidate holding the called card must follow a trick led in its
        suit; the lead that ends the raising, where that decides the game, and the
        deal's last card name the declarers."""
        board = state.board
        assert isinstance(board, FuchsenBoard)
        trick = board.trick
        if board.last_card() or (
            not trick
            and not state.raising_ended
            and board.tricks == 1
            and self._raising_decides(state)
        ):
            self._partner_read(state)
        if not state.pending >> p & 1:
            return  # his hand and his say are the same for every candidate
        if event is not None and event.get("fuchs") is True:
            # Said by another than the Hilfer: refused with the card's own error or so.
            broken = self.check_card(state, p, card) or self._fuchs_turn_refusal(state, p)
            assert broken is not None
            self._refuse(state, state.pending & ~(1 << p), broken, index)
        elif trick and board.led == state.called_suit:
            if self.check_card(state, p, card) is not None:
                self._partner_read(state)
            know = state.know
            assert know is not None
            state.know = know.with_card(p, state.called)
            as_hilfer = self.check_card(state, p, card)
            state.know = know
            if as_hilfer is not None:
                self._refuse(state, 1 << p, as_hilfer, index)

    def face_error(  # type: ignore[override]
        self, state: FuchsenState, p: int, card: int, turned: bool
    ) -> Illegal | None:
        """The Macher's turned card (the blank, as the knowledge names it) is played
        face down, once; no other card is."""
        know = state.know
        assert know is not None
        is_blank = state.turned and p == state.macher and card == know.blank
        if turned:
            if is_blank and not state.blank_played:
                return None
            msg = Msg.NOT_THE_TURNED_CARD
        elif is_blank:
            msg = Msg.TURNED_MUST_PLAYED_FACE_DOWN
        else:
            return None
        return Illegal(
            Code.FACE_DOWN_CARD_MISMATCH, msg, player=name_of(state, p), card=CODES[card]
        )

    @classmethod
    def _fuchs_refusal(cls, state: FuchsenState, p: int, know: Knowledge) -> Illegal | None:
        """Why ``p`` may not say the Fuchs with the card he plays now (a card accepted
        face up), the record's knowledge being ``know`` (the card placed in his hand),
        or None: ``_fuchs_turn_refusal``, then what the record shows of GO."""
        return cls._fuchs_turn_refusal(state, p) or cls._fuchs_go_refusal(state, p, know)

    @staticmethod
    def _fuchs_turn_refusal(state: FuchsenState, p: int) -> Illegal | None:
        """The part of ``_fuchs_refusal`` that no card reads: only the Hilfer, on his
        first play."""
        if state.alone or p != state.hilfer:
            msg = Msg.HILFER_HILFER_SAYS_FUCHS
        elif state.first_play[p] >= 0:
            msg = Msg.MAY_SAY_FUCHS_FIRST_PLAYED
        else:
            return None
        return Illegal(Code.INVALID_ANNOUNCEMENT, msg, player=name_of(state, p))

    @staticmethod
    def _fuchs_go_refusal(state: FuchsenState, p: int, know: Knowledge) -> Illegal | None:
        """The part of ``_fuchs_refusal`` the card played reads, through ``know``: the
        record must not prove that he lacks GO."""
        go_holder = know.owner[GO]
        if (go_holder >= 0 and go_holder != p) or (
            go_holder < 0 and know.full(p) and not know.known[p] >> GO & 1
        ):
            return Illegal(
                Code.INVALID_ANNOUNCEMENT,
                Msg.CANNOT_SAY_FUCHS_RECORD_SHOWS,
                player=name_of(state, p),
            )
        return None

    def _forfeit(self, state: FuchsenState, event: Event, index: int) -> None:
        if state.phase == "call":
            raise Illegal(Code.OUT_OF_ORDER, Msg.FORFEIT_COMES_AFTER_CALL)
        table = state.table
        assert table is not None
        p = table.index[event["player"]]
        self._partner_read(state)
        declarer_side = p == state.macher or p == state.hilfer
        self._decide(state, "forfeit", not declarer_side, self._value(state))

    # ------------------------------------------------------------------ decisions
    def _after(self, state: FuchsenState, index: int) -> None:
        """Judge a forgotten Fuchs on what the record has shown up to ``index`` (deciding
        ``state`` in place where he forgot it).

        It takes precedence over the other endings, so an early end (no kontra, no re)
        or an end by play at this very event gives way to it; a forfeit stands.
        """
        h = state.hilfer
        if h < 0 or state.fuchs_said or state.annulled or not state.raising_ended:
            return
        d = state.decision
        if d is not None and not (
            d.reason in ("no_kontra", "no_re", "tally")
            or (d.reason == "played_out" and state.last_play == index)
        ):
            return
        know = state.know
        assert know is not None
        # Who the Hilfer is: the record places the called card in his hand; at a tally
        # (which ends the record but for shows) also his raise for the Macher's side,
        # as no other candidate could have said it (hindsight rule 4).
        shown = know.shown_by(h, state.called, index) or (
            state.tallied and 0 <= state.hilfer_raised <= index
        )
        if (state.first_play[h] >= 0 or state.tallied) and know.shown_by(h, GO, index) and shown:
            value = int(state.rules["fuchs_penalty"]) + self._value(state)
            # The Augen a tally gave are still reported (never those of an early end).
            self._decide(state, "fuchs_forgotten", False, value, state.tally_augen)

    def after_show(self, state: GameState, index: int) -> None:
        assert isinstance(state, FuchsenState)
        self._after(state, index)

    def _value(self, state: FuchsenState) -> int:
        return value_at(state.rules, state.level)

    def values(self, rules: Mapping[str, Any]) -> dict[str, int]:
        """``""`` (no level said yet) and every level: the value of a game there."""
        values = {"": value_at(rules, 0)}
        for k, name in enumerate(FUCHSEN_LEVELS, start=1):
            values[name] = value_at(rules, k)
        return values

    def trick_augen(self, cards: int) -> int | None:
        return augen_of(cards)

    @staticmethod
    def _side_cards(state: FuchsenState) -> int:
        """The cards in the tricks the Macher's side won."""
        assert state.board is not None
        won = state.board.won
        cards = won[state.macher]
        if state.hilfer >= 0:
            cards |= won[state.hilfer]
        return cards

    def _played_out(self, state: FuchsenState) -> None:
        assert state.board is not None
        won = state.board.won
        ours_cards = won[state.macher]  # as ``_side_cards``
        if state.hilfer >= 0:
            ours_cards |= won[state.hilfer]
        ours = augen_of(ours_cards)
        value = self._value(state)
        # The opponents won no trick: every card played (all in tricks won, the last
        # trick collected) went to the Macher's side.
        silent = ours_cards == state.played
        if silent:
            value += int(state.rules["silent_bonus"])
        self._decide(state, "played_out", ours >= 61, value, ours, silent)

    def _decide(
        self,
        state: FuchsenState,
        reason: str,
        won: bool,
        value: int,
        ours: int = -1,
        silent: bool | None = None,
    ) -> None:
        """Decide ``state`` (in place). ``ours``: the Augen of the Macher's side, if counted;
        ``silent``: whether it was a Stilles Spiel, for a game decided by play (every
        other ending leaves it ``None``, so a forgotten Fuchs deciding over a game
        played out clears it)."""
        table = state.table
        assert table is not None
        signed = value if won else -value  # what each declarer-side pairing pays
        # Each opponent pays ``signed`` (the declarers' entries are set below), one who
        # sits out nothing.
        pay = dict.fromkeys(table.players, -signed)
        if table.sitting_out is not None:
            pay[table.sitting_out] = 0
        active = table.active
        macher = active[state.macher]
        if state.hilfer >= 0:
            hilfer = active[state.hilfer]
            declarers: tuple[str, ...] = (macher, hilfer)
            # Each opponent is paired with one player of the Macher's side.
            pay[hilfer] = signed
            pay[macher] = signed * (len(active) - 3)
        else:
            declarers = (macher,)
            pay[macher] = signed * (len(active) - 1)
        tricks = state.tricks_done
        augen = None
        if tricks == 6:
            if ours < 0:
                ours = augen_of(self._side_cards(state))
            augen = (ours, 121 - ours)
        elif ours >= 0:  # the Augen a tally gave
            augen = (ours, 121 - ours)
        # Positional: the fields in order (see ``Decision.__init__``).
        state.decision = Decision(reason, won, value, tuple(pay.items()), declarers, tricks, augen)
        state.silent = silent

    # ------------------------------------------------------------------ results
    def result(self, state: GameState) -> Result:
        assert isinstance(state, FuchsenState)
        table = state.table
        if state.annulled:
            return Result(status="annulled", game=self.name)
        level = FUCHSEN_LEVELS[state.level - 1] if state.level else None
        if state.decision is not None:
            d = state.decision
            # By position (game, contract, declarers, won, value, reason, tricks,
            # payouts, level, has_level, augen, silent): no keyword matching, once a record.
            return Result.finished(
                self.name,
                "alone" if state.alone else "partner",
                d.declarers,
                d.won,
                d.value,
                d.reason,
                d.tricks,
                dict(d.payouts),
                level,
                True,
                d.augen,
                state.silent,
            )
        if table is None:
            return Result(status="in_progress", game=self.name, awaiting="deal")
        if state.phase == "call":
            to_act = table.active[state.to_act] if state.to_act >= 0 else None
            return Result(status="in_progress", game=self.name, awaiting="call", to_act=to_act)
        declarers: tuple[str, ...] = (table.active[state.macher],)
        if state.hilfer >= 0:
            declarers += (table.active[state.hilfer],)
        if state.tricks_done == 1 and not on_table(state) and not state.raising_ended:
            awaiting, to_act = "raise_or_end", None
        else:
            awaiting, to_act = "play", table.active[state.to_act]
        return Result(
            status="in_progress",
            game=self.name,
            contract="alone" if state.alone else "partner",
            declarers=declarers,
            level=level,
            has_level=True,
            tricks=state.tricks_done,
            awaiting=awaiting,
            to_act=to_act,
        )

    # ------------------------------------------------------------------ tricks
    @staticmethod
    def _maybe_blank(state: FuchsenState, p: int, plain: int) -> int:
        """Cards of ``p``'s known hand that could be the blank he turned unseen."""
        know = state.know
        assert know is not None
        maybe = plain & LOW_PLAIN if state.rules["turn_low_plain"] else 0
        if not know.known[p] & PLAIN:
            maybe |= plain & TRUMPS & ~(1 << EO)
        return maybe

    def duties(  # type: ignore[override]
        self, state: FuchsenState, p: int, hand: int, card: int = -1
    ) -> tuple[Duty, ...]:
        """The trick's ``obligations`` for ``p`` holding ``hand``. A card he might hold
        only as an unidentified blank proves nothing (``_proven``): the cards that
        might be it are those of his hand but the ``card`` he plays."""
        board = state.board
        if board is None or not board.trick:
            return ()
        blank = -1
        has_blank = False
        amb = 0
        plain = hand
        if state.turned:
            assert state.know is not None
            blank = state.know.blank
            has_blank = p == state.macher and not state.blank_played
            if blank >= 0:
                plain = hand & ~(1 << blank)
            elif has_blank:
                # A blank the record never identifies could be any card he was allowed
                # to turn: such a card proves nothing about its printed suit unless he
                # holds two of them.
                amb = self._maybe_blank(state, p, plain) & ~(1 << card)
        blank_class = NO_SUIT if state.alone else state.called_suit
        return obligations(board.led, board.wkey, plain, amb, blank, blank_class, has_blank)

    def duty_error(self, state: GameState, p: int, duty: Duty, card: int) -> Illegal:
        """The obligation's error, naming a card of his that keeps it."""
        code, msg, _allowed, held = duty
        name = name_of(state, p)
        board = state.board
        assert board is not None
        if msg is Msg.FOLLOW_TRUMPS:
            return Illegal(code, msg, player=name, example=_example(held, True))
        if msg is Msg.FOLLOW_SUIT:
            example = _example(held, True)
            return Illegal(code, msg, player=name, example=example, suit=CLASS_NAME[board.led])
        first = CODES[(held & -held).bit_length() - 1]
        if msg is Msg.TRUMP:
            return Illegal(code, msg, player=name, card=first, suit=CLASS_NAME[board.led])
        return Illegal(code, msg, player=name, card=first, card2=CODES[card])

    has_raising: ClassVar[bool] = True

    def raise_open(self, state: GameState) -> str | None:
        assert isinstance(state, FuchsenState)
        if (
            state.phase != "play"
            or state.raising_ended
            or state.decision is not None
            or state.annulled
            or state.level >= len(FUCHSEN_LEVELS)
        ):
            return None
        return FUCHSEN_LEVELS[state.level]

    def may_raise(self, state: GameState, p: int) -> bool:
        assert isinstance(state, FuchsenState)
        return self._raise_refusal(state, p, state.level + 1) is None

    def raising_recorded(self, state: GameState) -> bool:
        assert isinstance(state, FuchsenState)
        # A pure tally: the first trick, and so its raising, unrecorded.
        return not (state.tallied and not state.tricks_done)

    def board_stands(self, state: GameState) -> bool:
        assert isinstance(state, FuchsenState)
        know = state.know
        # The analysis' model knows the turned card; a record that never names it does not.
        return not (state.turned and know is not None and know.blank < 0)

    def set_hands(self, board: Board, state: GameState) -> None:
        super().set_hands(board, state)
        assert isinstance(state, FuchsenState) and isinstance(board, FuchsenBoard)
        if state.turned:
            assert state.know is not None
            board.set_blank(state.know.blank)

    board_from: ClassVar[int] = 1  # the raising ends with the first trick at the earliest

    def fold_board(self, state: GameState) -> FuchsenBoard | None:
        assert isinstance(state, FuchsenState)
        # The board takes a card only where its play changes nothing but the card play:
        # the raising over (the lead of trick 2 ends it: ``play``), the game undecided,
        # and no forgotten Fuchs to judge after each card (``_after``: a Hilfer holding
        # GO who has not said it; such a deal stays on ``play`` card by card). The
        # face-down blank is the board's ``not_plain``; the last trick, which decides
        # the game (``_played_out``), is the board's ``ends_play``.
        if state.phase != "play" or not state.raising_ended or state.decision is not None:
            return None
        h = state.hilfer
        know = state.know
        assert know is not None
        if h >= 0 and not state.fuchs_said and know.owner[GO] == h:
            return None
        if not self.board_stands(state):
            return None  # as ``card_board``: the record never identifies the blank
        # The state's own board, its hands the cards the record places in each.
        board = state.board
        assert isinstance(board, FuchsenBoard)
        self.set_hands(board, state)
        return board

    def board_ended(self, state: GameState) -> None:
        # The deal's last trick (``Board.ends_play``): the game played out. ``play``
        # decides so after the last card; the fold's board phase (``fold_board``: no
        # forgotten Fuchs to judge) after writing the board back.
        assert isinstance(state, FuchsenState)
        self._played_out(state)

    # ------------------------------------------------------------------ table view
    def probed_blank(self, state: GameState, event: Event) -> int | None:
        assert isinstance(state, FuchsenState)
        table = state.table
        turned_by = table.active[state.macher] if state.turned and table is not None else None
        return _named_blank(event, turned_by)

    def plays_face_down(self, state: GameState, p: int) -> bool | None:
        assert isinstance(state, FuchsenState)
        if not state.turned or p != state.macher:
            return None
        return not state.blank_played

    def offers(self, state: GameState, trial: Trial) -> dict[str, Any]:
        """The Macher's calls before the first card; then the raises (each player's at
        the next level) and the end of the raising."""
        assert isinstance(state, FuchsenState)
        table = state.table
        assert table is not None
        if state.phase == "call":
            return {"calls": self._call_options(state)}
        raises: list[tuple[str, str]] = []
        if not state.raising_ended and state.level < 8:
            # Judged by the rule every raise goes through (a raise places no card).
            level = FUCHSEN_LEVELS[state.level]
            for p, name in enumerate(table.active):
                if self._raise_refusal(state, p, state.level + 1) is None:
                    raises.append((name, level))
        can_end = self._may_end_raising(state)
        return {
            "raises": tuple(raises),
            "can_end_raising": can_end,
            "fuchs": self._fuchs(state, trial),
        }

    @classmethod
    def _fuchs(cls, state: FuchsenState, trial: Trial) -> bool:
        """May the player to act say the Fuchs with a card he plays now: for some card
        the view offers him (accepted face up), does the rule of the announcement
        (``_fuchs_refusal``, which every such play goes through) let him, with that card
        placed in his hand as the play would place it? (The view confirms it on the
        whole record, ``engine.view``.)"""
        table = state.table
        know = state.know
        p = state.to_act
        if table is None or know is None or p < 0 or state.phase != "play":
            return False
        if cls._fuchs_turn_refusal(state, p) is not None:
            return False
        # The rest of the rule reads the card only through the knowledge its play adds:
        # none (a card placed already), GO in his hand, or any other card filling it up
        # by one. One card of each kind decides for the others of that kind.
        judged = set()
        for code in trial.playable:
            c = INDEX[code]
            placing = know.owner[c] < 0 and not know.full(p)
            kind = (c == GO) + 2 * placing if placing else 0
            if kind in judged:
                continue
            judged.add(kind)
            placed = know.with_card(p, c) if placing else know
            if cls._fuchs_go_refusal(state, p, placed) is None:
                return True
        return False

    def _call_options(self, state: FuchsenState) -> CallOptions:
        table = state.table
        know = state.know
        assert table is not None and know is not None
        macher = know.owner[EO]
        if macher < 0:
            # Nobody is shown to hold EO yet: judge the call for a player who may hold it.
            possible = [q for q in range(table.n) if not know.full(q)]
            if not possible:
                return CallOptions()
            macher = possible[0]
        # Judged by the rule every call goes through: these calls place no card and
        # name no turned card, so the record's knowledge is the call's.
        refusal = self._call_refusal
        cards = tuple(
            CODES[c]
            for c in bits(table.deck)
            if refusal(state, macher, False, CODES[c], None) is None
        )
        alone = refusal(state, macher, True, None, None) is None
        callable_turning = tuple(
            CODES[k]
            for k in bits(table.deck)
            if refusal(state, macher, False, CODES[k], True) is None
        )
        turn = self._turn_options(state, macher, callable_turning) if know.full(macher) else ("?",)
        return CallOptions(cards=cards, alone=alone, turn=turn, cards_turning=callable_turning)

    def _turn_options(
        self, state: FuchsenState, macher: int, callable_turning: tuple[str, ...]
    ) -> tuple[str, ...]:
        """The cards of the Macher's whole (known) hand he may turn, alone or with a call.

        Naming the turned card only adds checks to the same call with an unknown turned
        card (``"turned": true``): checks of the card itself (may it be turned at all)
        and that it is not the called card. So a call naming ``c`` can be accepted only
        with a card that is callable when turning, and whether it is depends on ``c``
        alone once that card is not ``c`` itself: the first such card decides
        (``callable_turning``: the cards callable with ``"turned": true``). Each call
        judged by the rule every call goes through (``_call_refusal``): with the whole
        hand known, the card it names is placed in his hand already, and the blank it
        names the rule reads from the call itself, not from the knowledge.
        (``tests/engine/test_view_turn_options.py`` holds the answers to trying every
        pair with ``apply``.)
        """
        know = state.know
        assert know is not None
        refusal = self._call_refusal
        turn: list[str] = []
        for c in bits(know.known[macher]):
            code = CODES[c]
            deciding = next((k for k in callable_turning if k != code), None)
            if refusal(state, macher, True, None, code) is None or (
                deciding is not None and refusal(state, macher, False, deciding, code) is None
            ):
                turn.append(code)
        return tuple(turn)

    def tally_offer(self, states: Sequence[GameState], trial: Trial) -> dict[str, Any] | None:
        """A pure tally right after the call (its level, Fuchs and partner), a late one
        between tricks once the raising ended (the Augen the recorded tricks allow)."""
        first = states[0]
        assert isinstance(first, FuchsenState)

        def stands(fields: Event) -> bool:
            # Some state after which a tally of ``fields`` (no partner: it places no
            # card) stands, judged by the rule every tally goes through.
            event = {"type": "tally", **fields}
            return any(self.tally_refusal(s, event) is None for s in states)

        if on_table(first) or (first.tricks_done and not first.raising_ended):
            return None
        pure = not first.tricks_done
        fields: dict[str, Any] = {}
        if pure:
            choices = []
            for k in range(len(FUCHSEN_LEVELS) + 1):
                level = FUCHSEN_LEVELS[k - 1] if k else None
                played_out = k >= 2
                probes = [{"level": level, "won": True}, {"level": level, "won": False}]
                if not any(stands(probe) for probe in probes):
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
            if not any(stands(p) for p in probes):
                return None
            probe = next(p for p in probes if stands(p))
        fields["won"] = {"required": False}
        low, high = 0, 121
        if not pure:
            ranges = []
            for s in states:
                assert isinstance(s, FuchsenState)
                ours, theirs = _augen_won(s)
                ranges.append((ours, 121 - theirs))
            low, high = min(r[0] for r in ranges), max(r[1] for r in ranges)
        fields["augen"] = {"required": False, "min": low, "max": high}
        if stands({**probe, "won": True, "silent": True}):
            fields["silent"] = {"required": False}
        if pure and not first.alone and not first.own_card:
            fields["fuchs"] = {"required": False}
        if not first.alone:
            partners = trial.tally_partners(states, probe)
            if partners:
                fields["partner"] = {"required": False, "choices": partners}
        return {"kind": "pure" if pure else "late", "fields": fields, "needs_outcome": not pure}

    def view_fields(
        self, state: GameState, result: Result, *, partner_known: bool
    ) -> dict[str, Any]:
        """The level, the Macher, the Augen once the sides are known; before the call,
        the player to act is the one the record shows holding EO (or nobody)."""
        assert isinstance(state, FuchsenState)
        table = state.table
        assert table is not None
        name = table.active
        fields: dict[str, Any] = {"level": FUCHSEN_LEVELS[state.level - 1] if state.level else None}
        if state.macher >= 0:
            fields["macher"] = name[state.macher]
            if partner_known or state.hilfer < 0:
                ours, theirs = _augen_won(state)
                fields["augen"] = {"declarers": ours, "opponents": theirs}
        if state.phase == "call" and state.know is not None and result.status == "in_progress":
            holder = state.know.owner[EO]
            fields["to_act"] = name[holder] if holder >= 0 else None
        fields["deck"] = deck_rows(table.deck)
        fields["trumps"] = TRUMP_CODES
        fields["called_card"] = CODES[state.called] if state.called >= 0 else None
        fields["fuchs_said"] = state.fuchs_said
        fields["alone"] = state.alone
        fields["value"] = self._value(state)
        if result.silent:
            fields["silent_bonus"] = int(state.rules["silent_bonus"])
        return fields


def table_deck(active: int, removed: Sequence[str]) -> int:
    """The cards in play (a mask) at a table of ``active`` players: five take out the
    ``removed`` cards (valid codes; the deal checks they are two of
    ``REMOVABLE_CARDS``), four take out the 7s and 8s."""
    if active == 5:
        return FULL_DECK & ~mask_of(removed)
    return FULL_DECK & ~NO_SEVENS_EIGHTS


@cache  # a value (tuples) per table deck, which every view of a game shows
def deck_rows(deck: int) -> tuple[tuple[str, bool, tuple[str | None, ...]], ...]:
    """The pack as the pages lay it out, each row ``(label, trump, cards)`` strongest
    first: the Ober and Unter (label ``"T"``), the other trumps (Rot), then Eichel,
    Grün and Schellen; a card not in ``deck`` (a mask: the table's) is None, a gap."""

    def row(codes: Sequence[str]) -> tuple[str | None, ...]:
        return tuple(c if deck >> INDEX[c] & 1 else None for c in codes)

    plain = [
        (
            suit,
            False,
            row(
                sorted(
                    (c for c in CODES if CLASS[INDEX[c]] == SUITS.index(suit)),
                    key=lambda c: -POWER[INDEX[c]],
                )
            ),
        )
        for suit in ("E", "G", "S")
    ]
    return (
        ("T", True, row(TRUMP_CODES[:6])),
        ("R", True, row(TRUMP_CODES[6:])),
        *plain,
    )


def _named_blank(event: Mapping[str, Any], turned_by: object) -> int | None:
    """The card ``event`` names as the Macher's turned card: a call's ``turned`` code,
    or the card played face down by ``turned_by``, the Macher who turned one unseen
    (None before such a call). Its index, -1 for a code that is no card, or None where
    the event names none."""
    typ = event.get("type")
    turned = event.get("turned")
    if typ == "call":
        return INDEX.get(turned, -1) if isinstance(turned, str) else None
    if typ == "play" and turned is True and turned_by is not None:
        if event.get("player") != turned_by:
            return None
        code = event.get("card")
        return INDEX.get(code, -1) if isinstance(code, str) else -1
    return None


def obligations(
    led: int, wkey: int, plain: int, amb: int, blank: int, blank_class: int, has_blank: bool
) -> tuple[tuple[Code, Msg, int, int], ...]:
    """The obligations of a player in a trick following class ``led`` (``NO_SUIT``: a
    blank led alone, none yet) whose winning card holds with key ``wkey``, in the
    spec's code-table order: each ``(code, msg, allowed, held)``, ``allowed`` the cards
    that keep it (a mask over the deck), ``held`` the cards of his that oblige him
    (``msg`` the sentence of its error).

    ``plain`` are his printed cards (his hand but the blank), ``amb`` those that might
    be an unidentified blank (proving nothing, ``_proven``), ``blank`` the identified
    blank (-1: none or unknown) whose class is ``blank_class`` (``NO_SUIT`` alone, else
    the called suit), ``has_blank`` whether he still holds the blank. Follow suit (the
    blank follows the called suit), beating the trick if he can; holding none of the
    led suit, trump and over-trump if he can.
    """
    if led == NO_SUIT:
        return ()
    # The masks are built without ``~`` on a blank that is none (``~0`` is -1: a
    # negative int takes CPython's slow path through every ``&`` after it), and the
    # mask of the cards that beat the trick only where he can beat it.
    same = CLASS_MASK[led]
    led_cards = plain & same
    if amb:
        led_cards = _proven(led_cards, amb)
    if led_cards or (has_blank and blank_class == led):
        if blank >= 0:
            same = same | 1 << blank if blank_class == led else same & ~(1 << blank)
        follow = (_FOLLOW, _FOLLOW_MSG[led], same, led_cards)
        above = _ABOVE[wkey]
        better = led_cards & above
        if amb:
            better = _proven(better, amb)
        if not better:
            return (follow,)
        beating = above & _CLASS_OR_TRUMPS[led]
        if blank >= 0:
            beating &= ~(1 << blank)
        return follow, (_OVERTAKE, _BEAT, beating, better)
    if led == TRUMP:
        return ()
    trumps = plain & TRUMPS
    if amb:
        trumps = _proven(trumps, amb)
    if not trumps:
        return ()
    trump = (_TRUMP, _MSG_TRUMP, TRUMPS & ~(1 << blank) if blank >= 0 else TRUMPS, trumps)
    above = _ABOVE[wkey]
    better = trumps & above
    if amb:
        better = _proven(better, amb)
    if not better:
        return (trump,)
    beating = above & _CLASS_OR_TRUMPS[led]
    if blank >= 0:
        beating &= ~(1 << blank)
    return trump, (_TRUMP, _OVER_TRUMP, beating, better)


# The codes and sentences as plain names: an enum member's lookup costs several times a
# global's, and every play asks for its obligations.
# (``_FOLLOW_MSG`` per class followed: only trump's differs.)
_FOLLOW_MSG = (*(Msg.FOLLOW_SUIT,) * TRUMP, Msg.FOLLOW_TRUMPS)
_FOLLOW, _OVERTAKE, _TRUMP = Code.MUST_FOLLOW_SUIT, Code.MUST_OVERTAKE, Code.MUST_TRUMP
_BEAT, _MSG_TRUMP, _OVER_TRUMP = Msg.BEAT_THE_TRICK, Msg.TRUMP, Msg.OVER_TRUMP
_CLASS_OR_TRUMPS = tuple(mask | TRUMPS for mask in CLASS_MASK)


class FuchsenBoard(Board):
    """Fuchsen's card play (``engine.board``): trumps, the called suit, the blank."""

    __slots__ = ("alone", "blank", "blank_class", "called_suit", "candidates", "macher")

    def __init__(
        self,
        names: tuple[str, ...],
        hands: list[int],
        side: int,
        *,
        macher: int,
        alone: bool,
        called_suit: int,
        blank: int,
    ) -> None:
        blank_class = NO_SUIT if alone else called_suit
        super().__init__(names, hands, side, *ranking(blank, blank_class))
        self.macher = macher
        self.alone = alone
        self.called_suit = called_suit
        self.blank = blank
        self.blank_class = blank_class
        # The fold's candidate partners (``FuchsenState.pending``): a play that reads
        # who holds the called card is no card of the board's (``legal``).
        self.candidates = 0
        if blank >= 0:
            self.not_plain = 1 << blank  # played face down, by an event of its own

    def _obligations(self, p: int) -> tuple[tuple[Code, Msg, int, int], ...]:
        """``obligations`` of seat ``p`` in the trick on the table (not empty)."""
        hand = self.hands[p]
        blank = self.blank
        if blank < 0:
            return obligations(self.led, self.wkey, hand, 0, -1, NO_SUIT, False)
        has_blank = p == self.macher and bool(hand >> blank & 1)
        plain = hand & ~(1 << blank)
        return obligations(self.led, self.wkey, plain, 0, blank, self.blank_class, has_blank)

    def filters(self, p: int) -> list[tuple[Code, int]]:
        if not self.trick:
            return []
        return [(code, allowed) for code, _msg, allowed, _held in self._obligations(p)]

    def legal(self) -> int:
        # ``Board.legal`` without the list of filters (the fold asks it of every card),
        # and without a blank (most games) not even a call of ``_obligations``.
        allowed = self.hands[self.to_act]
        if self.trick:
            if self.candidates and (
                (self.candidates >> self.to_act & 1 and self.led == self.called_suit)
                or self.last_card()
            ):
                return 0  # for the game's ``play`` (``Fuchsen._play_for_candidates``)
            if self.blank < 0:
                duties = obligations(self.led, self.wkey, allowed, 0, -1, NO_SUIT, False)
            else:
                duties = self._obligations(self.to_act)
            for duty in duties:
                allowed &= duty[2]
        return allowed

    def last_card(self) -> bool:
        """Is the deal's last card to come now (it names the declarers)?"""
        return self.tricks == 5 and len(self.trick) == self.n - 1

    def copy_facts(self, other: Self) -> None:
        other.alone = self.alone
        other.blank = self.blank
        other.blank_class = self.blank_class
        other.called_suit = self.called_suit
        other.macher = self.macher
        other.candidates = self.candidates

    def set_blank(self, blank: int) -> None:
        """The turned card is ``blank`` (-1: not identified): the ranking and the card
        played only face down follow it."""
        if blank != self.blank:
            self.blank = blank
            self.led_of, self.keys = ranking(blank, self.blank_class)
            self.not_plain = 1 << blank if blank >= 0 else 0

    def points_of(self, cards: int) -> int:
        return augen_of(cards)


def value_at(rules: Mapping[str, Any], level: int) -> int:
    """The value of a game at ``level`` (0: none said, 1 ``kontra``, ...) under ``rules``:
    the minimum up to Kontra, then the level's value and the game's cost (and the end
    bonus at ``end``)."""
    if level <= 1:
        return int(rules["min_value"])
    name = FUCHSEN_LEVELS[level - 1]
    value = int(rules["level_values"][name]) + int(rules["game_cost"])
    if name == "end":
        value += int(rules["end_bonus"])
    return value


def _augen_won(state: FuchsenState) -> tuple[int, int]:
    """The Augen in the tricks the Macher's side and the opponents have won so far."""
    side = Fuchsen._side_cards(state)
    every = 0
    assert state.board is not None
    for cards in state.board.won:
        every |= cards
    return augen_of(side), augen_of(every & ~side)


def _proven(cards: int, maybe_blank: int) -> int:
    """The part of ``cards`` the record proves he holds as printed: all of them if one
    cannot be the unidentified blank or if there are two (only one is the blank)."""
    if not cards & maybe_blank or cards & ~maybe_blank or cards.bit_count() >= 2:
        return cards
    return 0


def _example(cards: int, blank: bool) -> str:
    if cards:
        return CODES[next(bits(cards))]
    return "the blank"


# The Augen of each set of the eight cards with indexes 8b..8b+7, per byte b of a mask:
# four lookups instead of a step per card (every settled game counts them).
_AUGEN_BY_BYTE: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(AUGEN[8 * b + j] for j in range(8) if m >> j & 1) for m in range(256))
    for b in range(4)
)


def augen_of(mask: int) -> int:
    """The Augen of a set of cards (``EO`` counts 4)."""
    a0, a1, a2, a3 = _AUGEN_BY_BYTE
    return a0[mask & 255] + a1[mask >> 8 & 255] + a2[mask >> 16 & 255] + a3[mask >> 24 & 255]
