"""The express replay of a Königrufen record of the usual shape, in one pass.

The usual record the table types in: the deal (seats only, or every player's hand),
the auction (``bid``, ``pass``, ``join``, each with only its own fields), then the
cards, nothing but plain plays, up to the trick that decides the game or to where the
record stops. No ``show``, ``forfeit``, ``annul`` or ``undo``.

Hindsight (``event-stream.md``): without hands, a player's known hand is every card he
plays or lays face down anywhere in the record, and at any moment he holds the known
cards he has not played yet. The fold gathers that knowledge first and then judges
each event with it. Here one pass runs the auction and the tricks and gathers the
knowledge as it goes; what needs the whole of it waits for the end, where it is a
few tests on bitmasks: a card that does not follow suit forbids its player every
unplayed card of the led suit, one that does not beat the trick every unplayed card
that would, and the record is valid only if no player's known hand holds a card
forbidden him; a bid's requirement to lack the called card or to hold K and O is
judged on the hands as the whole record shows them, as are a card in two hands and
a seventh card.

It only ever *accepts*: at anything it does not take — another kind or shape of event,
a card placed in two hands or played twice, a word or card out of turn, a bid or join
the rules forbid, a broken obligation or face-down card, an event after the game was
decided, a ``durchmarsch`` whose called card the record places nowhere (the candidate
partners), a deal listing only some hands — it returns ``None`` and ``replay`` folds
the record as always, which finds and words the error. So a record gets from here
exactly the result the fold gives it, or nothing
(``tests/engine/test_express_koenigrufen.py`` compares the two on every kind of
record).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import CODES, INDEX
from engine.core import Illegal, Table
from engine.koenigrufen import (
    _NEXT_SPEAKER,
    ACES_TENS,
    BEATING_NORMAL,
    BEATING_TEN,
    CONTRACTS,
    DECK,
    HUNDERT_PAIRS,
    POWER_NORMAL,
    POWER_TEN,
    RANK,
    SUIT_MASK,
    TEN_HIGH,
    Koenigrufen,
)
from engine.result import Result

__all__ = ["koenigrufen_express"]

# Contract ranks (``RANK``) by what decides the game.
_BETTLER, _DURCHMARSCH, _LETZTER, _PLAUDERER, _HUNDERT = 1, 2, 3, 4, 5
_CALLING = (RANK["durchmarsch"], RANK["durchmarsch_hundert"])  # a bid names a called card
_FACE_DOWN = (RANK["bettler"], RANK["plauderer"])  # may lay a card face down, be joined
_WITH_HUNDERT = (RANK["durchmarsch_hundert"], RANK["hundertermord"])  # needs K and O
_MORD = (RANK["zehnermord"], RANK["koenigmord"], RANK["hundertermord"])
# The auction's words in the first pass's reading: a pass, a join, else a bid's rank.
_PASS, _JOIN = 0, -1
_BIT = tuple(1 << c for c in range(32))
_NO_CARDS = (0, 0, 0, 0)  # per player: no card forbidden


def koenigrufen_express(
    variant: Koenigrufen, rules: Mapping[str, Any], events: list[Any]
) -> Result | None:
    """The result of ``events`` (a Königrufen record's events, ``undo`` not resolved)
    under ``rules`` if the record is of the usual shape and valid (see the module's
    docstring): finished, or in progress in the auction or the play. Else None, and
    the fold decides."""
    if _holds_tally(events):
        return None  # the tally is judged by the fold alone
    if not events:
        return None
    deal = events[0]
    if type(deal) is not dict or deal.get("type") != "deal":
        return None
    size = len(deal)
    if size != 3 and not (size == 4 and "hands" in deal):
        return None
    try:
        table = variant.validate_deal(deal, rules)
    except (Illegal, KeyError, TypeError):
        return None
    if size == 4 and 0 in table.dealt:
        return None  # some hands listed, not all: the fold's careful knowledge pass
    try:
        return _replay(variant, rules, events, table)
    except (KeyError, TypeError):
        # A field missing, or of a kind no name, code or contract can be: the fold words it.
        return None


def _replay(
    variant: Koenigrufen, rules: Mapping[str, Any], events: list[Any], table: Table
) -> Result | None:
    """``koenigrufen_express`` after the deal (``table``, with every hand or none).
    May raise ``KeyError``, ``TypeError``."""
    index = table.index
    bit_of = _BIT
    total = len(events)
    dealt = table.dealt
    # ``known[p]``: the cards the record puts in p's hand. With hands, the dealt ones,
    # and every card an event places must be among them; without, every card an event
    # places, which is checked at the end for a card in two hands or a seventh card.
    known = list(dealt) if dealt else [0, 0, 0, 0]
    # The auction. Its requirements to hold or lack a card are judged at the end, on
    # the whole record's knowledge: ``holding`` lists (player, bid rank, called card).
    to_act = table.first
    out = 0  # players out of the auction
    high = 0  # rank of the highest bid (0: none)
    bidder = called = joiner = join_card = -1
    bidder_bit = 0
    face_down = [-1, -1, -1, -1]  # per player: the face-down card of his latest bid
    holding: list[tuple[int, int, int]] = []
    over = False
    for k in range(1, total):
        event = events[k]
        if type(event) is not dict:
            return None
        typ = event["type"]
        if typ == "play":
            break
        if over:
            return None  # a word after the auction
        p = index[event["player"]]
        if p != to_act:
            return None
        size = len(event)
        card = -1
        if typ == "pass":
            if size != 2:
                return None
            out |= 1 << p
        elif typ == "bid":
            rank = RANK[event["contract"]]  # KeyError for an unknown contract
            if rank <= high:
                return None
            named = -1
            fields = 3
            if "called" in event:
                named = INDEX[event["called"]]
                if not DECK >> named & 1:
                    return None
                fields += 1
            if "card" in event:
                card = INDEX[event["card"]]
                fields += 1
            if size != fields:
                return None
            if rank in _CALLING:
                if named < 0:
                    return None
                holding.append((p, rank, named))
            elif named >= 0:
                return None
            elif rank in _WITH_HUNDERT:
                holding.append((p, rank, -1))
            if card >= 0 and rank not in _FACE_DOWN:
                return None
            high, bidder, called, joiner, join_card = rank, p, named, -1, -1
            bidder_bit = 1 << p
            face_down[p] = card
        elif typ == "join":
            if size == 3:
                card = INDEX[event["card"]]
            elif size != 2:
                return None
            if high not in _FACE_DOWN or joiner >= 0:
                return None
            joiner, join_card = p, card
            out |= 1 << p
        else:
            return None
        if card >= 0:
            bit = bit_of[card]
            if not DECK & bit:
                return None
            if dealt:
                if not dealt[p] & bit:
                    return None  # a card the deal gives another player
            else:
                known[p] |= bit
        if out | bidder_bit == 0b1111:
            over = True
        else:
            to_act = _NEXT_SPEAKER[out << 2 | p]
    else:
        k = total
    active = table.active
    if not over:
        if k < total:
            return None  # a card before the auction is over
        if not _valid(known, dealt, _NO_CARDS, holding):
            return None
        return Result(
            status="in_progress", game=variant.name, awaiting="bid", to_act=active[to_act]
        )

    # The play.
    partner = -1
    if bidder < 0:
        contract = "schurln"
        ten_high = True
        to_act = table.first
    else:
        contract = CONTRACTS[high - 1]
        if high in _CALLING:
            partner = _partner(table, known, events, k, called)
            if partner < 0:
                return None  # the called card is nowhere: the candidates' fold
        ten_high = contract in TEN_HIGH or (high == _DURCHMARSCH and CODES[called].endswith("10"))
        to_act = bidder
    d = bidder
    power = POWER_TEN if ten_high else POWER_NORMAL
    beating = BEATING_TEN if ten_high else BEATING_NORMAL
    # The declarer's face-down card, which must be his first card.
    laid = face_down[d] if high in _FACE_DOWN else -1
    # Farb- und Stichzwang are judged at the end, on the whole record's knowledge: a
    # card not of the led suit forbids p any unplayed card of it in his hand then, a
    # card that does not beat the trick any unplayed card that would. ``forbidden[p]``
    # gathers them: the record is valid only if p's known hand holds none.
    forbidden = [0, 0, 0, 0]
    played = 0
    done = 0  # tricks collected
    on_table = 0  # cards in the trick
    led = best = winner = -1
    led_mask = before = 0
    won = [0, 0, 0, 0]
    side: tuple[int, ...] = ()
    won_game: bool | None = None
    decided = False
    for event in events[k:]:
        if decided or type(event) is not dict or len(event) != 3 or event["type"] != "play":
            return None  # an event after the decision, or not a plain play
        p = index[event["player"]]
        if p != to_act:
            return None
        card = INDEX[event["card"]]
        bit = bit_of[card]
        if played & bit or not DECK & bit:
            return None
        if dealt:
            if not dealt[p] & bit:
                return None
        else:
            known[p] |= bit
        if on_table:
            # The joiner's first card is exempt.
            if card >> 3 == led:
                if power[card] > best:
                    best, winner = power[card], p
                elif done or p != joiner:
                    forbidden[p] |= beating[led << 3 | best] & ~played
            elif done or p != joiner:
                forbidden[p] |= led_mask & ~played
        else:
            led = card >> 3
            best, winner, before = power[card], p, played
            led_mask = SUIT_MASK[led]
        if not done:
            if p == d:
                if laid >= 0 and card != laid:
                    return None
            elif p == joiner and join_card >= 0 and card != join_card:
                return None
        played |= bit
        if on_table < 3:
            on_table += 1
            to_act = (p + 1) & 3
            continue
        # The trick is complete: collected, and perhaps the game is decided.
        won[winner] |= played ^ before
        done += 1
        on_table = 0
        to_act = winner
        if d < 0:
            decided = done == 6
        elif high in _MORD:
            if winner != d:
                decided, won_game, side = True, False, (d,)
            elif done == 6:
                decided, won_game, side = True, True, (d,)
        elif high in _FACE_DOWN:
            if winner in (d, joiner):
                decided, won_game = True, False
            elif done == 6:
                decided, won_game = True, True
            side = (d,) if joiner < 0 else (d, joiner)
        elif high == _LETZTER:
            if done < 6:
                if winner != d:
                    decided, won_game, side = True, False, (d,)
            else:
                # The last trick won by another player: he was the partner all along.
                decided, won_game = True, True
                side = (d,) if winner == d else (d, winner)
        else:  # durchmarsch, durchmarsch_hundert
            if winner != d and winner != partner:
                decided, won_game = True, False
            elif done == 6:
                decided, won_game = True, True
            side = (d, partner)

    if not _valid(known, dealt, forbidden, holding):
        return None
    name = variant.name
    if not decided:
        if d < 0:
            declarers: tuple[str, ...] = ()
        elif partner >= 0:
            declarers = (active[d], active[partner])
        elif joiner >= 0:
            declarers = (active[d], active[joiner])
        else:
            declarers = (active[d],)
        return Result(
            status="in_progress",
            game=name,
            contract=contract,
            declarers=declarers,
            tricks=done,
            awaiting="play",
            to_act=active[to_act],
        )
    values = rules["values"]
    if d < 0:
        return _schurln(name, active, int(values["schurln"]), won, winner)
    if joiner >= 0 and high in _FACE_DOWN:
        value = int(values[contract + "_joined"])
    else:
        value = int(values[contract])
    # Each opponent pays (or gets) the value; a side of one takes it from all three.
    theirs = -value if won_game else value
    ours = -theirs * 3 if len(side) == 1 else -theirs
    return Result.finished(
        name,
        contract,
        tuple([active[q] for q in side]),
        won_game,
        value,
        "played_out" if done == 6 else "decided",
        done,
        {player: ours if q in side else theirs for q, player in enumerate(active)},
    )


def _valid(
    known: list[int],
    dealt: tuple[int, ...],
    forbidden: list[int] | tuple[int, ...],
    holding: list[tuple[int, int, int]],
) -> bool:
    """The judgements that wait for the whole record's knowledge (``known``, each
    player's cards; ``dealt``, the dealt hands if any): every card in one hand, no hand
    of more than six (without hands), no player holding a card ``forbidden`` him by
    Farb- or Stichzwang, and the bids' requirements (``holding``: player, rank, called
    card) to lack the called card or hold K and O of a suit."""
    if not dealt:
        sizes = [mask.bit_count() for mask in known]
        if max(sizes) > 6 or sum(sizes) != (known[0] | known[1] | known[2] | known[3]).bit_count():
            return False  # a card in two hands or a seventh card: some event is illegal
    if (
        known[0] & forbidden[0]
        or known[1] & forbidden[1]
        or known[2] & forbidden[2]
        or known[3] & forbidden[3]
    ):
        return False  # a broken obligation
    for p, rank, named in holding:
        if named >= 0:
            holder = _holder(known, named)
            if holder == p:
                return False  # he calls his own card
            if holder < 0 and all(known[q].bit_count() >= 6 for q in range(4) if q != p):
                return False  # nobody can hold the called card
        if rank in _WITH_HUNDERT and known[p].bit_count() >= 6:
            hand = known[p]
            if not any(hand & pair == pair for pair in HUNDERT_PAIRS):
                return False  # his whole hand is known, without K and O of a suit
    return True


def _partner(table: Table, known: list[int], events: list[Any], k: int, called: int) -> int:
    """The player the record puts the ``called`` card with (-1: nobody): the dealt
    hands, a face-down card of the auction (in ``known``), else the first play of it
    from position ``k`` on. The end of ``_replay`` makes sure the whole record agrees.
    May raise ``KeyError``, ``TypeError``."""
    if table.dealt_owner:
        return table.dealt_owner[called]
    holder = _holder(known, called)
    if holder >= 0:
        return holder
    code = CODES[called]
    for event in events[k:]:
        if type(event) is dict and event.get("card") == code:
            return table.index[event["player"]]
    return -1


def _holder(known: list[int], card: int) -> int:
    """The player the record puts ``card`` with (-1: nobody)."""
    for q in range(4):
        if known[q] >> card & 1:
            return q
    return -1


def _schurln(name: str, active: tuple[str, ...], value: int, won: list[int], last: int) -> Result:
    """Schurln played out (as ``Koenigrufen._schurln``): who took the most aces and
    tens, the last trick's winner ``last`` counting one more, pays."""
    counts = [(cards & ACES_TENS).bit_count() for cards in won]
    counts[last] += 1
    top = max(counts)
    losers = [q for q in range(4) if counts[q] == top]
    k = len(losers)
    pay: dict[str, int] = {}
    for q, player in enumerate(active):
        if k == 4:
            pay[player] = 0
        elif q in losers:
            pay[player] = -value * (3 if k == 1 else 1)
        else:
            pay[player] = value * (3 if k == 3 else 1)
    return Result.finished(name, "schurln", (), None, value, "played_out", 6, pay)


def _holds_tally(events: list[Any]) -> bool:
    """Does any event name the type ``tally``? (The express path does not know it.)"""
    return "tally" in [e.get("type") for e in events if type(e) is dict]
