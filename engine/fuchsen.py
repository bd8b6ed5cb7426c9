"""Fuchsen (spec/fuchsen.md): the call, Fahren in the first trick, the Fuchs, payouts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.cards import CODES, INDEX, bits, mask_of, suit_of
from engine.core import (
    COMMON_EVENTS,
    Decision,
    Event,
    EventSpec,
    GameState,
    Illegal,
    Knowledge,
    NeedPartner,
    ReadKnowledge,
    Table,
    Variant,
    _any,
    _is_bool,
    _is_int,
    _is_str,
    _is_str_or_bool,
    _is_str_or_none,
    awaiting_partner,
    check_hands,
    check_placement,
    check_tally_partner,
    evolve,
    evolve_with,
    name_of,
    unshared,
    waiting_for_partner,
)
from engine.errors import Code, Msg
from engine.result import Result
from engine.rules import FUCHSEN_LEVELS, REMOVABLE_CARDS
from engine.tricks import add_card, check_play

__all__ = ["Fuchsen", "FuchsenState"]

TRUMP = 4
NO_SUIT = -1
EO = INDEX["EO"]
GO = INDEX["GO"]

_TRUMP_CODES = ("EO", "GO", "EU", "GU", "SU", "RU", "RA", "R10", "RK", "RO", "R9", "R8", "R7")
TRUMPS = mask_of(_TRUMP_CODES)
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
    if _code in _TRUMP_CODES:
        _cls.append(TRUMP)
        _pow.append(100 + len(_TRUMP_CODES) - _TRUMP_CODES.index(_code))
    else:
        _cls.append(suit_of(_i))
        _pow.append(_PLAIN_POWER.get(_rank, 0))
    _aug.append(4 if _code == "EO" else _AUGEN_BY_RANK[_rank])
CLASS, POWER, AUGEN = tuple(_cls), tuple(_pow), tuple(_aug)
CLASS_MASK: tuple[int, ...] = tuple(
    sum(1 << i for i in range(32) if CLASS[i] == k) for k in range(5)
)
CLASS_NAME = {0: "Eichel", 1: "Grün", 3: "Schellen", TRUMP: "trump"}
NO_SEVENS_EIGHTS = mask_of(c for c in CODES if c.endswith(("7", "8")))
FULL_DECK = (1 << 32) - 1
LOW_PLAIN = mask_of(c for c in CODES if c[1:] in ("7", "8") and c not in _TRUMP_CODES)
PLAIN = FULL_DECK & ~TRUMPS


_ABSENT = object()  # a field the deal leaves out (unlike one that is null)

LEVEL_NUMBER: dict[str, int] = {name: k + 1 for k, name in enumerate(FUCHSEN_LEVELS)}

# Per card: its bit (an int above 256 is a new object each time it is computed).
_BIT: tuple[int, ...] = tuple(1 << c for c in range(32))

# Per number of active players: who plays after each of them.
_FOLLOWING: dict[int, tuple[int, ...]] = {n: tuple((p + 1) % n for p in range(n)) for n in (4, 5)}

# Per key a card must beat (a ``POWER``, or ``_key``'s 0 or -1 for a blank): the cards
# of higher power. ``cards & _ABOVE[key]``, for cards of the led class or trumps, are
# those that would take the trick: the runs judge "beat it if you can" with one
# bitmask test instead of a walk over the hand.
_ABOVE: dict[int, int] = {
    key: sum(1 << c for c in range(32) if POWER[c] > key) for key in range(-1, max(POWER) + 1)
}
# The same tables without the cards of index 30 and 31, for a deck without them (as
# every deck but a five-player one that keeps G7 or S7): masked by the deck, they give
# the same cards, and each mask is a one-digit int (see ``engine.cards``).
_ONE_DIGIT = 1 << 30
CLASS_MASK_LOW: tuple[int, ...] = tuple(m & (_ONE_DIGIT - 1) for m in CLASS_MASK)
_ABOVE_LOW: dict[int, int] = {key: m & (_ONE_DIGIT - 1) for key, m in _ABOVE.items()}


def _levels_text(k: int) -> str:
    return FUCHSEN_LEVELS[k - 1]


@dataclass(frozen=True)
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


def _card_class(state: FuchsenState, blank: int, card: int) -> int:
    if card == blank:
        return NO_SUIT if state.alone else state.called_suit
    return CLASS[card]


def _key(state: FuchsenState, blank: int, card: int, led: int) -> int:
    """How strongly ``card`` holds in a trick of ``led`` class (-1: it cannot win)."""
    if card == blank:
        if state.alone or led != state.called_suit:
            return -1
        return 0  # the lowest card of the called suit
    cls = CLASS[card]
    if cls == TRUMP:
        return POWER[card]
    return POWER[card] if cls == led else -1


def _led(state: FuchsenState, blank: int, trick: tuple[tuple[int, int], ...]) -> int:
    led = _card_class(state, blank, trick[0][1])
    if led == NO_SUIT and len(trick) > 1:
        # A blank led in an alone game belongs to no suit: the next card sets the suit.
        led = _card_class(state, blank, trick[1][1])
    return led


class Fuchsen(Variant):
    """Fuchsen with 4 or 5 active players (6 seated: one sits out)."""

    name: ClassVar[str] = "fuchsen"

    def __init__(self) -> None:
        self._seat_cache: dict[tuple[Any, ...], Table] = {}
        # The house rules the seating depends on, for the latest rules object seen
        # (held here, so that ``is`` cannot confuse it with a later object).
        self._rules_last: tuple[Mapping[str, Any] | None, tuple[Any, ...]] = (None, ())
        # A plain ``__dict__`` (``unshared``): the states copied from it have one too.
        self._prototype = unshared(FuchsenState(variant=self, rules={}, phase="call"))

    # Before the call only the deal and shows can come, and neither depends on who
    # holds the called card.
    resume_candidates: ClassVar[bool] = True
    run_starts: ClassVar[frozenset[tuple[str, object]]] = frozenset(
        {("call", "call"), ("play", "play"), ("play", "raise"), ("play", "end_raising")}
    )
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
    def validate_deal(self, event: Event, rules: Mapping[str, Any]) -> Table:
        players = event["players"]
        key: tuple[Any, ...] | None = None
        if type(players) is list:
            # Seating is a pure function of these fields; clubs reuse a few seatings.
            # Only a valid seating is cached, so only the same names and values find it.
            last = self._rules_last
            if last[0] is not rules:
                last = (rules, (rules["sit_out"], tuple(rules["removed_cards"])))
                self._rules_last = last  # one assignment: safe between threads
            removed_field = event.get("removed", _ABSENT)
            try:
                key = (
                    event["dealer"],
                    event.get("sitting_out", _ABSENT),
                    tuple(removed_field) if type(removed_field) is list else removed_field,
                    last[1],
                    *players,
                )
                table = self._seat_cache.get(key)
            except TypeError:  # an unhashable value
                key, table = None, None
            if table is not None:
                return check_hands(event, table)
        table = self._seats(event, rules)
        if key is not None:
            if len(self._seat_cache) > 4096:
                self._seat_cache.clear()
            self._seat_cache[key] = table
        return check_hands(event, table)

    def _seats(self, event: Event, rules: Mapping[str, Any]) -> Table:
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
            deck = FULL_DECK & ~removed
        else:
            if "removed" in event:
                raise Illegal(Code.INVALID_DEAL, Msg.ARE_REMOVED_FIVE_ACTIVE_PLAYERS)
            deck = FULL_DECK & ~NO_SEVENS_EIGHTS
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
        # Cached, and copied with the dealt hands: a plain ``__dict__`` (``unshared``).
        return unshared(table)

    def initial_state(self, state: GameState, table: Table, know: Knowledge) -> GameState:
        n = len(table.active)
        # A frozen dataclass's __init__ sets its ~30 fields one by one; copying a
        # prototype is several times cheaper, once per record.
        return evolve_with(
            self._prototype,
            {
                "rules": state.rules,
                "table": table,
                "know": know,
                "assumed": state.assumed,
                "to_act": know.owner[EO],
                "leader": table.first,
                "won_cards": (0,) * n,
                "first_play": (-1,) * n,
            },
        )

    # ------------------------------------------------------------------ knowledge
    placing_types: ClassVar[frozenset[str]] = frozenset({"play", "show", "call"})
    reads_plays: ClassVar[bool] = True  # ``play_run``'s loops take them
    has_blank: ClassVar[bool] = True  # a turned card

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
                turned = event.get("turned")
                if isinstance(turned, str):
                    return INDEX.get(turned, -1)
                if turned is not True:
                    return -1
            elif (
                typ == "play"
                and macher is not None
                and event.get("turned") is True
                and event.get("player") == macher
            ):
                code = event.get("card")
                return INDEX.get(code, -1) if isinstance(code, str) else -1
        return -1

    # ------------------------------------------------------------------ events
    def handle(self, state: GameState, event: Event, index: int) -> GameState:
        assert isinstance(state, FuchsenState)
        typ = event["type"]
        if typ == "play":
            table = state.table
            assert table is not None
            return self.play(
                state, table.index[event["player"]], INDEX[event["card"]], event, index
            )
        if typ == "raise":
            return self._raise(state, event, index)
        if typ == "end_raising":
            return self._end_raising_event(state, index)
        if typ == "call":
            return self._call(state, event, index)
        if typ == "forfeit":
            return self._forfeit(state, event, index)
        if typ == "tally":
            return self._tally(state, event, index)
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

    def _tally(self, state: FuchsenState, event: Event, index: int) -> GameState:
        """What the table counted (event-stream.md, "The tally"): a pure tally before
        anything of the first trick, or a late one after the raising ended."""
        if state.phase == "call":
            raise Illegal(Code.OUT_OF_ORDER, Msg.TALLY_COMES_AFTER_CALL)
        if state.trick:
            raise Illegal(Code.OUT_OF_ORDER, Msg.TALLY_COMES_BETWEEN_TRICKS_TRICK)
        pure = not state.tricks
        if not pure and not state.raising_ended:
            raise Illegal(Code.OUT_OF_ORDER, Msg.TALLY_DOES_END_RAISING_RAISING)
        table = state.table
        know = state.know
        assert table is not None and know is not None
        level = state.level
        if "level" in event:
            said = event["level"]
            if not pure:
                raise Illegal(Code.INVALID_TALLY, Msg.TALLY_AFTER_FIRST_TRICK_GIVES, field="level")
            if said is not None and said not in LEVEL_NUMBER:
                raise Illegal(Code.INVALID_TALLY, Msg.UNKNOWN_LEVEL, rlevel=said, field="level")
            level = 0 if said is None else LEVEL_NUMBER[said]
        fuchs = state.fuchs_said
        if "fuchs" in event:
            if state.alone:
                raise Illegal(Code.INVALID_TALLY, Msg.ALONE_GAME_HAS_HILFER_WHO, field="fuchs")
            if not pure:
                raise Illegal(Code.INVALID_TALLY, Msg.TALLY_AFTER_FIRST_TRICK_DOES, field="fuchs")
            fuchs = event["fuchs"]
            if fuchs:
                h = state.hilfer
                if h < 0:
                    raise Illegal(Code.INVALID_TALLY, Msg.NOBODY_CAN_HAVE_SAID_FUCHS, field="fuchs")
                name = table.active[h]
                go_holder = know.owner[GO]
                if (go_holder >= 0 and go_holder != h) or (
                    go_holder < 0 and know.full(h) and not know.known[h] >> GO & 1
                ):
                    raise Illegal(
                        Code.INVALID_TALLY,
                        Msg.CANNOT_HAVE_SAID_FUCHS_RECORD,
                        player=name,
                        field="fuchs",
                    )
        if "partner" in event:
            name = event["partner"]
            if state.alone:
                raise Illegal(
                    Code.INVALID_TALLY,
                    Msg.ALONE_GAME_HAS_HILFER_CANNOT,
                    player=name,
                    field="partner",
                )
            check_tally_partner(table, know, state.called, name)
        # The state the tally's outcome is judged on: the level reached, the Fuchs said
        # or not, the raising over.
        new = evolve_with(
            state,
            {"level": level, "fuchs_said": fuchs, "raising_ended": True, "tallied": True},
        )
        assert isinstance(new, FuchsenState)
        has_won = "won" in event
        has_augen = "augen" in event
        if pure and ((level == 0 and not fuchs) or level == 1):
            # The game was over after the first trick: nothing more was counted.
            why = Msg.ENDED_NO_KONTRA if level == 0 else Msg.ENDED_NO_RE
            for key in ("augen", "silent"):
                if key in event:
                    raise Illegal(Code.INVALID_TALLY, why, field=key, rfield=key)
            won = level == 0
            if has_won and event["won"] != won:
                text = Msg.NO_KONTRA_WON if won else Msg.NO_RE_LOST
                raise Illegal(Code.INVALID_TALLY, text, field="won")
            decided = self._decide(new, "no_kontra" if won else "no_re", won, self._value(new))
            return self._after(decided, index)
        # Played out: the tally says who won.
        if not has_won and not has_augen:
            raise Illegal(Code.INVALID_TALLY, Msg.GAME_WAS_PLAYED_OUT_TALLY, field="won")
        augen = event["augen"] if has_augen else -1
        if has_augen and not 0 <= augen <= 121:
            raise Illegal(Code.INVALID_TALLY, Msg.AUGEN_LIE_BETWEEN, rvalue=augen, field="augen")
        won = event["won"] if has_won else augen >= 61
        if has_won and has_augen and won != (augen >= 61):
            msg = Msg.AUGEN_LOSE if won else Msg.AUGEN_WIN
            raise Illegal(Code.INVALID_TALLY, msg, field="augen", n=augen)
        silent = event.get("silent") is True
        if silent and not won:
            raise Illegal(Code.INVALID_TALLY, Msg.STILLES_SPIEL_NEEDS_MACHER_SIDE, field="silent")
        if silent and has_augen and augen != 121:
            raise Illegal(
                Code.INVALID_TALLY, Msg.STILLES_SPIEL_MACHER_SIDE_TAKES, n=augen, field="silent"
            )
        if not pure:
            self._fits_tricks(new, won, augen, silent)
        value = self._value(new)
        if silent:
            value += int(new.rules["silent_bonus"])
        new = evolve_with(new, {"tally_augen": augen})
        assert isinstance(new, FuchsenState)
        return self._after(self._decide(new, "tally", won, value, augen), index)

    def _fits_tricks(self, state: FuchsenState, won: bool, augen: int, silent: bool) -> None:
        """A late tally's outcome against the recorded tricks (``invalid_tally``)."""
        side = self._side_cards(state)
        every = 0
        for cards in state.won_cards:
            every |= cards
        ours = augen_of(side)
        theirs = augen_of(every & ~side)
        if not won and ours >= 61:
            raise Illegal(
                Code.INVALID_TALLY,
                Msg.MACHER_SIDE_RECORDED_TRICKS_ALREADY,
                n=ours,
                field="won" if augen < 0 else "augen",
            )
        if won and theirs >= 61:
            raise Illegal(
                Code.INVALID_TALLY,
                Msg.OPPONENTS_RECORDED_TRICKS_ALREADY_HOLD,
                n=theirs,
                field="won" if augen < 0 else "augen",
            )
        if augen >= 0 and not ours <= augen <= 121 - theirs:
            raise Illegal(
                Code.INVALID_TALLY,
                Msg.RECORDED_TRICKS_LEAVE_MACHER_SIDE,
                n=ours,
                n2=121 - theirs,
                n3=augen,
                field="augen",
            )
        if silent:
            macher, hilfer = state.macher, state.hilfer
            if any(winner not in (macher, hilfer) for _, _, winner in state.tricks):
                raise Illegal(
                    Code.INVALID_TALLY, Msg.OPPONENTS_WON_RECORDED_TRICK_STILLES, field="silent"
                )

    def _call(self, state: FuchsenState, event: Event, index: int) -> GameState:
        if state.phase != "call":
            raise Illegal(Code.OUT_OF_ORDER, Msg.MACHER_HAS_ALREADY_CALLED)
        table = state.table
        know = state.know
        assert table is not None and know is not None
        rules = state.rules
        p = table.index[event["player"]]
        name = table.active[p]
        alone = event.get("alone") is True
        card_code = event.get("card")
        turned_field = event.get("turned")
        turned_card = INDEX[turned_field] if isinstance(turned_field, str) else -1
        turned = turned_field is True or turned_card >= 0
        if turned_card >= 0:
            check_placement(state, p, turned_card)
        elif turned_field is True and know.blank >= 0:
            # The record reveals the blank later (its face-down play): in hindsight the
            # call turned that card, and the turning rules below judge it at the call.
            turned_card = know.blank
        if alone and card_code is not None:
            raise Illegal(Code.INVALID_CALL, Msg.PLAYS_ALONE_SO_CALLS, player=name)
        holder_eo = know.owner[EO]
        if holder_eo >= 0 and holder_eo != p:
            raise Illegal(
                Code.INVALID_CALL, Msg.MACHER_HOLDS_EO, player=name, other=table.active[holder_eo]
            )
        hand = know.known[p]
        full = hand.bit_count() >= 6  # ``know.full(p)``, without the call
        if full and not hand >> EO & 1:
            raise Illegal(Code.INVALID_CALL, Msg.MACHER_SIX_RECORD_SHOWS_FOR, player=name)
        six_trumps = full and hand & TRUMPS == hand
        if turned_card >= 0:
            if turned_card == EO:
                raise Illegal(Code.INVALID_CALL, Msg.MAY_TURN_EO_MACHER_STAYS, player=name)
            if TRUMPS >> turned_card & 1:
                if full and not six_trumps:
                    raise Illegal(
                        Code.INVALID_CALL,
                        Msg.MAY_TURN_TRUMP_SIX_TRUMPS,
                        player=name,
                        card=CODES[turned_card],
                    )
            elif not (rules["turn_low_plain"] and LOW_PLAIN >> turned_card & 1):
                msg = (
                    Msg.TURN_NOT_PLAIN_LOW if rules["turn_low_plain"] else Msg.TURN_NOT_ALLOWED_HERE
                )
                raise Illegal(Code.INVALID_CALL, msg, player=name, card=CODES[turned_card])
        if alone:
            if rules["alone_requires_six_trumps"] and full and not six_trumps:
                raise Illegal(Code.INVALID_CALL, Msg.MAY_PLAY_ALONE_SIX_TRUMPS, player=name)
            return evolve(
                state,
                phase="play",
                macher=p,
                hilfer=-1,
                alone=True,
                turned=turned,
                to_act=table.first,
                leader=table.first,
                said_at=(index,),
            )
        assert isinstance(card_code, str)
        called = INDEX[card_code]
        if TRUMPS >> called & 1:
            raise Illegal(Code.INVALID_CALL, Msg.MAY_CALL_TRUMP, player=name, card=card_code)
        if called == turned_card:
            raise Illegal(Code.INVALID_CALL, Msg.MAY_CALL_TURNED, player=name)
        own = know.owner[called] == p
        if own and not rules["call_own_card"]:
            raise Illegal(Code.INVALID_CALL, Msg.CALLS_OWN_CARD, player=name, card=card_code)
        if full and not (
            # The usual call: a plain card of the deck he does not hold (or may), of a
            # suit in which he holds a plain card; ``_callable`` allows it.
            table.deck >> called & 1
            and (rules["call_own_card"] or not hand >> called & 1)
            and (turned or hand & CLASS_MASK[CLASS[called]])
        ):
            allowed = self._callable(table, hand, turned, rules["call_own_card"])
            if not allowed >> called & 1:
                raise Illegal(
                    Code.INVALID_CALL, Msg.MAY_CALL_CALLED_MUST_SUIT, player=name, card=card_code
                )
        holder = know.owner[called]
        own_card = holder == p
        if own_card:
            hilfer = -1
        elif holder >= 0:
            hilfer = holder
        elif state.assumed >= 0:
            hilfer = state.assumed
        else:
            known = know.known
            candidates = tuple(
                [q for q in range(len(known)) if q != p and known[q].bit_count() < 6]
            )
            if not candidates:
                raise Illegal(Code.INVALID_CALL, Msg.NOBODY_HOLDS_CALLED, card=card_code)
            # Every check above passed without the partner, and none reads who holds
            # the called card (it is no trump, not turned, not the caller's): for any
            # candidate the call gives this state with him as the Hilfer.
            after = evolve_with(
                state,
                {
                    "phase": "play",
                    "macher": p,
                    "hilfer": -1,
                    "own_card": False,
                    "called": called,
                    "called_suit": CLASS[called],
                    "turned": turned,
                    "to_act": table.first,
                    "leader": table.first,
                    "said_at": (index,),
                },
            )
            raise NeedPartner(candidates, called, after)
        return evolve_with(
            state,
            {
                "phase": "play",
                "macher": p,
                "hilfer": hilfer,
                "own_card": own_card,
                "called": called,
                "called_suit": CLASS[called],
                "turned": turned,
                "to_act": table.first,
                "leader": table.first,
                "said_at": (index,),
            },
        )

    def assume_partner(self, need: NeedPartner, q: int) -> tuple[GameState, int] | None:
        """Candidate ``q`` goes on after the call that needed him: the call's state
        (``need.after``) with ``q`` holding the called card and as the Hilfer; or where
        ``share_prefix`` left him (``need.starts``) or all of them (``need.resume``)."""
        before = need.state
        after = need.after
        if after is None or before is None or before.know is None:
            return super().assume_partner(need, q)
        know = before.know.with_card(q, need.called)
        own = need.starts.get(q)
        if own is not None:
            return evolve(own[0], know=know, assumed=q, hilfer=q), own[1]
        resume = need.resume if need.resume >= 0 else need.position + 1
        if need.end_raising:
            # As ``_end_raising_event`` (whose checks the shared fold made) and the
            # run: the end of the raising, settled for him. ``_after`` changes
            # nothing here: an assumed candidate's called card is never shown.
            state = evolve_with(
                after, {"know": know, "assumed": q, "hilfer": q, "raising_ended": True}
            )
            assert isinstance(state, FuchsenState)
            return self._end_raising(state), resume
        return evolve(after, know=know, assumed=q, hilfer=q), resume

    def settled_payouts(
        self, need: NeedPartner, q: int, end: int
    ) -> tuple[bool, tuple[tuple[str, int], ...] | None]:
        """As ``assume_partner`` would leave ``q`` at ``end``: his decided payouts,
        computed without his state (no ``with_card``, no copies)."""
        after = need.after
        if end < 0 or q in need.starts or not isinstance(after, FuchsenState):
            return False, None
        if need.state is None or need.state.know is None:
            return False, None  # ``assume_partner`` replays him from the start
        if (need.resume if need.resume >= 0 else need.position + 1) != end:
            return False, None
        if after.annulled:
            return True, None
        decision = after.decision
        if need.end_raising:
            if decision is not None:
                return False, None  # ``share_prefix`` shares no decided game
            # As ``_end_raising`` and ``_decide`` with him as the Hilfer: the payouts
            # read the seats, the level and the rules, not the knowledge.
            level = after.level
            if level == 0 and not after.fuchs_said:
                signed = self._value(after)  # no kontra: the Macher's side wins
            elif level == 1:
                signed = -self._value(after)  # no re: it loses
            else:
                return True, None  # the game goes on
            table = after.table
            assert table is not None
            return True, _payouts(table, after.macher, q, signed)
        return True, None if decision is None else decision.payouts

    def settled_apart(self, need: NeedPartner, end: int) -> bool:
        """``settled_payouts`` without the payouts: with the end of the raising
        settled at ``end``, no kontra or no re pays each pairing the same nonzero
        value, so any two settled candidates (each the Hilfer of his own) differ."""
        after = need.after
        if end < 0 or not need.end_raising or need.resume != end:
            return False
        if not isinstance(after, FuchsenState) or after.annulled or after.decision is not None:
            return False
        if need.state is None or need.state.know is None:
            return False
        level = after.level
        if not ((level == 0 and not after.fuchs_said) or level == 1) or not self._value(after):
            return False
        # ``starts`` holds only candidates (each once), who left the shared fold.
        return len(need.candidates) - len(need.starts) >= 2

    def awaiting_result(self, need: NeedPartner) -> Result:
        after = need.after
        assert isinstance(after, FuchsenState)
        table = after.table
        if after.annulled or after.decision is not None or after.phase == "call" or table is None:
            return awaiting_partner(self.result(after))  # not a state the sharing gives
        # As ``result`` reads an undecided game (a decided one's first declarer is the
        # Macher too, and its tricks those of its state).
        return waiting_for_partner(
            self.name,
            "alone" if after.alone else "partner",
            (table.active[after.macher],),
            FUCHSEN_LEVELS[after.level - 1] if after.level else None,
            True,
            len(after.tricks),
        )

    def share_prefix(self, need: NeedPartner, events: list[tuple[int, Event]], stop: int) -> None:
        """Fold the first trick's plain plays and the raises once for the candidate
        partners, up to the end of the raising.

        From ``need.after`` (the call's state, partner open), a candidate ``q`` differs
        from the others only in being the Hilfer (raises, Fuchs, the forgotten-Fuchs
        watch, payouts) and in holding the called card (``know.with_card``). In the
        first trick these events read neither for ``q``, and are taken here exactly
        as ``play_run`` takes them (same checks, on the knowledge without the called
        card, whose owner is unknown so that a play of it is never taken):

        - a three-field play of the right player's own card, unless ``q`` plays it
          with the called suit led and it breaks his obligations with the called card
          in his hand (not of the led suit, or not beating the trick when the called
          card would); the called card is no trump and of the called suit, so it
          changes no other led-suit or trump test;
        - a three-field raise, unless ``q`` says it.

        A candidate whose own event is one of the exceptions leaves the shared fold
        there: his state before that event (partner open) and its position go to
        ``need.starts``, and he folds on from it himself. The others go on, ``q``
        being an opponent for them. Anything else, the Fuchs included, stops the
        shared fold; ``need.after`` and ``need.resume`` then say where the remaining
        candidates go on. After the first trick, raises go on as in it, and the end
        of the raising (which may read the Hilfer) ends the shared fold: a bare
        ``end_raising``, or the lead of trick 2, folded here. ``assume_partner``
        settles it per candidate (``need.end_raising``), as ``_end_raising_event`` or
        ``play`` would: the watch for a forgotten Fuchs finds nothing there, as an
        assumed candidate's called card is never shown. An alone game is never
        shared. An identified blank not yet played is taken as ``play_run`` takes it
        (no card of its printed suit; the Macher who could follow the called suit
        only with it, and its own face-down play, stop the shared fold). With a blank
        the record never identifies, every card ranks as printed and the Macher's card
        in a trick he did not lead is judged by ``play_obligation`` on the shared
        state: his obligations read his blank, never a candidate's called card.
        """
        before = need.state
        after = need.after
        if not isinstance(after, FuchsenState) or before is None or before.know is None:
            return
        if after.alone or after.tricks or after.decision is not None:
            return
        know = before.know
        # A turned card (the blank) the record identifies, not yet played, is no card
        # of its printed suit in the Macher's hand: as in ``play_run`` it counts as gone,
        # and the Macher who could follow the called suit with it alone is left to
        # each candidate's fold (its play, four fields, stops the shared fold too).
        blank_bit = 0
        # The Macher, when his blank is one the record never identifies (it was never
        # played face down): every card on the table then ranks as printed, and only
        # his own obligations read the blank he may hold.
        unseen = -1
        if after.turned:
            if after.blank_played:
                return
            if know.blank < 0:
                unseen = after.macher
            else:
                blank_bit = _BIT[know.blank]
        table = after.table
        assert table is not None
        owner = know.owner
        known = know.known
        index_of = table.index
        n = len(table.active)
        macher = after.macher
        called_suit = after.called_suit
        called_bit = _BIT[after.called]
        strict = after.rules["strict_raise_windows"]
        class_mask, above = (
            (CLASS_MASK_LOW, _ABOVE_LOW) if table.deck < _ONE_DIGIT else (CLASS_MASK, _ABOVE)
        )
        candidates = 0  # the candidates still in the shared fold
        for q in need.candidates:
            candidates |= 1 << q
        trick: list[tuple[int, int]] = []
        to_act = after.to_act
        first_play = list(after.first_play)
        last_play = after.last_play
        level = after.level
        said_at = list(after.said_at)
        gone = after.played | blank_bit
        led = wkey = winner = -1
        mask = 0
        start = k = need.position + 1
        tricks: tuple[tuple[int, tuple[tuple[int, int], ...], int], ...] = ()
        won = after.won_cards
        leader = after.leader

        try:
            while k < stop:
                i, event = events[k]
                if type(event) is not dict or len(event) != 3:
                    break
                typ = event["type"]
                if typ == "raise":
                    said = LEVEL_NUMBER[event["level"]]
                    p = index_of[event["player"]]
                    # As ``play_run`` judges it for every candidate but ``p``: ``p`` is
                    # on the Macher's side only if he is the Macher.
                    if said != level + 1 or first_play[p] < 0:
                        break
                    if (p == macher) != (said % 2 == 0):
                        break
                    if strict and last_play > first_play[p] and last_play > said_at[said - 1]:
                        break
                    if candidates >> p & 1:
                        # As the Hilfer he is on the other side: he goes on alone.
                        need.starts[p] = (
                            _shared(
                                after,
                                trick,
                                gone & ~blank_bit,
                                to_act,
                                leader,
                                first_play,
                                last_play,
                                tricks,
                                won,
                                level,
                                said_at,
                            ),
                            k,
                        )
                        candidates &= ~(1 << p)
                    level = said
                    said_at.append(i)
                    k += 1
                    continue
                if typ != "play":
                    break
                card = INDEX[event["card"]]
                p = index_of[event["player"]]
                bit = _BIT[card]
                if p != to_act or owner[card] != p or gone & bit:
                    break
                cls = CLASS[card]
                power = POWER[card]
                if trick:
                    if (
                        led == called_suit
                        and candidates >> p & 1
                        and (
                            cls != led
                            or (
                                power <= wkey
                                and (known[p] | called_bit) & ~gone & class_mask[led] & above[wkey]
                            )
                        )
                    ):
                        # As the Hilfer he holds a card of the led suit, the called card,
                        # which the card he played may not keep him from following suit
                        # with or beating the trick with: he goes on alone. A card of the
                        # led suit that keeps both for him with the called card in hand
                        # keeps them without it too, and he stays.
                        need.starts[p] = (
                            _shared(
                                after,
                                trick,
                                gone & ~blank_bit,
                                to_act,
                                leader,
                                first_play,
                                last_play,
                                tricks,
                                won,
                                level,
                                said_at,
                            ),
                            k,
                        )
                        candidates &= ~(1 << p)
                    hand = known[p] & ~gone  # as in ``play_run``
                    follow = hand & class_mask[led]
                    if p == unseen:
                        # His card in a trick he did not lead: his obligations read
                        # the blank he may hold (``play_obligation``), and nothing of
                        # any candidate's, so they are judged once, on the shared state.
                        shared = _shared(
                            after,
                            trick,
                            gone,
                            to_act,
                            leader,
                            first_play,
                            last_play,
                            tricks,
                            won,
                            level,
                            said_at,
                        )
                        if self.play_obligation(shared, p, card, hand) is not None:
                            break  # each candidate's fold words it
                        if cls in (led, TRUMP) and power > wkey:
                            wkey, winner = power, p
                    elif follow:
                        if cls != led:
                            break
                        if power > wkey:
                            wkey, winner = power, p
                        elif follow & above[wkey]:
                            break
                    elif blank_bit and p == macher and led == called_suit:
                        break  # only the blank follows the called suit: as ``play_run``
                    elif led != TRUMP:
                        trumps = hand & TRUMPS
                        if trumps:
                            if cls != TRUMP:
                                break
                            if power > wkey:
                                wkey, winner = power, p
                            elif trumps & above[wkey]:
                                break
                    mask |= bit
                elif tricks:
                    # The lead of trick 2 (no obligations) ends the raising: each
                    # candidate settles that from the state after it.
                    trick.append((p, card))
                    gone |= bit
                    last_play = i
                    to_act = (p + 1) % n
                    k += 1
                    need.end_raising = True
                    break
                else:
                    led, wkey, winner, mask = cls, power, p, bit
                trick.append((p, card))
                gone |= bit
                if first_play[p] < 0:
                    first_play[p] = i
                last_play = i
                k += 1
                if len(trick) < n:
                    to_act = (p + 1) % n
                else:
                    # The first trick is complete: raises may follow, then the end of
                    # the raising.
                    won_list = list(won)
                    won_list[winner] |= mask
                    won = tuple(won_list)
                    tricks = ((leader, tuple(trick), winner),)
                    leader = to_act = winner
                    trick = []
        except (KeyError, TypeError):
            pass  # at event ``k``: each candidate's own fold takes it
        if k == start:
            return
        if tricks and not trick and k < stop:
            # The first trick is in and the end of the raising follows, as its only
            # field: ``apply`` would accept it for every candidate (a trick done, none
            # on the table, the raising open), so each settles it from the shared state.
            event = events[k][1]
            if type(event) is dict and len(event) == 1 and event.get("type") == "end_raising":
                need.end_raising = True
                k += 1
        need.after = _shared(
            after,
            trick,
            gone & ~blank_bit,
            to_act,
            leader,
            first_play,
            last_play,
            tricks,
            won,
            level,
            said_at,
        )
        need.resume = k

    @staticmethod
    def _callable(table: Table, hand: int, turned: bool, own_ok: bool) -> int:
        """The cards a Macher with this whole hand may call."""
        plain_deck = table.deck & PLAIN
        not_held = plain_deck & ~hand
        if own_ok:
            not_held = plain_deck
        if turned:
            return not_held
        suits = 0
        for k in (0, 1, 3):
            if hand & CLASS_MASK[k]:
                suits |= CLASS_MASK[k]
        allowed = not_held & suits
        if not allowed & ~hand:
            # His hand allows no call at all: he may call any plain card not in his hand.
            return not_held
        return allowed

    def _raise(self, state: FuchsenState, event: Event, index: int) -> GameState:
        if state.phase == "call":
            raise Illegal(Code.OUT_OF_ORDER, Msg.NOBODY_CAN_RAISE_BEFORE_CALL)
        table = state.table
        assert table is not None
        p = table.index[event["player"]]
        name = table.active[p]
        level = event["level"]
        if level not in FUCHSEN_LEVELS:
            raise Illegal(Code.INVALID_RAISE, Msg.UNKNOWN_LEVEL, rlevel=level)
        k = FUCHSEN_LEVELS.index(level) + 1
        if state.raising_ended:
            raise Illegal(Code.INVALID_RAISE, Msg.CANNOT_SAY_RAISING_OVER, player=name, level=level)
        if k != state.level + 1:
            expected = _levels_text(state.level + 1) if state.level < 8 else "nothing more"
            raise Illegal(
                Code.INVALID_RAISE,
                Msg.CANNOT_SAY_NEXT_LEVEL,
                player=name,
                level=level,
                level2=expected,
            )
        declarer_side = p == state.macher or p == state.hilfer
        if declarer_side != (k % 2 == 0):
            msg = Msg.RAISE_MACHERS_SIDE if k % 2 == 0 else Msg.RAISE_OPPONENTS
            raise Illegal(Code.INVALID_RAISE, msg, player=name, level=level)
        first = state.first_play[p]
        if first < 0:
            raise Illegal(
                Code.INVALID_RAISE, Msg.CANNOT_SAY_BEFORE_PLAYING, player=name, level=level
            )
        opened = max(first, state.said_at[k - 1])
        if state.rules["strict_raise_windows"] and state.last_play > opened:
            raise Illegal(
                Code.INVALID_RAISE, Msg.CANNOT_SAY_CHANCE_LAPSED_WHEN, player=name, level=level
            )
        return evolve(state, level=k, said_at=(*state.said_at, index))

    def _end_raising_event(self, state: FuchsenState, index: int) -> GameState:
        if state.phase == "call" or state.tricks_done < 1 or state.trick or state.raising_ended:
            raise Illegal(Code.OUT_OF_ORDER, Msg.RAISING_ENDS_ONCE_WHEN_FIRST)
        return self._after(self._end_raising(state), index)

    def _end_raising(self, state: FuchsenState) -> FuchsenState:
        if not state.raising_ended:  # a run hands over a state with it already set
            state = evolve(state, raising_ended=True)
        if state.level == 0:
            if state.fuchs_said:
                return state
            return self._decide(state, "no_kontra", True, self._value(state))
        if state.level == 1:
            return self._decide(state, "no_re", False, self._value(state))
        return state

    def check_card(self, state: GameState, p: int, card: int) -> None:
        if state.phase == "call":
            raise Illegal(Code.OUT_OF_ORDER, Msg.PLAYED_BEFORE_MACHER_HAS_CALLED)
        check_play(self, state, p, card)

    def play(  # type: ignore[override]
        self, state: FuchsenState, p: int, card: int, event: Event, index: int
    ) -> GameState:
        self.check_card(state, p, card)
        table = state.table
        know = state.know
        assert table is not None and know is not None
        fuchs = event.get("fuchs") is True
        if fuchs:
            name = table.active[p]
            if state.alone or p != state.hilfer:
                raise Illegal(Code.INVALID_ANNOUNCEMENT, Msg.HILFER_HILFER_SAYS_FUCHS, player=name)
            if state.first_play[p] >= 0:
                raise Illegal(
                    Code.INVALID_ANNOUNCEMENT, Msg.MAY_SAY_FUCHS_FIRST_PLAYED, player=name
                )
            go_holder = know.owner[GO]
            if (go_holder >= 0 and go_holder != p) or (
                go_holder < 0 and know.full(p) and not know.known[p] >> GO & 1
            ):
                raise Illegal(
                    Code.INVALID_ANNOUNCEMENT, Msg.CANNOT_SAY_FUCHS_RECORD_SHOWS, player=name
                )
        is_blank = state.turned and p == state.macher and card == know.blank
        if event.get("turned") is True:
            if not is_blank or state.blank_played:
                raise Illegal(
                    Code.FACE_DOWN_CARD_MISMATCH,
                    Msg.NOT_THE_TURNED_CARD,
                    player=table.active[p],
                    card=CODES[card],
                )
        elif is_blank:
            raise Illegal(
                Code.FACE_DOWN_CARD_MISMATCH,
                Msg.TURNED_MUST_PLAYED_FACE_DOWN,
                player=table.active[p],
                card=CODES[card],
            )
        ends_raising = not state.raising_ended and len(state.tricks) == 1 and not state.trick
        extra: dict[str, Any] | None = None
        if fuchs or is_blank:
            extra = {"fuchs_said": True} if fuchs else {"blank_played": True}
        new = add_card(self, state, p, card, index, extra)
        assert isinstance(new, FuchsenState)
        if ends_raising:
            new = self._end_raising(new)
        elif len(new.tricks) == 6 and new.decision is None:
            new = self._played_out(new)
        h = new.hilfer
        # Only a Hilfer who holds GO (in hindsight) can have forgotten his Fuchs.
        if h >= 0 and new.raising_ended and not new.fuchs_said and know.owner[GO] == h:
            return self._after(new, index)
        return new

    def play_run(  # type: ignore[override]
        self, state: FuchsenState, events: list[tuple[int, Event]], k: int, stop: int
    ) -> tuple[GameState, int]:
        """Ordinary plays, folded on local variables (see ``Variant.play_run``).

        Handled, in a game without a blank: a three-field play of the right player's
        own unplayed card that keeps his obligations and does not end the game; a
        legal raise; an end of the raising (``end_raising`` or the first card of
        trick 2) after which the game goes on. Nothing is handled while a forgotten
        Fuchs may come to light. Anything else stops the run, and ``apply`` takes
        that event (and words any error).
        """
        if state.decision is not None or state.annulled:
            return state, k
        if state.phase == "play" and k < stop:
            first_event = events[k][1]
            if type(first_event) is dict and len(first_event) == 4 and "turned" in first_event:
                # A card played face down (the blank): no run takes it (the loops
                # below stop at it at once), so none is set up for it.
                return state, k
        table = state.table
        know = state.know
        assert table is not None and know is not None
        if state.phase == "call":
            # The usual call, ``{type, player, card}``, or one with a turned card
            # (``turned``: true, or the code of a card of the deck): its fields pass
            # apply's checks (kinds, cards of the deck, a player who plays), so it goes
            # straight to ``_call``, which may raise for this event as ``apply`` would.
            # The plays after it follow in the same run.
            i, event = events[k]
            if type(event) is not dict or event.get("type") != "call":
                return state, k
            size = len(event)
            if size != 3:
                turned = event.get("turned")
                if size != 4:
                    return state, k
                if turned is not True:
                    if type(turned) is not str:
                        return state, k
                    face_down = INDEX.get(turned, -1)
                    if face_down < 0 or not table.deck >> face_down & 1:
                        return state, k
            player = event.get("player")
            code = event.get("card")
            if type(player) is not str or type(code) is not str:
                return state, k
            card = INDEX.get(code, -1)
            if card < 0 or not table.deck >> card & 1 or player not in table.index:
                return state, k
            after = self._call(state, event, i)
            assert isinstance(after, FuchsenState)
            return self.play_run(after, events, k + 1, stop)
        # A turned card the record identifies (``blank``) is left to ``apply``: the run
        # stops at it; other cards rank as printed, and the blank is no card of its
        # printed suit in the Macher's hand. Once it lies in the trick it ranks as
        # ``_key`` says (in a partner game: the lowest card of the called suit); in an
        # alone game it belongs to no suit, and the run leaves that trick to ``apply``.
        # A blank the record never identifies (``know.blank`` -1) was never played (a
        # face-down play identifies it), so every card on the table ranks as printed and
        # only the Macher's obligations read it (``amb`` in ``play_obligation``): the
        # run leaves the Macher's cards in a trick he does not lead to ``apply``.
        blank = -1
        blank_bit = 0
        # The Macher who still holds the blank of a called suit follows that suit with it.
        blank_follows_suit = NO_SUIT
        unseen_blank = -1  # the Macher, if he holds a blank the record never identifies
        if state.turned and know.blank < 0:
            unseen_blank = state.macher
        elif state.turned:
            blank = know.blank
            if state.alone and any(c == blank for _, c in state.trick):
                return state, k
            blank_bit = 1 << blank
            if not state.blank_played and not state.alone:
                blank_follows_suit = state.called_suit
        hilfer = state.hilfer
        macher = state.macher
        # Could the Hilfer have forgotten his Fuchs? Then every event after the end of
        # the raising may decide the game: apply judges those.
        watch = hilfer >= 0 and not state.fuchs_said and know.owner[GO] == hilfer
        if watch and state.raising_ended:
            return state, k
        # The raising may end in the run only if the game then goes on (case 2 or 4).
        fuchs_said = state.fuchs_said
        may_end = not watch and (state.level >= 2 or (state.level == 0 and fuchs_said))
        strict = state.rules["strict_raise_windows"]
        level = state.level
        said_at = list(state.said_at)
        index_of = table.index
        names = table.active
        n = len(names)
        owner = know.owner
        known = know.known
        raising_ended = state.raising_ended
        trick = list(state.trick)
        played = state.played
        to_act = state.to_act
        leader = state.leader
        first_play = list(state.first_play)
        last_play = state.last_play
        tricks = list(state.tricks)
        done = len(tricks)
        won = list(state.won_cards)
        # The trick on the table: its led class (and its cards), who holds it and
        # ``wkey``, the key a card must beat, kept up to date card by card. A card
        # played in the run is never the blank: it takes the trick if it is of the led
        # class or a trump, with a higher ``POWER`` (its key).
        led = winner = mask = wkey = -1
        led_mask = 0
        # Masked by the deck (see ``CLASS_MASK_LOW``).
        class_mask, above = (
            (CLASS_MASK_LOW, _ABOVE_LOW) if table.deck < _ONE_DIGIT else (CLASS_MASK, _ABOVE)
        )
        if trick:
            first = trick[0][1]
            led = state.called_suit if first == blank else CLASS[first]
            mask = 0
            for q, c in trick:
                mask |= 1 << c
                if c == blank:  # as ``_key``, in a partner game
                    key = 0 if led == state.called_suit else -1
                else:
                    key = POWER[c] if CLASS[c] in (TRUMP, led) else -1
                if key > wkey:
                    wkey, winner = key, q
            led_mask = class_mask[led]
        gone = gone_before = played | blank_bit  # cards no longer (or never) to be played
        start = k
        # The run's last event may decide the game: 1 the last card (played out), 2 the
        # lead of trick 2 ending the raising at level 0 or 1 (no kontra, no re).
        finish = 0
        # Once the raising is over in a game without a blank, only plays can follow
        # and only the last card decides the game: the loop after this one folds
        # those with fewer tests.
        plain = not state.turned
        # A blank played face down (which identifies it) ranks apart only in its own
        # trick: once that trick is over, the game goes on as one without a blank.
        blank_gone = state.turned and state.blank_played and unseen_blank < 0
        lean = raising_ended and (
            plain or (blank_gone and not any(c == blank for _, c in state.trick))
        )
        gone_lean = -1  # ``gone`` where the lean loop began
        # Where the knowledge pass read these very events (``ReadKnowledge``), it hands
        # over each plain play as ``(player, card)`` (``NO_PLAY`` for any other event):
        # the loops below take it instead of reading the event's fields again, and the
        # pair itself goes into the trick.
        plays: tuple[tuple[int, int], ...] = ()
        if type(know) is ReadKnowledge and getattr(know, "events", None) is events:
            plays = know.plays  # (``getattr``: a copy made without the reading has none)
        read = bool(plays)
        pair: tuple[int, int]
        # Field lookups come first in each event and raise KeyError or TypeError for a
        # missing field or a value of the wrong kind: the run then stops at that event
        # (nothing of it is folded yet) and ``apply`` words the error.
        try:
            while not lean and k < stop:
                i, event = events[k]
                says_fuchs = False
                if read and (pair := plays[k])[0] == to_act:
                    # A plain play of the player to act, of his own card (as the
                    # knowledge pass read it: see ``ReadKnowledge``).
                    p = to_act
                    card = pair[1]
                    bit = _BIT[card]
                    if gone & bit:
                        break
                else:
                    if type(event) is not dict:
                        break
                    typ = event["type"]
                    if typ != "play":
                        if typ == "raise" and len(event) == 3 and not raising_ended:
                            said = LEVEL_NUMBER[event["level"]]
                            p = index_of[event["player"]]
                            if said != level + 1 or first_play[p] < 0:
                                break
                            if (p in (macher, hilfer)) != (said % 2 == 0):
                                break
                            if (
                                strict
                                and last_play > first_play[p]
                                and last_play > said_at[said - 1]
                            ):
                                break
                            level = said
                            said_at.append(i)
                            may_end = not watch and (level >= 2 or (level == 0 and fuchs_said))
                            k += 1
                            continue
                        if (
                            typ == "end_raising"
                            and len(event) == 1
                            and not watch
                            and not raising_ended
                            and done == 1
                            and not trick
                        ):
                            raising_ended = True
                            k += 1
                            if may_end:
                                lean = plain
                                continue
                            finish = 2  # at level 0 or 1 this may end the game
                        break
                    if len(event) != 3:
                        # The Hilfer's Fuchs with his first card, in the first trick
                        # (later every player has played): ``{type, player, card, fuchs:
                        # true}``.
                        if len(event) != 4 or done or event["fuchs"] is not True:
                            break
                        says_fuchs = True
                    card = INDEX[event["card"]]
                    # The name itself, not its index: the same test (names are unique).
                    if event["player"] != names[to_act]:
                        break
                    p = to_act
                    # The record puts only cards of the deck in a hand: no deck test.
                    bit = _BIT[card]
                    if owner[card] != p or gone & bit:
                        break
                    pair = (p, card)
                if says_fuchs:
                    # As ``play``: only the Hilfer, with his first card, not lacking GO.
                    go = owner[GO]
                    if p != hilfer or first_play[p] >= 0 or go not in (p, -1):
                        break
                    if go < 0 and known[p].bit_count() >= 6 and not known[p] >> GO & 1:
                        break
                ending = 0
                cls = CLASS[card]
                power = POWER[card]
                if trick:
                    if p == unseen_blank:
                        break  # his unseen blank may be any card he could turn: apply
                    if done == 5 and len(trick) == n - 1:
                        ending = 1  # the last card of the game (once its checks pass)
                    # His unplayed cards, this one too: only a card of the led class
                    # or a trump can take the trick, which it does with a higher power.
                    hand = known[p] & ~gone
                    follow = hand & led_mask
                    if follow:
                        # He follows suit, and beats the trick if he can.
                        if cls != led:
                            break
                        if power > wkey:
                            wkey, winner = power, p
                        elif follow & above[wkey]:
                            break
                    elif led == blank_follows_suit and p == macher:
                        break  # only the blank follows: apply judges it
                    elif led != TRUMP:
                        # He trumps, and over-trumps if he can.
                        trumps = hand & TRUMPS
                        if trumps:
                            if cls != TRUMP:
                                break
                            if power > wkey:
                                wkey, winner = power, p
                            elif trumps & above[wkey]:
                                break
                    mask |= bit
                else:
                    if not raising_ended and done == 1:
                        if may_end:
                            lean = plain
                        elif watch:
                            break  # a forgotten Fuchs may come to light: apply judges
                        else:
                            ending = 2  # this end of the raising may end the game
                        raising_ended = True
                    led, wkey, winner, mask = cls, power, p, bit
                    led_mask = class_mask[cls]
                trick.append(pair)
                gone |= bit  # the cards played in the run: ``gone`` less ``gone_before``
                if first_play[p] < 0:
                    first_play[p] = i
                last_play = i
                if len(trick) < n:
                    to_act = (p + 1) % n
                else:
                    won[winner] |= mask
                    tricks.append((leader, tuple(trick), winner))
                    done += 1
                    leader = to_act = winner
                    trick = []
                    if blank_gone and raising_ended and not ending:
                        lean = True  # the blank's trick is over (see ``blank_gone``)
                k += 1
                if says_fuchs:
                    # Said: no forgotten Fuchs to watch for (no ending in trick 1).
                    fuchs_said = True
                    watch = False
                    may_end = level >= 2 or level == 0
                if ending:
                    finish = ending
                    break
            if lean:
                # The raising is over (and with it trick 1, the Fuchs and the watch for
                # a forgotten one) and no card is turned: the tests above for a play of
                # the right player's own card, and only the last card decides the game.
                # Kept lean, as most events are these. Each new int above 256 is an
                # allocation, so the tests compare small ints where they can (a card's
                # class and power against ``wkey``, the power to beat), the cards of
                # the trick are ``gone`` less ``trick_from`` and the trick is complete
                # when the turn comes back to ``leader`` (who led it: every card is the
                # next player's); ``k`` and ``last_play`` are worked out after the loop
                # (each play adds its card to ``gone``).
                following = _FOLLOWING[n]
                gone_lean = gone
                trick_from = gone ^ mask if trick else gone
                if read:
                    # The same loop as below, but for reading the events: a pair is a
                    # play of the player's own card (see ``ReadKnowledge``).
                    # The tables as locals: a local is read faster than a global.
                    bit_of, class_of, power_of = _BIT, CLASS, POWER
                    for pair in plays[k:stop]:
                        card = pair[1]
                        bit = bit_of[card]
                        if pair[0] != to_act or gone & bit:
                            break
                        cls = class_of[card]
                        power = power_of[card]
                        if trick:
                            hand = known[to_act] & ~gone
                            follow = hand & led_mask
                            if follow:
                                if cls != led:
                                    break
                                if power > wkey:
                                    wkey, winner = power, to_act
                                elif follow & above[wkey]:
                                    break
                            elif led != TRUMP:
                                trumps = hand & TRUMPS
                                if trumps:
                                    if cls != TRUMP:
                                        break
                                    if power > wkey:
                                        wkey, winner = power, to_act
                                    elif trumps & above[wkey]:
                                        break
                        else:
                            led, wkey, winner = cls, power, to_act
                            led_mask = class_mask[cls]
                            trick_from = gone
                        trick.append(pair)
                        gone |= bit
                        to_act = following[to_act]
                        if to_act == leader:
                            won[winner] |= gone ^ trick_from
                            tricks.append((leader, tuple(trick), winner))
                            leader = to_act = winner
                            trick = []
                            if len(tricks) == 6:
                                finish = 1
                                break
                else:
                    for _, event in events[k:stop]:
                        if type(event) is not dict or len(event) != 3 or event["type"] != "play":
                            break
                        card = INDEX[event["card"]]
                        if event["player"] != names[to_act]:
                            break
                        if owner[card] != to_act or gone & _BIT[card]:
                            break
                        cls = CLASS[card]
                        power = POWER[card]
                        if trick:
                            hand = known[to_act] & ~gone  # as above
                            follow = hand & led_mask
                            if follow:
                                if cls != led:
                                    break
                                if power > wkey:
                                    wkey, winner = power, to_act
                                elif follow & above[wkey]:
                                    break
                            elif led != TRUMP:
                                trumps = hand & TRUMPS
                                if trumps:
                                    if cls != TRUMP:
                                        break
                                    if power > wkey:
                                        wkey, winner = power, to_act
                                    elif trumps & above[wkey]:
                                        break
                        else:
                            led, wkey, winner = cls, power, to_act
                            led_mask = class_mask[cls]
                            trick_from = gone
                        trick.append((to_act, card))
                        gone |= _BIT[card]
                        to_act = following[to_act]
                        if to_act == leader:
                            won[winner] |= gone ^ trick_from
                            tricks.append((leader, tuple(trick), winner))
                            leader = to_act = winner
                            trick = []
                            if len(tricks) == 6:
                                finish = 1  # the last card: played out
                                break
        except (KeyError, TypeError):
            pass  # at event ``k``: apply takes it
        if gone_lean >= 0:
            played_lean = (gone ^ gone_lean).bit_count()
            if played_lean:
                k += played_lean
                last_play = events[k - 1][0]
        if k == start:
            return state, k
        new = evolve_with(
            state,
            {
                "trick": tuple(trick),
                "played": played | (gone ^ gone_before),
                "to_act": to_act,
                "leader": leader,
                "first_play": tuple(first_play),
                "last_play": last_play,
                "tricks": tuple(tricks),
                "won_cards": tuple(won),
                "level": level,
                "said_at": tuple(said_at),
                "raising_ended": raising_ended,
                "fuchs_said": fuchs_said,
            },
        )
        if finish == 1:
            return self._played_out(new), k
        if finish == 2:
            return self._end_raising(new), k
        return new, k

    def _forfeit(self, state: FuchsenState, event: Event, index: int) -> GameState:
        if state.phase == "call":
            raise Illegal(Code.OUT_OF_ORDER, Msg.FORFEIT_COMES_AFTER_CALL)
        table = state.table
        assert table is not None
        p = table.index[event["player"]]
        declarer_side = p == state.macher or p == state.hilfer
        return self._decide(state, "forfeit", not declarer_side, self._value(state))

    # ------------------------------------------------------------------ decisions
    def _after(self, state: FuchsenState, index: int) -> FuchsenState:
        """Judge a forgotten Fuchs on what the record has shown up to ``index``.

        It takes precedence over the other endings, so an early end (no kontra, no re)
        or an end by play at this very event gives way to it; a forfeit stands.
        """
        h = state.hilfer
        if h < 0 or state.fuchs_said or state.annulled or not state.raising_ended:
            return state
        d = state.decision
        if d is not None and not (
            d.reason in ("no_kontra", "no_re", "tally")
            or (d.reason == "played_out" and state.last_play == index)
        ):
            return state
        know = state.know
        assert know is not None
        if (
            (state.first_play[h] >= 0 or state.tallied)
            and know.shown_by(h, GO, index)
            and know.shown_by(h, state.called, index)
        ):
            value = int(state.rules["fuchs_penalty"]) + self._value(state)
            # The Augen a tally gave are still reported (never those of an early end).
            return self._decide(state, "fuchs_forgotten", False, value, state.tally_augen)
        return state

    def after_show(self, state: GameState, index: int) -> GameState:
        assert isinstance(state, FuchsenState)
        return self._after(state, index)

    def _value(self, state: FuchsenState) -> int:
        rules = state.rules
        if state.level <= 1:
            return int(rules["min_value"])
        name = FUCHSEN_LEVELS[state.level - 1]
        value = int(rules["level_values"][name]) + int(rules["game_cost"])
        if name == "end":
            value += int(rules["end_bonus"])
        return value

    @staticmethod
    def _side_cards(state: FuchsenState) -> int:
        """The cards in the tricks the Macher's side won."""
        won = state.won_cards
        cards = won[state.macher]
        if state.hilfer >= 0:
            cards |= won[state.hilfer]
        return cards

    def _played_out(self, state: FuchsenState) -> FuchsenState:
        won = state.won_cards
        ours_cards = won[state.macher]  # as ``_side_cards``
        if state.hilfer >= 0:
            ours_cards |= won[state.hilfer]
        every = 0
        for cards in won:
            every |= cards
        ours = augen_of(ours_cards)
        value = self._value(state)
        if ours_cards == every:
            # The opponents won no trick (a trick's cards go to its winner).
            value += int(state.rules["silent_bonus"])
        return self._decide(state, "played_out", ours >= 61, value, ours)

    def _decide(
        self, state: FuchsenState, reason: str, won: bool, value: int, ours: int = -1
    ) -> FuchsenState:
        """The decided state. ``ours``: the Augen of the Macher's side, if counted."""
        table = state.table
        assert table is not None
        signed = value if won else -value  # what each declarer-side pairing pays
        # Each opponent pays ``signed`` (the declarers' entries are set below), one who
        # sits out nothing. (``_payouts`` computes the same; written out here, where
        # every decided game passes, to spare a call.)
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
        tricks = len(state.tricks)
        augen = None
        if tricks == 6:
            if ours < 0:
                ours = augen_of(self._side_cards(state))
            augen = (ours, 121 - ours)
        elif ours >= 0:  # the Augen a tally gave
            augen = (ours, 121 - ours)
        # Positional: the fields in order (see ``Decision.__init__``).
        decision = Decision(reason, won, value, tuple(pay.items()), declarers, tricks, augen)
        return evolve_with(state, {"decision": decision})

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
            # payouts, level, has_level, augen): no keyword matching, once a record.
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
            )
        if table is None:
            return Result(status="in_progress", game=self.name, awaiting="deal")
        if state.phase == "call":
            to_act = table.active[state.to_act] if state.to_act >= 0 else None
            return Result(status="in_progress", game=self.name, awaiting="call", to_act=to_act)
        declarers: tuple[str, ...] = (table.active[state.macher],)
        if state.hilfer >= 0:
            declarers += (table.active[state.hilfer],)
        if state.tricks_done == 1 and not state.trick and not state.raising_ended:
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
    def trick_winner(  # type: ignore[override]
        self, state: FuchsenState, trick: tuple[tuple[int, int], ...]
    ) -> int:
        if not state.turned:
            led = CLASS[trick[0][1]]
            best, best_key = trick[0][0], -2
            for q, c in trick:
                cls = CLASS[c]
                k = POWER[c] if cls in (TRUMP, led) else -1
                if k > best_key:
                    best, best_key = q, k
            return best
        assert state.know is not None
        blank = state.know.blank
        led = _led(state, blank, trick)
        best, best_key = trick[0][0], -2
        for q, c in trick:
            k = _key(state, blank, c, led)
            if k > best_key:
                best, best_key = q, k
        return best

    @staticmethod
    def _maybe_blank(state: FuchsenState, p: int, plain: int) -> int:
        """Cards of ``p``'s known hand that could be the blank he turned unseen."""
        know = state.know
        assert know is not None
        maybe = plain & LOW_PLAIN if state.rules["turn_low_plain"] else 0
        if not know.known[p] & PLAIN:
            maybe |= plain & TRUMPS & ~(1 << EO)
        return maybe

    def play_obligation(  # type: ignore[override]
        self, state: FuchsenState, p: int, card: int, hand: int
    ) -> Illegal | None:
        trick = state.trick
        if not trick:
            return None
        if not state.turned:
            # The common case, with no blank anywhere: bitmask tests only. When an
            # obligation is broken, the general path below words the message.
            led = CLASS[trick[0][1]]
            wkey = -1
            for _, c in trick:
                cls = CLASS[c]
                if (cls in (TRUMP, led)) and POWER[c] > wkey:
                    wkey = POWER[c]
            led_cards = hand & CLASS_MASK[led]
            if led_cards:
                if CLASS[card] == led:
                    if POWER[card] > wkey:
                        return None
                    while led_cards:
                        low = led_cards & -led_cards
                        if POWER[low.bit_length() - 1] > wkey:
                            break
                        led_cards ^= low
                    else:
                        return None
            elif led == TRUMP:
                return None
            else:
                trumps = hand & TRUMPS
                if not trumps:
                    return None
                if CLASS[card] == TRUMP:
                    if POWER[card] > wkey:
                        return None
                    while trumps:
                        low = trumps & -trumps
                        if POWER[low.bit_length() - 1] > wkey:
                            break
                        trumps ^= low
                    else:
                        return None
        assert state.know is not None
        blank = state.know.blank if state.turned else -1
        led = _led(state, blank, trick)
        if led == NO_SUIT:
            return None  # the blank was led in an alone game: any card
        wkey = max(_key(state, blank, c, led) for _, c in trick)
        plain = hand & ~(1 << blank) if blank >= 0 else hand
        has_blank = p == state.macher and state.turned and not state.blank_played
        # A blank the record never identifies could be any card he was allowed to turn:
        # such a card proves nothing about its printed suit unless he holds two of them.
        amb = self._maybe_blank(state, p, plain) if has_blank and blank < 0 else 0
        amb &= ~(1 << card)  # the card he plays face up is not his blank
        led_cards = _proven(plain & CLASS_MASK[led], amb)
        blank_follows = has_blank and not state.alone and led == state.called_suit
        card_cls = _card_class(state, blank, card)
        name = name_of(state, p)
        what = CLASS_NAME[led]
        if led_cards or blank_follows:
            if card_cls != led:
                example = _example(led_cards, blank_follows)
                if led == TRUMP:
                    return Illegal(
                        Code.MUST_FOLLOW_SUIT, Msg.FOLLOW_TRUMPS, player=name, example=example
                    )
                return Illegal(
                    Code.MUST_FOLLOW_SUIT, Msg.FOLLOW_SUIT, player=name, example=example, suit=what
                )
            if _key(state, blank, card, led) <= wkey:
                better = 0
                for c in bits(led_cards):
                    if _key(state, blank, c, led) > wkey:
                        better |= 1 << c
                for c in bits(_proven(better, amb)):
                    return Illegal(
                        Code.MUST_OVERTAKE,
                        Msg.BEAT_THE_TRICK,
                        player=name,
                        card=CODES[c],
                        card2=CODES[card],
                    )
            return None
        if led == TRUMP:
            return None
        trumps = _proven(plain & CLASS_MASK[TRUMP], amb)
        if trumps:
            if card_cls != TRUMP:
                example = CODES[next(bits(trumps))]
                return Illegal(Code.MUST_TRUMP, Msg.TRUMP, player=name, card=example, suit=what)
            if _key(state, blank, card, led) <= wkey:
                better = 0
                for c in bits(trumps):
                    if POWER[c] > wkey:
                        better |= 1 << c
                for c in bits(_proven(better, amb)):
                    return Illegal(
                        Code.MUST_TRUMP,
                        Msg.OVER_TRUMP,
                        player=name,
                        card=CODES[c],
                        card2=CODES[card],
                    )
        return None


def _payouts(table: Table, macher: int, hilfer: int, signed: int) -> tuple[tuple[str, int], ...]:
    """A decided game's payouts, seated player by seated player, as ``Fuchsen._decide``
    sets them: ``signed`` is what each pairing of a declarer-side player with an
    opponent pays the declarer's side (``hilfer`` -1: the Macher alone)."""
    # Each opponent pays ``signed`` (the declarers' entries are set below), one who
    # sits out nothing.
    pay = dict.fromkeys(table.players, -signed)
    if table.sitting_out is not None:
        pay[table.sitting_out] = 0
    active = table.active
    if hilfer >= 0:
        # Each opponent is paired with one player of the Macher's side.
        pay[active[hilfer]] = signed
        pay[active[macher]] = signed * (len(active) - 3)
    else:
        pay[active[macher]] = signed * (len(active) - 1)
    return tuple(pay.items())


def _shared(
    after: FuchsenState,
    trick: list[tuple[int, int]],
    played: int,
    to_act: int,
    leader: int,
    first_play: list[int],
    last_play: int,
    tricks: tuple[tuple[int, tuple[tuple[int, int], ...], int], ...],
    won: tuple[int, ...],
    level: int,
    said_at: list[int],
) -> FuchsenState:
    """The state ``Fuchsen.share_prefix`` has reached (partner open)."""
    return evolve_with(
        after,
        {
            "trick": tuple(trick),
            "played": played,
            "to_act": to_act,
            "leader": leader,
            "first_play": tuple(first_play),
            "last_play": last_play,
            "tricks": tricks,
            "won_cards": won,
            "level": level,
            "said_at": tuple(said_at),
        },
    )


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
