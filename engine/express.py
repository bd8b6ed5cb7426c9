"""The express replay: one pass for a Fuchsen record of the usual shape.

The usual record the table types in: the deal (seats, and every hand or none), the
Macher's call of a card (perhaps turning one; not alone), the first trick with its
raises (perhaps the Hilfer's Fuchs and an ``end_raising``), then either nothing but
the cards of tricks 2 to 6 (played out) or at most the lead of trick 2 (the game
ended at no kontra or no re, goes on, or waits for the partner).

Played out, every card of the deck is played once, so in hindsight
(``event-stream.md``) a player's hand at any card is exactly the cards he plays from
that card on, and his whole hand the six he plays (dealt hands must be just those).
``_played_out`` reads tricks 6 down to 2 from the end, each judged as soon as it is
read (the hands then are the cards of this trick and the later ones), then the first
trick with the whole hands known and the call, and settles the game: one pass where
the fold needs two (the knowledge read, then the tricks). ``_short`` judges the first
trick on the cards the record shows, and where nobody plays the called card, which
players may still be the partner (hindsight rule 4).

It only ever *accepts*: at anything it does not take (another shape of event, a card
out of turn or twice, a broken obligation or raise, a forgotten Fuchs, a turned card
the record never identifies, a game cut off between the lead of trick 2 and its end,
house rules it does not cover) it returns ``None`` and ``replay`` folds the record as
always, which finds and words any error. So a record gets from here exactly the
result the fold gives it, or nothing (``tests/engine/test_express.py`` compares the
two on every kind of record).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import INDEX
from engine.core import Illegal, Table, waiting_for_partner
from engine.fuchsen import (
    _ABOVE,
    _ABOVE_LOW,
    _BIT,
    _FOLLOWING,
    _ONE_DIGIT,
    CLASS,
    CLASS_MASK,
    CLASS_MASK_LOW,
    EO,
    GO,
    LEVEL_NUMBER,
    LOW_PLAIN,
    NO_SUIT,
    POWER,
    TRUMP,
    TRUMPS,
    Fuchsen,
    augen_of,
)
from engine.result import Result
from engine.rules import FUCHSEN_LEVELS

__all__ = ["fuchsen_express"]

_PLAY = "play"
# The deal's fields (``validate_deal`` judges them; it ignores any other).
_DEAL_FIELDS = frozenset({"type", "dealer", "players", "hands", "removed", "sitting_out"})


def fuchsen_express(variant: Fuchsen, rules: Mapping[str, Any], events: list[Any]) -> Result | None:
    """The result of ``events`` (a Fuchsen record's events, ``undo`` not resolved)
    under ``rules`` if the record is a partner game of the usual shape and valid:
    played out, or not beyond the lead of trick 2 (see the module's docstring); else
    None, and the fold decides."""
    if _holds_tally(events):
        return None  # the tally is judged by the fold alone
    total = len(events)
    if total < 2:
        return None
    deal = events[0]
    call = events[1]
    if type(deal) is not dict or deal.get("type") != "deal":
        return None
    if len(deal) != 3 and not _DEAL_FIELDS.issuperset(deal):
        return None  # a field the fold refuses
    if type(call) is not dict or call.get("type") != "call":
        return None
    if len(call) != 3 and (len(call) != 4 or "turned" not in call):
        return None  # alone, or a field the fold refuses
    try:
        table = variant.validate_deal(deal, rules)
    except (Illegal, KeyError, TypeError):
        return None
    if 0 in table.dealt:
        return None  # some hands dealt, not all: the fold's knowledge walk
    n = len(table.active)
    try:
        if total - 2 >= 6 * n:
            return _played_out(variant, rules, events, table)
        return _short(variant, rules, events, table)
    except (KeyError, TypeError, IndexError):
        # A field missing, or of a kind no name, code or level can be: the fold words it.
        return None


def _played_out(
    variant: Fuchsen, rules: Mapping[str, Any], events: list[Any], table: Table
) -> Result | None:
    """``fuchsen_express`` for a record long enough to be played out: tricks 2 to 6
    are the last 5n events, nothing but plays; before them, the call and the first
    trick with its raises. May raise ``KeyError``, ``TypeError``, ``IndexError``."""
    total = len(events)
    index = table.index
    deck = table.deck
    n = len(table.active)
    first_end = total - 5 * n
    following = _FOLLOWING[n]
    class_mask, above = (CLASS_MASK_LOW, _ABOVE_LOW) if deck < _ONE_DIGIT else (CLASS_MASK, _ABOVE)
    class_of, power_of, bit_of = CLASS, POWER, _BIT
    # A turned card: the blank, played face down by the Macher, counts as the lowest
    # card of the called suit (``suit``), in his hand too. Which card it is the call
    # says, or the face-down play (``blank`` -1 until then: a card the record never
    # identifies is left to the fold).
    blank = macher = suit = -1
    call = events[1]
    if len(call) == 4:
        macher = index[call["player"]]
        suit = CLASS[INDEX[call["card"]]]
        if call["turned"] is not True:
            blank = INDEX[call["turned"]]
    blank_bit = 0 if blank < 0 else bit_of[blank]
    face_down = False  # the blank was played face down in tricks 2 to 6
    # ``hand[p]``: the cards ``p`` plays in the tricks read so far (this one and the
    # later ones), which is his hand when he plays this trick's card.
    hand = [0] * n
    won = [0] * n
    seen = 0  # the cards of the tricks read so far
    next_leader = -1  # who led the trick after this one (the winner of this one)
    k = total
    while k > first_end:
        start = k - n
        event = events[start]
        if type(event) is not dict or event["type"] != _PLAY:
            return None
        p = leader = index[event["player"]]
        card = INDEX[event["card"]]
        bit = bit_of[card]
        if seen & bit or not deck & bit:
            return None
        hand[p] |= bit
        if len(event) != 3:
            if not _face_down(event, p, macher, card, blank):
                return None
            blank, blank_bit, face_down = card, bit, True
            led, wkey = suit, 0  # a blank led: the called suit's lowest card
        else:
            led = class_of[card]
            wkey = power_of[card]
        winner = p
        led_mask = class_mask[led]
        mask = bit
        for event in events[start + 1 : k]:
            if type(event) is not dict or event["type"] != _PLAY:
                return None
            q = index[event["player"]]
            if q != following[p]:
                return None
            p = q
            card = INDEX[event["card"]]
            bit = bit_of[card]
            if (seen | mask) & bit or not deck & bit:
                return None
            cards = hand[p] | bit
            hand[p] = cards
            if len(event) != 3:
                if not _face_down(event, p, macher, card, blank):
                    return None
                blank, blank_bit, face_down = card, bit, True
                cls, power = suit, 0
            else:
                cls = class_of[card]
                power = power_of[card]
            if cards & blank_bit:
                # The Macher, the blank in his hand: it counts as a card of the
                # called suit, not of its own.
                key = _key_after(cards ^ blank_bit, cls, power, led, led_mask, wkey, above, suit)
                if key < 0:
                    return None
                if key != wkey:
                    wkey, winner = key, p
                mask |= bit
                continue
            # As the fold's lean loop: follow suit and beat the trick if he can;
            # else trump and over-trump if he can.
            follow = cards & led_mask
            if follow:
                if cls != led:
                    return None
                if power > wkey:
                    wkey, winner = power, p
                elif follow & above[wkey]:
                    return None
            elif led != TRUMP:
                trumps = cards & TRUMPS
                if trumps:
                    if cls != TRUMP:
                        return None
                    if power > wkey:
                        wkey, winner = power, p
                    elif trumps & above[wkey]:
                        return None
            mask |= bit
        if next_leader >= 0 and winner != next_leader:
            return None
        next_leader = leader
        won[winner] |= mask
        seen |= mask
        k = start
    return _first_trick(
        variant, rules, events, table, hand, won, seen, next_leader, blank, face_down
    )


def _first_trick(
    variant: Fuchsen,
    rules: Mapping[str, Any],
    events: list[Any],
    table: Table,
    hand: list[int],
    won: list[int],
    seen: int,
    leads_second: int,
    blank: int,
    late_blank: bool,
) -> Result | None:
    """``_played_out`` from the first trick on: ``hand`` holds each player's cards of
    tricks 2 to 6, ``won`` the cards each won there, ``seen`` all of them;
    ``leads_second`` led trick 2; ``blank`` the turned card if the call or a
    face-down play there named it, else -1; ``late_blank``: it was played face down
    there. May raise ``KeyError``, ``TypeError``."""
    index = table.index
    deck = table.deck
    n = len(table.active)
    # The first trick's cards: with them every hand is whole (six cards).
    read = _read(events, 2, len(events) - 5 * n, index, deck, seen, hand)
    if read is None:
        return None
    items, seen, played = read
    if played != n:
        return None
    # The call, judged on the whole hands.
    call = events[1]
    macher = index[call["player"]]
    called = INDEX[call["card"]]
    if table.dealt and tuple(hand) != table.dealt:
        return None  # a card played that was dealt to another
    if blank < 0:
        blank = _blank(call, items)
    if len(call) == 4:
        # Turned: the blank played face down once, here or later, and allowed.
        if blank < 0 or late_blank == any(item[4] == _FACE_DOWN for item in items):
            return None
        if not _whole_hand_turns(rules, hand[macher], called, blank, deck):
            return None
    elif not _whole_hand_calls(hand[macher], called, deck):
        return None
    hilfer = go_holder = -1
    for q in range(n):
        if hand[q] >> called & 1:
            hilfer = q
        if hand[q] >> GO & 1:
            go_holder = q
    walked = _walk(rules, items, table, macher, hilfer, go_holder, hand, called, 1 << hilfer, blank)
    if walked is None:
        return None
    partners, level, decided, fuchs_said, _, winner, mask = walked
    if not partners or decided or winner != leads_second:
        return None  # (decided: no re, or no kontra and no Fuchs, ends after trick 1)
    if go_holder == hilfer and not fuchs_said:
        return None  # the Hilfer forgot his Fuchs: the fold settles that
    if level == 1 or (level == 0 and not fuchs_said):
        return None  # the lead of trick 2 ended the game
    won[winner] |= mask
    # Played out (as ``Fuchsen._played_out`` and ``_decide``).
    ours_cards = won[macher] | won[hilfer]
    ours = augen_of(ours_cards)
    if level <= 1:
        value = int(rules["min_value"])
    else:
        name = FUCHSEN_LEVELS[level - 1]
        value = int(rules["level_values"][name]) + int(rules["game_cost"])
        if name == "end":
            value += int(rules["end_bonus"])
    if ours_cards == seen:
        value += int(rules["silent_bonus"])  # the opponents took no trick
    declarers_won = ours >= 61
    return Result.finished(
        variant.name,
        "partner",
        (table.active[macher], table.active[hilfer]),
        declarers_won,
        value,
        "played_out",
        6,
        _payouts(table, macher, hilfer, value if declarers_won else -value),
        FUCHSEN_LEVELS[level - 1] if level else None,
        True,
        (ours, 121 - ours),
    )


def _short(
    variant: Fuchsen, rules: Mapping[str, Any], events: list[Any], table: Table
) -> Result | None:
    """``fuchsen_express`` for a record that goes no further than the lead of trick 2:
    the first trick (or part of it) with its raises, perhaps the end of the raising.

    No hand is whole here, so the call's requirements to hold a card are not judged,
    and a called card nobody plays makes every other player a candidate partner
    (hindsight rule 4): each keeps the record valid unless a raise of the other side,
    a Fuchs he does not say, or the called card in his hand (follow suit, beat the
    trick) rules him out. May raise ``KeyError``, ``TypeError``, ``IndexError``."""
    index = table.index
    deck = table.deck
    n = len(table.active)
    call = events[1]
    macher = index[call["player"]]
    called = INDEX[call["card"]]
    if not deck >> called & 1 or TRUMPS >> called & 1:
        return None
    dealt = table.dealt
    known = list(dealt) if dealt else [0] * n
    read = _read(events, 2, len(events), index, deck, 0, known)
    if read is None:
        return None
    items, _, played = read
    if played > n + 1:
        return None
    blank = _blank(call, items)
    turned = len(call) == 4
    if turned:
        if blank < 0 or not deck >> blank & 1:
            return None  # a blank the record never identifies: the fold's reading
        if any(known[q] >> blank & 1 for q in range(n) if q != macher):
            return None  # another player holds it
        known[macher] |= _BIT[blank]  # the call places it
    if dealt:
        if tuple(known) != dealt:
            return None  # a card played (or turned) that was dealt to another
        if turned:
            if not _whole_hand_turns(rules, known[macher], called, blank, deck):
                return None
        elif not _whole_hand_calls(known[macher], called, deck):
            return None  # a call the whole hand forbids (or that the fold allows)
    elif turned and not _part_hand_turns(rules, known[macher], called, blank):
        return None
    # The call: EO played by another, or the called card by the Macher, is refused.
    hilfer = go_holder = -1
    for q in range(n):
        cards = known[q]
        if cards >> EO & 1 and q != macher:
            return None
        if cards >> called & 1:
            hilfer = q
        if cards >> GO & 1:
            go_holder = q
    if hilfer == macher:
        return None
    # Who may be the Hilfer, as a mask of players: the holder of the called card, or
    # any other player (his hand is never whole here) as long as the record allows.
    partners = 1 << hilfer if hilfer >= 0 else ((1 << n) - 1) & ~(1 << macher)
    walked = _walk(rules, items, table, macher, hilfer, go_holder, known, called, partners, blank)
    if walked is None:
        return None
    partners, level, decided, fuchs_said, to_act, _, _ = walked
    if not partners:
        return None  # no candidate keeps the record valid: the fold finds the error
    if hilfer >= 0 and go_holder == hilfer and not fuchs_said:
        return None  # the Hilfer forgot his Fuchs: the fold settles that
    active = table.active
    name = variant.name
    level_name = FUCHSEN_LEVELS[level - 1] if level else None
    tricks = 1 if played >= n else 0
    one = partners & (partners - 1) == 0  # one partner: the result names him
    if decided:
        value = int(rules["min_value"])
        if one or not value:
            # One Hilfer, or nothing to pay: the result is his (or names no partner).
            q = partners.bit_length() - 1
            return Result.finished(
                name,
                "partner",
                (active[macher], active[q]) if one else (active[macher],),
                level == 0,
                value,
                "no_kontra" if level == 0 else "no_re",
                tricks,
                _payouts(table, macher, q, value if level == 0 else -value),
                level_name,
                True,
                None,
            )
        return waiting_for_partner(name, "partner", (active[macher],), level_name, True, tricks)
    if to_act < 0:
        awaiting, acting = "raise_or_end", None
    else:
        awaiting, acting = "play", active[to_act]
    declarers = (active[macher], active[partners.bit_length() - 1]) if one else (active[macher],)
    return Result(
        status="in_progress",
        game=name,
        contract="partner",
        declarers=declarers,
        level=level_name,
        has_level=True,
        tricks=tricks,
        awaiting=awaiting,
        to_act=acting,
    )


# An event after the call, as ``_read`` gives it: (event index, kind, player, card or
# level, how a card is said), kind ``_CARD`` a play, ``_RAISE`` a raise, ``_END`` the
# end of the raising (player and card -1); a card said with the Fuchs (``_FUCHS``),
# face down (``_FACE_DOWN``) or plainly (0).
_CARD, _RAISE, _END = 0, 1, 2
_FUCHS, _FACE_DOWN = 1, 2
_Item = tuple[int, int, int, int, int]


def _read(
    events: list[Any],
    start: int,
    stop: int,
    index: Mapping[str, int],
    deck: int,
    seen: int,
    known: list[int],
) -> tuple[list[_Item], int, int] | None:
    """``events[start:stop]`` as items, each play's card added to ``seen`` and to its
    player's ``known`` cards; with ``seen`` then and the number of plays. None for an
    event of another kind or shape, a card of another deck or one in ``seen``. May
    raise ``KeyError``, ``TypeError``."""
    items: list[_Item] = []
    plays = 0
    for i in range(start, stop):
        event = events[i]
        if type(event) is not dict:
            return None
        typ = event["type"]
        if typ == _PLAY:
            size = len(event)
            if size == 3:
                said = 0
            elif size != 4:
                return None
            elif event.get("fuchs") is True:
                said = _FUCHS
            elif event.get("turned") is True:
                said = _FACE_DOWN
            else:
                return None
            p = index[event["player"]]
            card = INDEX[event["card"]]
            bit = _BIT[card]
            if seen & bit or not deck & bit:
                return None
            seen |= bit
            known[p] |= bit
            items.append((i, _CARD, p, card, said))
            plays += 1
        elif typ == "raise":
            if len(event) != 3:
                return None
            items.append((i, _RAISE, index[event["player"]], LEVEL_NUMBER[event["level"]], 0))
        elif typ == "end_raising":
            if len(event) != 1:
                return None
            items.append((i, _END, -1, -1, 0))
        else:
            return None
    return items, seen, plays


def _walk(
    rules: Mapping[str, Any],
    items: list[_Item],
    table: Table,
    macher: int,
    hilfer: int,
    go_holder: int,
    known: list[int],
    called: int,
    partners: int,
    blank: int,
) -> tuple[int, int, bool, bool, int, int, int] | None:
    """The first trick, its raises and perhaps the lead of trick 2, in record order:
    the plays judged on ``known`` (each player's cards, the whole record's), the
    raises by the level reached, their windows and the side each level belongs to.

    ``partners`` is the mask of players who may be the Hilfer (``hilfer``, the holder
    of the ``called`` card, if the record shows him); a raise or a Fuchs that rules
    one out, or (with no ``hilfer``) the called card in his hand that would have bound
    him to follow or beat, takes him out. ``blank``: the Macher's turned card (-1 for
    none), which he plays face down and which counts as the lowest card of the called
    suit. Returns None for a rule broken whoever the
    Hilfer is; else (partners, level, decided: the end of the raising ended the game
    at no kontra or no re, fuchs_said, to_act: who plays next, -1 while a raise or the
    end of the raising is awaited, the first trick's winner and its cards)."""
    n = len(table.active)
    deck = table.deck
    class_mask, above = (CLASS_MASK_LOW, _ABOVE_LOW) if deck < _ONE_DIGIT else (CLASS_MASK, _ABOVE)
    following = _FOLLOWING[n]
    called_bit = _BIT[called]
    suit = CLASS[called]
    blank_bit = _BIT[blank] if blank >= 0 else 0
    # The called suit while the Macher holds the blank (he plays it in this walk or
    # later), else none.
    blank_suit = suit if known[macher] & blank_bit else NO_SUIT
    strict = rules["strict_raise_windows"]
    level = 0
    said_at = [1]  # where level k was said; [0] the call
    first_play = [-1] * n
    last_play = -1
    to_act = table.first
    played = 0
    ended = False  # the raising
    decided = False  # by the end of the raising, at no kontra or no re
    fuchs_said = False
    led = wkey = winner = -1
    led_mask = mask = 0
    for i, kind, p, x, said in items:
        if decided:
            return None  # an event after the game was decided
        if kind == _CARD:
            if p != to_act or (said == _FUCHS and played >= n):
                return None
            if said == _FACE_DOWN:
                if p != macher or x != blank or blank_suit == NO_SUIT:
                    return None  # not the blank, or the blank played twice
                cls, power = suit, 0  # the lowest card of the called suit
            elif x == blank:
                return None  # the blank played face up
            else:
                cls = CLASS[x]
                power = POWER[x]
            if played == n:
                # The lead of trick 2: it ends the raising (unless it has ended).
                ended = True
            elif played:
                cards = known[p]
                if p == macher and blank_suit != NO_SUIT:
                    # The blank in his hand counts as a card of the called suit.
                    key = _key_after(
                        cards & ~blank_bit, cls, power, led, led_mask, wkey, above, suit
                    )
                else:
                    key = _key_after(cards, cls, power, led, led_mask, wkey, above)
                if key < 0:
                    return None  # broken with the cards he plays: for every partner
                # Taken to hold the called card too, he may break an obligation.
                if (
                    hilfer < 0
                    and p != macher
                    and not cards & called_bit
                    and _key_after(cards | called_bit, cls, power, led, led_mask, wkey, above) < 0
                ):
                    partners &= ~(1 << p)
                if key != wkey:
                    wkey, winner = key, p
                mask |= _BIT[x]
            else:
                led, wkey, winner, mask = cls, power, p, _BIT[x]
                led_mask = class_mask[cls]
            if said == _FACE_DOWN:
                blank_suit = NO_SUIT  # played: the blank is in his hand no more
            elif said:
                # Only the Hilfer says it, with his first card, and not lacking GO.
                if go_holder not in (p, -1):
                    return None
                partners &= 1 << p
                fuchs_said = True
            if played < n:
                first_play[p] = i
            last_play = i
            played += 1
            to_act = winner if played == n else following[p]
        elif kind == _RAISE:
            said = x
            if ended or said != level + 1 or first_play[p] < 0:
                return None
            if strict and last_play > first_play[p] and last_play > said_at[said - 1]:
                return None  # his chance lapsed
            # A level of the Macher's side (even) or of the opponents (odd).
            if said % 2 == 0:
                if p != macher:
                    partners &= 1 << p
            elif p == macher:
                return None
            else:
                partners &= ~(1 << p)
            level = said
            said_at.append(i)
        else:
            if ended or played != n:
                return None
            ended = True
        if ended and not decided:
            decided = level == 1 or (level == 0 and not fuchs_said)
    if played == n and not ended:
        to_act = -1  # a raise or the end of the raising
    return partners, level, decided, fuchs_said, to_act, winner, mask


def _key_after(
    cards: int,
    cls: int,
    power: int,
    led: int,
    led_mask: int,
    wkey: int,
    above: Mapping[int, int],
    blank_suit: int = NO_SUIT,
) -> int:
    """The key to beat in a trick of ``led`` class (its cards ``led_mask``) once a
    card of ``cls`` and ``power`` follows a card of key ``wkey``, played from the hand
    ``cards`` (this card in it): ``power`` if it takes the trick, else ``wkey``; -1 if
    it breaks an obligation (follow suit and beat if he can; else trump and
    over-trump if he can), as the fold's lean loop judges.

    ``blank_suit``: the Macher holds the blank too (not in ``cards``; if it is the
    card played, its ``cls`` is this suit and its ``power`` 0), a card of this suit
    that beats nothing."""
    follow = cards & led_mask
    if follow or led == blank_suit:
        if cls != led:
            return -1
        if power > wkey:
            return power
        return -1 if follow & above[wkey] else wkey
    if led != TRUMP:
        trumps = cards & TRUMPS
        if trumps:
            if cls != TRUMP:
                return -1
            if power > wkey:
                return power
            return -1 if trumps & above[wkey] else wkey
    return wkey


def _face_down(event: dict[str, Any], p: int, macher: int, card: int, blank: int) -> bool:
    """Is ``event``, a play of ``card`` by ``p`` with a fourth field, the Macher's
    first card played face down (``turned``: true), the blank if the call named it?"""
    return (
        len(event) == 4
        and event.get("turned") is True
        and p == macher
        and (blank < 0 or card == blank)
    )


def _blank(call: dict[str, Any], items: list[_Item]) -> int:
    """The turned card: the one the call names, or the first card played face down
    (``items``); -1 for a call that turns none, or one the record never identifies."""
    if len(call) != 4:
        return -1
    turned = call["turned"]
    if turned is not True:
        return INDEX[turned]
    for item in items:
        if item[4] == _FACE_DOWN:
            return item[3]
    return -1


def _whole_hand_turns(
    rules: Mapping[str, Any], mine: int, called: int, blank: int, deck: int
) -> bool:
    """As ``_whole_hand_calls`` for a call that turns ``blank`` (in ``mine``): a plain
    7 or 8 (``turn_low_plain``), or with six trumps any trump but EO; the called card
    of any suit."""
    if blank == EO or not mine >> EO & 1 or not mine >> blank & 1:
        return False
    if TRUMPS >> blank & 1:
        if mine & TRUMPS != mine:
            return False
    elif not (rules["turn_low_plain"] and LOW_PLAIN >> blank & 1):
        return False
    return bool(deck >> called & 1 and not TRUMPS >> called & 1 and not mine >> called & 1)


def _part_hand_turns(rules: Mapping[str, Any], mine: int, called: int, blank: int) -> bool:
    """``_whole_hand_turns`` while the Macher's hand is not whole (``mine``, the blank
    in it, fewer than six cards): any trump but EO may be the blank then (the six
    trumps are not shown), a plain card only as ``turn_low_plain`` allows."""
    if blank == EO or mine >> called & 1:
        return False
    return bool(TRUMPS >> blank & 1 or (rules["turn_low_plain"] and LOW_PLAIN >> blank & 1))


def _whole_hand_calls(mine: int, called: int, deck: int) -> bool:
    """May the Macher, whose whole hand is ``mine``, call ``called`` as the usual call
    does? (A card of the deck, no trump, not his own, of a suit he holds a plain card
    of; and he holds EO.) False leaves the call to the fold: it may still be allowed
    (``call_own_card``, a hand that allows no usual call) or worded as an error."""
    return bool(
        deck >> called & 1
        and mine >> EO & 1
        and not TRUMPS >> called & 1
        and not mine >> called & 1
        and mine & CLASS_MASK[CLASS[called]]
    )


def _payouts(table: Table, macher: int, hilfer: int, signed: int) -> dict[str, int]:
    """As ``Fuchsen._decide``: each opponent pays ``signed`` to the Macher's side (the
    Hilfer takes one share, the Macher the rest); one who sits out pays nothing."""
    pay = dict.fromkeys(table.players, -signed)
    if table.sitting_out is not None:
        pay[table.sitting_out] = 0
    active = table.active
    pay[active[hilfer]] = signed
    pay[active[macher]] = signed * (len(active) - 3)
    return pay


def _holds_tally(events: list[Any]) -> bool:
    """Does any event name the type ``tally``? (The express path does not know it.)"""
    return "tally" in [e.get("type") for e in events if type(e) is dict]
