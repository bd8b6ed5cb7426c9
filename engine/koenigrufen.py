"""Gradener Königrufen (spec/koenigrufen.md): the auction, the contracts, schurln."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, Self

from engine.board import Board
from engine.cards import CODES, INDEX, SUIT_NAMES, SUITS, card_list, mask_of
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
    _is_bool,
    _is_str,
    _is_str_list,
    check_placement,
    name_of,
    tally_partner_refusal,
)
from engine.errors import Code, Msg
from engine.result import Result
from engine.tricks import add_card, on_table

__all__ = [
    "CONTRACTS",
    "KoenigBoard",
    "KoenigState",
    "Koenigrufen",
    "deck_rows",
    "obligations",
]

# Contracts by rank, lowest first (rank decides the auction, not value).
CONTRACTS: tuple[str, ...] = (
    "bettler",
    "durchmarsch",
    "durchmarsch_letzter",
    "plauderer",
    "durchmarsch_hundert",
    "zehnermord",
    "koenigmord",
    "hundertermord",
)
RANK = {name: i + 1 for i, name in enumerate(CONTRACTS)}
WITH_CALLED = frozenset({"durchmarsch", "durchmarsch_hundert"})
WITH_FACE_DOWN = frozenset({"bettler", "plauderer"})
WITH_HUNDERT = frozenset({"durchmarsch_hundert", "hundertermord"})
TEN_HIGH = frozenset({"zehnermord", "hundertermord", "durchmarsch_hundert", "schurln"})

DECK = mask_of(c for c in CODES if not c.endswith(("7", "8")))
_NORMAL = {"A": 6, "K": 5, "O": 4, "U": 3, "10": 2, "9": 1}
_TENHIGH = {"A": 6, "10": 5, "K": 4, "O": 3, "U": 2, "9": 1}
POWER_NORMAL = tuple(_NORMAL.get(code[1:], 0) for code in CODES)
POWER_TEN = tuple(_TENHIGH.get(code[1:], 0) for code in CODES)
SUIT_MASK = tuple(DECK & (0xFF << (8 * s)) for s in range(4))


def _beating(power: tuple[int, ...]) -> tuple[int, ...]:
    """Per ``suit * 8 + best``: the cards of that suit with more power than ``best``."""
    return tuple(
        sum(1 << c for c in range(32) if SUIT_MASK[s] >> c & 1 and power[c] > best)
        for s in range(4)
        for best in range(8)
    )


def _ranking(power: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per suit led (a last row of none: a trick always follows its first card's suit)
    each card's key: its power in that suit, -1 off it (it cannot win)."""
    rows = [tuple(power[c] if c >> 3 == s else -1 for c in range(32)) for s in range(4)]
    return (*rows, (-1,) * 32)


# Königrufen's ranking in the card play (the board's ``led_of``/``keys``): a
# trick follows the suit of its first card; the keys by the contract's order.
LED_OF = tuple(c >> 3 for c in range(32))
KEYS_NORMAL = _ranking(POWER_NORMAL)
KEYS_TEN = _ranking(POWER_TEN)

BEATING_NORMAL = _beating(POWER_NORMAL)
BEATING_TEN = _beating(POWER_TEN)
ACES_TENS = mask_of(c for c in CODES if c[1:] in ("A", "10"))
HUNDERT_PAIRS = tuple(mask_of((s + "K", s + "O")) for s in "EGRS")
_NONE_YET = (-1, -1, -1, -1)  # per player, at the start: no first play, no card laid
_AUCTION_TYPES = frozenset({"bid", "pass", "join"})
_CALLS_NONE = (None,)  # the called cards a bid without one is judged with
_JOINABLE = frozenset({RANK["bettler"], RANK["plauderer"]})  # standing bids one may join
# Plain names: an enum member's lookup costs several times a global's, and the table
# view asks the auction's rules of every bid and the card play's of most cards.
_INVALID_BID, _BID_HIGHER, _CALLS_OWN, _CANNOT_JOIN = (
    Code.INVALID_BID,
    Msg.MUST_BID_HIGHER_THAN,
    Msg.CALLS_OWN_CARD,
    Msg.CANNOT_JOIN_BETTLER_OR_PLAUDERER,
)
_FOLLOW, _OVERTAKE, _FACE_DOWN = (
    Code.MUST_FOLLOW_SUIT,
    Code.MUST_OVERTAKE,
    Code.FACE_DOWN_CARD_MISMATCH,
)
_FOLLOW_SUIT, _BEAT_THE_TRICK, _LAID_FACE_DOWN = (
    Msg.FOLLOW_SUIT,
    Msg.BEAT_THE_TRICK,
    Msg.LAID_FACE_DOWN_MUST_PLAY,
)
# Per mask of players out of the auction and speaker: the next speaker still in it.
NEXT_SPEAKER = tuple(
    tuple(next((q for k in range(1, 5) if not out >> (q := (p + k) % 4) & 1), -1) for p in range(4))
    for out in range(16)
)


@dataclass
class KoenigState(GameState):
    """A Königrufen game after some events (see ``GameState`` for the shared fields)."""

    high: int = 0  # rank of the highest bid so far (0: none)
    high_bidder: int = -1
    high_called: int = -1
    out: int = 0  # bitmask of players out of the auction
    joiner: int = -1  # the joiner of the standing bettler/plauderer bid
    join_card: int = -1
    high_card: int = -1  # the card the highest bid lays face down (-1: none)
    contract: str | None = None
    declarer: int = -1
    partner: int = -1  # durchmarsch partner (called card holder or assumed), letzter winner
    ten_high: bool = False
    # Set when the play opens: what the contract is worth under the house rules, the
    # declaring side (the declarer, then his partner of a durchmarsch or his joiner;
    # none in schurln; a letzter's partner is known only from the decision), and per
    # player the card he laid face down for the first trick (-1: none). Who defeats the
    # side is the board's (``KoenigBoard.defeats``).
    value: int = 0
    side: tuple[int, ...] = ()
    laid: tuple[int, ...] = _NONE_YET


class Koenigrufen(Variant):
    """Gradener Königrufen: four players, 24 cards, no trumps."""

    name: ClassVar[str] = "koenigrufen"
    play_not_open: ClassVar[Msg] = Msg.PLAYED_BEFORE_AUCTION_OVER
    events: ClassVar[dict[str, EventSpec]] = {
        **COMMON_EVENTS,
        "bid": EventSpec(
            {"player": _is_str, "contract": _is_str},
            {"called": _is_str, "card": _is_str},
            cards=("called", "card"),
        ),
        "pass": EventSpec({"player": _is_str}, {}),
        "join": EventSpec({"player": _is_str}, {"card": _is_str}, cards=("card",)),
        "tally": EventSpec(
            {},
            {"won": _is_bool, "partner": _is_str, "losers": _is_str_list},
            players=("partner",),
            player_lists=("losers",),
        ),
    }

    # ------------------------------------------------------------------ deal
    def seat_key(self, event: Event, rules: Mapping[str, Any]) -> tuple[Any, ...]:
        return (event["dealer"], *event["players"])

    def seats(self, event: Event, rules: Mapping[str, Any]) -> Table:
        players = event["players"]
        dealer = event["dealer"]
        if not isinstance(players, list) or len(players) != 4:
            raise Illegal(Code.INVALID_DEAL, Msg.KOENIGRUFEN_SEATS)
        if not all(isinstance(p, str) and p for p in players):
            raise Illegal(Code.INVALID_DEAL, Msg.EMPTY_NAME)
        if len(set(players)) != 4:
            raise Illegal(Code.INVALID_DEAL, Msg.SEATED_TWICE)
        if not isinstance(dealer, str) or dealer not in players:
            raise Illegal(Code.INVALID_DEAL, Msg.DEALER_NOT_SEATED, rplayer=dealer)
        index = {name: i for i, name in enumerate(players)}
        return Table(
            players=tuple(players),
            active=tuple(players),
            dealer=dealer,
            sitting_out=None,
            index=index,
            deck=DECK,
            removed=0,
            first=(index[dealer] + 1) % 4,
        )

    def __init__(self) -> None:
        super().__init__()
        # The state before the auction, copied for each deal (``initial_state``): fewer
        # instructions than the dataclass ``__init__`` of its ~30 fields (as Fuchsen's).
        self._prototype = KoenigState.prototype(
            variant=self, rules={}, phase="auction", first_play=_NONE_YET
        )

    def initial_state(
        self, rules: Mapping[str, Any], assumed: int, table: Table, know: Knowledge
    ) -> GameState:
        state = self._prototype.copy()
        state.rules = rules
        state.table = table
        state.know = know
        state.assumed = assumed
        state.to_act = table.first
        return state

    placing_types: ClassVar[frozenset[str]] = frozenset({"play", "show", "bid", "join"})

    def placements(self, event: Event, table: Table) -> list[tuple[str, str]]:
        if event["type"] in ("bid", "join"):
            card = event.get("card")
            return [(event["player"], card)] if isinstance(card, str) else []
        return super().placements(event, table)

    # ------------------------------------------------------------------ events
    def handle(self, state: GameState, event: Event, index: int) -> None:
        assert isinstance(state, KoenigState)
        typ = event["type"]
        if typ in _AUCTION_TYPES:
            self._auction(state, typ, event)
        elif typ == "play":
            table = state.table
            assert table is not None
            self.play(state, table.index[event["player"]], INDEX[event["card"]], event, index)
        elif typ == "forfeit":
            self._forfeit(state, event)
        elif typ == "tally":
            self._tally(state, event)
        else:
            raise AssertionError(typ)  # pragma: no cover

    def tally_placements(
        self, event: Event, events: list[tuple[int, Event]], index: int
    ) -> list[tuple[str, str]]:
        """The tally's ``partner`` holds the card the standing bid (the last one before
        it) called, when that bid is a durchmarsch with a called card."""
        partner = event.get("partner")
        if type(partner) is not str:
            return []
        called: object = None
        for i, before in events:
            if i >= index:
                break
            if type(before) is dict and before.get("type") == "bid":
                called = before.get("called") if before.get("contract") in WITH_CALLED else None
        return [(partner, called)] if type(called) is str else []

    def _tally(self, state: KoenigState, event: Event) -> None:
        """What the table counted (event-stream.md, "The tally"), after the auction."""
        outcome = self.tally_outcome(state, event)
        if isinstance(outcome, Illegal):
            raise outcome
        won, side, losers = outcome
        if state.contract == "schurln":
            state.decision = self._schurln_paid(state, losers, "tally")
        else:
            self._end(state, won, side, "tally")

    def tally_outcome(  # type: ignore[override]
        self, state: KoenigState, event: Event
    ) -> Illegal | tuple[bool, tuple[int, ...], list[int]]:
        """The rule every tally goes through (``_tally``), which the view's tally offer
        asks too: why the ``tally`` ``event`` (its fields' kinds checked) may not stand
        after ``state``, or what it says: won, the declaring side, and schurln's losers.
        A tally's partner is read against the knowledge of ``state`` (in which the
        tally has placed him, ``Variant.tally_placements``)."""
        if state.phase != "play":
            return Illegal(Code.OUT_OF_ORDER, Msg.TALLY_COMES_AFTER_AUCTION)
        if on_table(state):
            return Illegal(Code.OUT_OF_ORDER, Msg.TALLY_COMES_BETWEEN_TRICKS_TRICK)
        table = state.table
        know = state.know
        assert table is not None and know is not None
        contract = state.contract
        assert contract is not None
        if contract == "schurln":
            for key in ("won", "partner"):
                if key in event:
                    return Illegal(
                        Code.INVALID_TALLY,
                        Msg.SCHURLN_EVERYONE_PLAYS_FOR_HIMSELF,
                        rfield=key,
                        field=key,
                    )
            losers = event.get("losers")
            if losers is None:
                return Illegal(Code.INVALID_TALLY, Msg.TALLY_SCHURLN_NAMES_LOSER_OR, field="losers")
            if not 1 <= len(losers) <= 3 or len(set(losers)) != len(losers):
                return Illegal(Code.INVALID_TALLY, Msg.TALLY_SCHURLN_NAMES_ONE_TWO, field="losers")
            return False, (), [table.index[name] for name in losers]
        if "losers" in event:
            return Illegal(
                Code.INVALID_TALLY, Msg.SCHURLN_HAS_LOSERS, contract=contract, field="losers"
            )
        if "won" not in event:
            return Illegal(Code.INVALID_TALLY, Msg.TALLY_SAYS_WHETHER_DECLARER_SIDE, field="won")
        won = event["won"]
        d = state.declarer
        side = state.side
        if contract in WITH_CALLED:
            if "partner" in event:
                name = event["partner"]
                broken = tally_partner_refusal(table, know, state.high_called, name)
                if broken is not None:
                    return broken
        elif contract == "durchmarsch_letzter":
            if "partner" in event:
                name = event["partner"]
                p = table.index[name]
                if not won:
                    return Illegal(
                        Code.INVALID_TALLY, Msg.WON_DURCHMARSCH_LETZTER_HAS_PARTNER, field="partner"
                    )
                if p == d:
                    return Illegal(
                        Code.INVALID_TALLY,
                        Msg.DECLARER_PARTNER_DURCHMARSCH_LETZTER_ANOTHER,
                        player=name,
                        field="partner",
                    )
                side = (d, p)
            if not won and state.tricks_done == 5:
                return Illegal(
                    Code.INVALID_TALLY,
                    Msg.TOOK_FIVE_RECORDED_TRICKS_DURCHMARSCH,
                    player=table.active[d],
                    field="won",
                )
        elif "partner" in event:
            return Illegal(
                Code.INVALID_TALLY, Msg.HAS_PARTNER_NAME, contract=contract, field="partner"
            )
        return won, side, []

    def _auction(self, state: KoenigState, typ: str, event: Event) -> None:
        """A bid, pass or join: checked (the partner too where it ends the auction),
        then ``state`` changed to the next speaker, or the play opened."""
        if state.phase != "auction":
            raise Illegal(Code.OUT_OF_ORDER, Msg.AUCTION_OVER_NOW, type=typ)
        table = state.table
        assert table is not None
        p = table.index[event["player"]]
        if p != state.to_act:
            raise Illegal(
                Code.NOT_YOUR_TURN,
                Msg.NOT_TURN_TO_SPEAK,
                player=table.active[p],
                other=table.active[state.to_act],
            )
        card = -1
        if typ != "pass":
            card_code = event.get("card")  # a code of the deck where present (``apply``)
            if card_code is not None:
                card = INDEX[card_code]
                check_placement(state, p, card)
        if typ == "bid":
            contract = event["contract"]
            called_code = event.get("called")
            broken = self._bid_refusal(state, p, contract, called_code, card)
            if broken is not None:
                raise broken
            out = state.out
            bidder = p
            high = RANK[contract]
            called = -1 if called_code is None else INDEX[called_code]
        else:
            if typ == "join":
                broken = self._join_refusal(state, p)
                if broken is not None:
                    raise broken
            out = state.out | 1 << p
            bidder = state.high_bidder
            high, called = state.high, state.high_called
        ends = out | (1 << bidder if bidder >= 0 else 0) == 0b1111
        # The partner before anything changes: ``NeedPartner`` leaves the state as it was.
        partner = self._partner(state, high, bidder, called) if ends else -1
        if typ == "bid":
            state.high = high
            state.high_bidder = p
            state.high_called = called
            state.high_card = card
            state.joiner = state.join_card = -1
        else:
            if typ == "join":
                state.joiner = p
                state.join_card = card
            state.out = out
        if ends:
            self._open_play(state, partner)
        else:
            state.to_act = NEXT_SPEAKER[out][p]

    @staticmethod
    def _join_refusal(state: KoenigState, p: int) -> Illegal | None:
        """Why the speaker ``p`` may not join now, or None: only a standing bettler or
        plauderer nobody has joined yet. ``_auction`` judges every join by it (after the
        turn and the face-down card it names), the view's offer asks it."""
        if state.high not in _JOINABLE or state.joiner >= 0:
            table = state.table
            assert table is not None
            return Illegal(_INVALID_BID, _CANNOT_JOIN, player=table.active[p])
        return None

    @staticmethod
    def _bid_refusal(
        state: KoenigState, p: int, contract: str, called_code: object, card: int
    ) -> Illegal | None:
        """Why the speaker ``p`` (his turn in the auction) may not bid ``contract`` with
        the called card ``called_code`` (as the event gives it) and the face-down
        ``card`` (-1: none), or None: the rule every bid goes through (``_auction``)
        and the view's offers ask (``offers``)."""
        rank = RANK.get(contract, 0)
        if rank == 0:
            return Illegal(_INVALID_BID, Msg.UNKNOWN_CONTRACT, rcontract=contract)
        if rank <= state.high:
            return Illegal(
                _INVALID_BID,
                _BID_HIGHER,
                player=name_of(state, p),
                contract=CONTRACTS[state.high - 1],
                contract2=contract,
            )
        if contract in WITH_CALLED:
            if called_code is None:
                return Illegal(_INVALID_BID, Msg.NEEDS_CALLED_CARD, contract=contract)
        elif called_code is not None:
            return Illegal(_INVALID_BID, Msg.CALLS_NO_CARD, contract=contract)
        if card >= 0 and contract not in WITH_FACE_DOWN:
            return Illegal(_INVALID_BID, Msg.NO_FACE_DOWN, contract=contract)
        know = state.know
        assert know is not None
        if isinstance(called_code, str):
            holder = know.owner[INDEX[called_code]]
            if holder == p:
                return Illegal(_INVALID_BID, _CALLS_OWN, player=name_of(state, p), card=called_code)
            if holder < 0 and all(know.full(q) for q in range(4) if q != p):
                return Illegal(_INVALID_BID, Msg.NOBODY_HOLDS_CALLED, card=called_code)
        if contract in WITH_HUNDERT and know.full(p):
            hand = know.known[p]
            if not any(hand & pair == pair for pair in HUNDERT_PAIRS):
                return Illegal(
                    _INVALID_BID,
                    Msg.CANNOT_BID_RECORD_SHOWS_LACKS,
                    player=name_of(state, p),
                    contract=contract,
                )
        return None

    @staticmethod
    def _partner(state: KoenigState, high: int, bidder: int, called: int) -> int:
        """The partner of the auction's highest bid (rank ``high`` by ``bidder``, -1:
        none, calling ``called``): the holder of a durchmarsch's called card or the
        assumed candidate, else -1. Raises ``NeedPartner`` when the called card is
        nowhere in the record and nobody is assumed."""
        if bidder < 0 or CONTRACTS[high - 1] not in WITH_CALLED:
            return -1
        know = state.know
        assert know is not None
        holder = know.owner[called]
        if holder >= 0:
            return holder
        if state.assumed >= 0:
            return state.assumed
        raise NeedPartner(tuple(q for q in range(4) if q != bidder and not know.full(q)), called)

    @staticmethod
    def _open_play(state: KoenigState, partner: int) -> None:
        """Change ``state``, after the auction's last event, by what the end of the
        auction sets, from its highest bid (``high``, ``high_bidder``, ``high_called``,
        ``high_card``), its joiner and the ``partner`` (``_partner``)."""
        state.phase = "play"
        values = state.rules["values"]
        bidder = state.high_bidder
        if bidder < 0:
            state.contract = "schurln"
            state.value = int(values["schurln"])
            state.ten_high = True
            _open_board(state, 0)
            return
        contract = CONTRACTS[state.high - 1]
        called = state.high_called
        state.contract = contract
        state.declarer = bidder
        state.partner = partner
        state.ten_high = contract in TEN_HIGH or (
            contract == "durchmarsch" and CODES[called].endswith("10")
        )
        joiner = state.joiner  # only a bettler or plauderer has one
        state.side = side = (
            (bidder, partner) if partner >= 0 else (bidder, joiner) if joiner >= 0 else (bidder,)
        )
        if contract in WITH_FACE_DOWN:
            laid = [-1] * 4
            laid[bidder] = state.high_card
            if joiner >= 0:
                laid[joiner] = state.join_card
            state.laid = tuple(laid)
            contract += "_joined" if joiner >= 0 else ""
        state.value = int(values[contract])
        # The side as a mask: its last player is its first where he is alone.
        _open_board(state, 1 << bidder | 1 << side[-1])

    def play(  # type: ignore[override]
        self, state: KoenigState, p: int, card: int, event: Event | None, index: int
    ) -> None:
        broken = self.check_card(state, p, card)
        if broken is not None:
            raise broken
        if add_card(state, p, card, index):
            self.board_ended(state)

    def board_ended(self, state: GameState) -> None:
        """After a trick collected: decide ``state`` (in place) where the trick ends the
        game (``trick_end``; ``play`` after each trick, the fold's board phase after the
        trick its ``KoenigBoard.ends_play`` stopped at)."""
        assert isinstance(state, KoenigState)
        board = state.board
        assert isinstance(board, KoenigBoard)
        end = trick_end(state.contract, state.side, board.defeats, board.tricks, board.winner)
        if end is None:
            return
        if state.contract == "schurln":
            state.decision = self._schurln(state)
        else:
            self._end(state, *end, None)

    def _end(
        self, state: KoenigState, won: bool, side: tuple[int, ...], reason: str | None
    ) -> None:
        """End the game (``_decision``): the ``side`` (a letzter's with the partner that
        his last trick or the tally names) won or lost."""
        state.decision = self._decision(state, won, side, reason)
        if state.contract == "durchmarsch_letzter" and len(side) == 2:
            state.partner = side[1]  # his partner all along

    def _decision(
        self, state: KoenigState, won: bool, side: tuple[int, ...], reason: str | None
    ) -> Decision:
        """How the game ends: the ``side`` (declarer, partner or joiner) won or lost."""
        table = state.table
        assert table is not None
        value = state.value
        done = state.tricks_done
        if reason is None:
            reason = "played_out" if done == 6 else "decided"
        active = table.active
        # Each opponent pays (or gets) the value; a side of one takes it from all three.
        theirs = -value if won else value
        ours = -theirs * 3 if len(side) == 1 else -theirs
        return Decision(
            reason,
            won,
            value,
            tuple([(name, ours if q in side else theirs) for q, name in enumerate(active)]),
            tuple([active[q] for q in side]),
            done,
        )

    def _schurln(self, state: KoenigState) -> Decision:
        """Schurln played out: who took the most aces and tens pays."""
        counts = aces_and_tens(state)
        top = max(counts)
        return self._schurln_paid(state, [q for q in range(4) if counts[q] == top], "played_out")

    def _schurln_paid(self, state: KoenigState, losers: list[int], reason: str) -> Decision:
        """Schurln settled: ``losers`` (active indexes) share the highest count."""
        table = state.table
        assert table is not None
        value = state.value
        pay: dict[str, int] = {}
        k = len(losers)
        for q, name in enumerate(table.active):
            if k == 4:
                pay[name] = 0
            elif q in losers:
                pay[name] = -value * (3 if k == 1 else 1)
            else:
                pay[name] = value * (3 if k == 3 else 1)
        return Decision(
            reason=reason,
            won=None,
            value=value,
            payouts=tuple(pay.items()),
            declarers=(),
            tricks=state.tricks_done,
        )

    def _forfeit(self, state: KoenigState, event: Event) -> None:
        if state.phase != "play":
            raise Illegal(Code.OUT_OF_ORDER, Msg.FORFEIT_COMES_AFTER_AUCTION)
        table = state.table
        assert table is not None
        p = table.index[event["player"]]
        if state.contract == "schurln":
            # The player who gives up pays as the only loser of a schurln.
            state.decision = self._schurln_paid(state, [p], "forfeit")
        else:
            side = state.side  # a letzter before the last trick: settled as an alone game
            state.decision = self._decision(state, p not in side, side, "forfeit")

    # ------------------------------------------------------------------ results
    def result(self, state: GameState) -> Result:
        assert isinstance(state, KoenigState)
        table = state.table
        if state.annulled:
            return Result(status="annulled", game=self.name)
        if state.decision is not None:
            d = state.decision
            # By position (game, contract, declarers, won, value, reason, tricks, payouts).
            return Result.finished(
                self.name,
                state.contract,
                d.declarers,
                d.won,
                d.value,
                d.reason,
                d.tricks,
                dict(d.payouts),
            )
        if table is None:
            return Result(status="in_progress", game=self.name, awaiting="deal")
        if state.phase == "auction":
            return Result(
                status="in_progress",
                game=self.name,
                awaiting="bid",
                to_act=table.active[state.to_act],
            )
        return Result(
            status="in_progress",
            game=self.name,
            contract=state.contract,
            declarers=self.declarers(state),
            tricks=state.tricks_done,
            awaiting="play",
            to_act=table.active[state.to_act],
        )

    def declarers(self, state: KoenigState) -> tuple[str, ...]:
        table = state.table
        assert table is not None
        return tuple([table.active[q] for q in state.side])

    # ------------------------------------------------------------------ tricks
    def duties(  # type: ignore[override]
        self, state: KoenigState, p: int, hand: int, card: int = -1
    ) -> list[Duty]:
        """``keeps``: follow suit, overtake, the card he laid face down."""
        board = state.board
        assert board is not None
        led = board.led if board.trick else -1
        follow, overtake, laid = keeps(
            p, led, board.wkey, hand, state.ten_high, state.joiner, state.laid, board.tricks
        )
        duties = []
        if follow != FREE:
            duties.append((_FOLLOW, _FOLLOW_SUIT, follow, hand & follow))
            if overtake != FREE:
                duties.append((_OVERTAKE, _BEAT_THE_TRICK, overtake, hand & follow & overtake))
        if laid != FREE:
            duties.append((_FACE_DOWN, _LAID_FACE_DOWN, laid, laid))
        return duties

    def duty_error(self, state: GameState, p: int, duty: Duty, card: int) -> Illegal:
        """The rule's error, naming a card of his that keeps it."""
        code, msg, _allowed, held = duty
        first = CODES[(held & -held).bit_length() - 1]
        if code is _FOLLOW:
            assert state.board is not None
            suit = SUIT_NAMES[state.board.led]
            return Illegal(code, msg, player=name_of(state, p), example=first, suit=suit)
        return Illegal(code, msg, player=name_of(state, p), card=first, card2=CODES[card])

    def fold_board(self, state: GameState) -> KoenigBoard | None:
        # Once the play is open a card changes nothing but the card play; a trick that
        # decides the game is the board's ``ends_play`` (``trick_end``).
        if state.phase != "play" or state.decision is not None:
            return None
        assert isinstance(state, KoenigState)
        # The state's own board, its hands the cards the record places in each.
        board = state.board
        assert isinstance(board, KoenigBoard)
        self.set_hands(board, state)
        return board

    # ------------------------------------------------------------------ table view
    def offers(self, state: GameState, trial: Trial) -> dict[str, Any]:
        """In the auction, the speaker's bids (a durchmarsch with some called card),
        pass and join. Each bid is judged by the rule every bid goes through
        (``_bid_refusal``); the end of the auction such a bid may bring refuses nothing
        more (a called card nobody is shown to hold waits for the partner)."""
        assert isinstance(state, KoenigState)
        if state.phase != "auction":
            return {}
        table = state.table
        know = state.know
        assert table is not None and know is not None
        p = state.to_act
        # The rule reads a called card only through who the record says holds it
        # (``know.owner``): one card of each holder (nobody included) decides for all
        # of his.
        deck = nobodys = table.deck
        called_cards: list[str | None] = []
        for hand in know.known:
            held = hand & deck
            nobodys &= ~held
            if held:
                called_cards.append(CODES[(held & -held).bit_length() - 1])
        if nobodys:
            called_cards.append(CODES[(nobodys & -nobodys).bit_length() - 1])
        bids: list[str] = []
        for contract in CONTRACTS:
            for called in called_cards if contract in WITH_CALLED else _CALLS_NONE:
                if self._bid_refusal(state, p, contract, called, -1) is None:
                    bids.append(contract)
                    break
        return {
            "bids": tuple(bids),
            # The speaker may always pass (``_auction``: his turn is all a pass needs).
            "can_pass": True,
            "can_join": self._join_refusal(state, p) is None,
        }

    def tally_offer(self, states: Sequence[GameState], trial: Trial) -> dict[str, Any] | None:
        """Between tricks: schurln's losers; any other contract's outcome, and the
        partner where a called card or the last trick makes one."""
        first = states[0]
        assert isinstance(first, KoenigState)
        table = first.table
        assert table is not None
        if on_table(first):
            return None
        kind = "late" if first.tricks_done else "pure"
        fields: dict[str, Any] = {}

        def stands(fields: Event) -> bool:
            # Some state after which a tally of ``fields`` (no partner: it places no
            # card) stands, judged by the rule every tally goes through.
            event = {"type": "tally", **fields}
            return any(self.tally_refusal(s, event) is None for s in states)

        if first.contract == "schurln":
            if not stands({"losers": [table.active[0]]}):
                return None
            fields["losers"] = {"required": True, "choices": list(table.active), "min": 1, "max": 3}
            return {"kind": kind, "fields": fields, "needs_outcome": False}
        probes = [{"won": True}, {"won": False}]
        good = [p for p in probes if stands(p)]
        if not good:
            return None
        fields["won"] = {"required": True}
        if first.contract in WITH_CALLED or first.contract == "durchmarsch_letzter":
            partners = trial.tally_partners(states, {"won": True})
            if partners:
                fields["partner"] = {"required": False, "choices": partners}
        return {"kind": kind, "fields": fields, "needs_outcome": True}

    def view_fields(
        self, state: GameState, result: Result, *, partner_known: bool
    ) -> dict[str, Any]:
        """The declarer; a schurln played out, each player's count of aces and tens."""
        assert isinstance(state, KoenigState)
        table = state.table
        assert table is not None
        fields: dict[str, Any] = {}
        if state.declarer >= 0:
            fields["declarer"] = table.active[state.declarer]
        if (
            state.contract == "schurln"
            and result.status == "finished"
            and result.reason == "played_out"
        ):
            fields["aces_tens"] = dict(zip(table.active, aces_and_tens(state), strict=True))
        fields["deck"] = deck_rows(ten_high=state.ten_high)
        if state.high_called >= 0:
            fields["called_card"] = CODES[state.high_called]
        if state.contract is not None:
            fields["value"] = state.value
        return fields

    def values(self, rules: Mapping[str, Any]) -> dict[str, int]:
        """Every contract (with a joiner: ``<contract>_joined``) and ``schurln``."""
        return dict(rules["values"])  # ints: validated (``engine.rules``)


@cache  # a value (tuples), which every view of a game shows
def deck_rows(*, ten_high: bool) -> tuple[tuple[str, bool, tuple[str | None, ...]], ...]:
    """The deck as the pages lay it out, one row ``(suit, False, cards)`` per suit, its
    cards strongest first (the ten under the ace where ``ten_high``: the contract's
    order)."""
    power = POWER_TEN if ten_high else POWER_NORMAL
    return tuple(
        (suit, False, tuple(sorted(card_list(SUIT_MASK[s]), key=lambda c: -power[INDEX[c]])))
        for s, suit in enumerate(SUITS)
    )


def obligations(led: int, best: int, hand: int, ten_high: bool) -> tuple[int, int]:
    """The obligations of a player holding ``hand`` in a trick led in suit ``led`` whose
    best card of that suit has power ``best`` (by the contract's order, ``ten_high``),
    in the spec's code-table order: follow suit (``must_follow_suit``), beating the
    trick if he can (``must_overtake``), each as the cards that keep it (a mask over
    the deck; ``FREE`` where it asks nothing of him). The cards of his that oblige him
    are those of ``hand`` they allow. The joiner's face-down card in the first trick
    is exempt: its callers ask this only of the others."""
    suit = SUIT_MASK[led]
    if not hand & suit:
        return _FREE_OF_BOTH
    beating = (BEATING_TEN if ten_high else BEATING_NORMAL)[led << 3 | best]
    return suit, beating if hand & beating else FREE


def keeps(
    p: int,
    led: int,
    best: int,
    hand: int,
    ten_high: bool,
    joiner: int,
    laid: Sequence[int],
    tricks: int,
) -> tuple[int, int, int]:
    """What each rule of the card play asks of the next card of player ``p`` holding
    ``hand``, in the code table's order, as the cards that keep it (``FREE``: it asks
    nothing): follow suit and overtake in a trick led in suit ``led`` (-1: no card on
    the table), as ``obligations``, of which the ``joiner``'s face-down card in the
    first trick is exempt; then the card ``laid[p]`` he laid face down for the first
    trick (-1: none). ``tricks``: the tricks complete. The play's check (``duties``)
    and the board (``KoenigBoard.legal``) ask it."""
    follow = overtake = last = FREE
    if led >= 0 and (tricks or p != joiner):
        follow, overtake = obligations(led, best, hand, ten_high)
    if not tricks and laid[p] >= 0:
        last = 1 << laid[p]
    return follow, overtake, last


FREE = -1  # a mask of every card: an obligation that asks nothing
_FREE_OF_BOTH = (FREE, FREE)


class KoenigBoard(Board):
    """Königrufen's card play (``engine.board``): no trumps, the contract's order."""

    __slots__ = ("contract", "declarer", "defeats", "face_down", "joiner", "ten_high")

    def __init__(
        self,
        names: tuple[str, ...],
        hands: list[int],
        side: int,
        *,
        contract: str,
        declarer: int,
        joiner: int,
        ten_high: bool,
        face_down: Sequence[int],
    ) -> None:
        super().__init__(names, hands, side, LED_OF, KEYS_TEN if ten_high else KEYS_NORMAL)
        self.contract = contract
        self.declarer = declarer
        self.joiner = joiner
        self.ten_high = ten_high
        self.face_down = face_down  # per seat: the card he laid face down for trick 1
        self.defeats = defeating(contract, side)

    def copy_facts(self, other: Self) -> None:
        other.contract = self.contract
        other.declarer = self.declarer
        other.defeats = self.defeats
        other.face_down = self.face_down
        other.joiner = self.joiner
        other.ten_high = self.ten_high

    def ends_play(self) -> bool:
        # The deal's last trick, or one whose winner defeats the declaring side: where
        # ``trick_end`` says how the game ended.
        return self.tricks == 6 or self.defeats >> self.winner & 1 == 1

    def filters(self, p: int) -> list[tuple[Code, int]]:
        led = self.led if self.trick else -1
        hand = self.hands[p]
        masks = keeps(
            p, led, self.wkey, hand, self.ten_high, self.joiner, self.face_down, self.tricks
        )
        return [(code, mask) for code, mask in zip(_CODES, masks, strict=True) if mask != FREE]

    def legal(self) -> int:
        # ``Board.legal`` without the list of filters (the fold asks it of every card).
        p = self.to_act
        hand = self.hands[p]
        led = self.led if self.trick else -1
        follow, overtake, laid = keeps(
            p, led, self.wkey, hand, self.ten_high, self.joiner, self.face_down, self.tricks
        )
        return hand & follow & overtake & laid


_CODES = (_FOLLOW, _OVERTAKE, _FACE_DOWN)  # of ``keeps``' masks


def defeating(contract: str, side: int) -> int:
    """The players (a mask of seats) whose trick won before the last defeats the
    declaring ``side`` (a mask of seats) of ``contract``: in a bettler or plauderer the
    side's own, in schurln nobody's (it has no side), else the others'."""
    if contract == "schurln":
        return 0
    return side if contract in WITH_FACE_DOWN else ~side & 0b1111


def trick_end(
    contract: str | None, side: tuple[int, ...], defeats: int, done: int, winner: int
) -> tuple[bool, tuple[int, ...]] | None:
    """Whether the trick just collected (the ``done``-th, won by ``winner``) ends the
    game of ``contract`` declared by ``side`` (``KoenigState.side``) whom the players of
    ``defeats`` defeat (``defeating``): None while it goes on, else whether the
    declaring side won and who it is (schurln: ``(False, ())``, scored by the aces and
    tens). A letzter's last trick won by another player: won, with him as the partner.
    ``Koenigrufen.board_ended`` asks it after each trick; ``KoenigBoard.ends_play``
    says when it is not None."""
    if done < 6:
        return (False, side) if defeats >> winner & 1 else None
    if contract == "schurln":
        return False, ()
    if contract == "durchmarsch_letzter" and winner != side[0]:
        return True, (side[0], winner)
    return not defeats >> winner & 1, side


def _open_board(state: KoenigState, side: int) -> None:
    """The card play opens after the auction (``_open_play``): its board, the declaring
    ``side`` as a mask of seats, the hands not set (``fold_board`` sets them). A
    contract's declarer leads, else the player after the dealer."""
    table = state.table
    assert table is not None
    board = KoenigBoard(
        table.active,
        [0] * 4,
        side,
        contract=state.contract or "schurln",
        declarer=state.declarer,
        joiner=state.joiner,
        ten_high=state.ten_high,
        face_down=state.laid,
    )
    board.leader = board.to_act = state.to_act = (
        table.first if state.declarer < 0 else state.declarer
    )
    state.board = board


def aces_and_tens(state: KoenigState) -> list[int]:
    """Schurln's count per active player (by index): the aces and tens in the tricks
    he won, and one more for the winner of the last trick taken so far."""
    assert state.board is not None
    counts = [(cards & ACES_TENS).bit_count() for cards in state.board.won]
    if state.board.tricks:
        # The last trick's winner leads the next (on the table or not).
        counts[state.board.leader] += 1
    return counts
