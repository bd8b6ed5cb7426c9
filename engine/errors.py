"""Why the engine refuses a record: error codes, message templates and ``Illegal``.

An error is data, not prose: a ``Code`` (the spec's table, event-stream.md), the
event's index and the parameters of its message (player, card, rule, …). The English
sentence is rendered from the message's template (``Msg``, a ``str.format`` string);
``games/engine_text.py`` renders the same template's translation with the same
parameters, so the engine's wording is written once.

Parameter names in the templates: ``player`` (the player the rule binds), ``other``
(another player), ``card``/``card2`` (card codes), ``example`` (a card code or "the
blank"), ``suit``, ``level``/``level2``, ``contract``/``contract2``, ``type`` (an
event type), ``rule`` (a house rule), ``n``/``n2``/``n3`` (numbers); a name starting
with ``r`` (``rcard``, ``rvalue``, …) is a value as the record gave it, which may be of
any JSON kind (a template quotes it with ``!r`` where the sentence shows it as written).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

__all__ = ["CODE_RANK", "ERROR_CODES", "Code", "Illegal", "Msg", "render"]


class Code(StrEnum):
    """An error code of the spec, in the spec's table order: where one event breaks
    several rules, the first code in the table wins. Compares equal to its string."""

    def __new__(cls, value: str, doc: str) -> Code:
        member = str.__new__(cls, value)
        member._value_ = value
        member.__doc__ = doc
        return member

    # The member is the code's string itself: its plain ``str`` (in C, not through
    # ``value``).
    __str__ = str.__str__

    MALFORMED_RECORD = (
        "malformed_record",
        "The record is no object, names no game of this engine, or its events are no list.",
    )
    INVALID_RULES = (
        "invalid_rules",
        "The record's house rules do not fit its game (unknown key, wrong kind of value).",
    )
    MALFORMED_EVENT = (
        "malformed_event",
        "An event is no object, has an unknown type, or lacks, adds or mistypes a field.",
    )
    UNKNOWN_CARD = ("unknown_card", "A card code that is no card, or no card of this game's deck.")
    UNKNOWN_PLAYER = ("unknown_player", "A player who is not seated, or sits out this game.")
    INVALID_DEAL = (
        "invalid_deal",
        "The deal's seats, dealer, sitting out, removed cards or hands break the rules.",
    )
    OUT_OF_ORDER = (
        "out_of_order",
        "An event the game's phase does not allow now (a play before the call, a second deal, …).",
    )
    NOT_YOUR_TURN = ("not_your_turn", "A player plays or speaks out of turn.")
    CARD_NOT_IN_HAND = (
        "card_not_in_hand",
        "The record puts the card in another hand, or already shows all six cards of this one.",
    )
    CARD_ALREADY_PLAYED = (
        "card_already_played",
        "The card was already played (or, for a show, already shown).",
    )
    MUST_FOLLOW_SUIT = (
        "must_follow_suit",
        "The player holds a card of the led suit (or trump) and played another.",
    )
    MUST_OVERTAKE = (
        "must_overtake",
        "The player followed suit below the trick but holds a card of the suit that beats it.",
    )
    MUST_TRUMP = (
        "must_trump",
        "The player cannot follow suit, holds a trump and did not trump (or over-trump).",
    )
    INVALID_CALL = (
        "invalid_call",
        "The Macher's call breaks a rule (wrong Macher, forbidden card, turned card, alone).",
    )
    INVALID_BID = ("invalid_bid", "A bid, pass or join of the auction breaks a rule.")
    INVALID_RAISE = (
        "invalid_raise",
        "A raise at the wrong level, by the wrong side, or outside its window.",
    )
    INVALID_ANNOUNCEMENT = (
        "invalid_announcement",
        "A Fuchs said by someone other than the Hilfer, or not with his first card.",
    )
    INVALID_TALLY = (
        "invalid_tally",
        "A tally's fields contradict each other, the recorded tricks or the rules.",
    )
    FACE_DOWN_CARD_MISMATCH = (
        "face_down_card_mismatch",
        "A face-down card played differs from the one turned or laid down, or was played face up.",
    )
    GAME_FINISHED = ("game_finished", "An event after the game was decided.")
    NOTHING_TO_UNDO = ("nothing_to_undo", "An undo with no event left to remove.")


# The codes as strings, in the table's order (``CODE_RANK``: position in the table).
ERROR_CODES: tuple[str, ...] = tuple(code.value for code in Code)
CODE_RANK: dict[str, int] = {code: i for i, code in enumerate(ERROR_CODES)}


class Msg(StrEnum):
    """The template of each message the engine gives (English, ``str.format`` style).

    The member's value is the template and the msgid of its translations."""

    RECORD_NOT_OBJECT = "a record must be an object"
    UNKNOWN_GAME = "{rgame!r} is not a game of this engine"
    EVENTS_NOT_LIST = "the record's events must be a list"
    RULE_NOT_INT = "house rule {rule} must be an integer, not {rvalue!r}"
    RULE_OUT_OF_RANGE = "house rule {rule} must lie between -{n} and {n}, not {rvalue}"
    RULE_NOT_BOOL = "house rule {rule} must be true or false, not {rvalue!r}"
    RULE_NOT_CHOICE = "house rule {rule} must be one of {rchoices}, not {rvalue!r}"
    RULE_NOT_OBJECT = "house rule {rule} must be an object, not {rvalue!r}"
    RULE_UNKNOWN_ENTRY = (
        "house rule {rule} has an unknown entry {rentry!r}: expected some of {rchoices}"
    )
    RULE_NOT_REMOVABLE = (
        "house rule {rule} must list two distinct zero-Augen plain cards ({cards}), not {rvalue!r}"
    )
    RULES_NOT_OBJECT = "house rules must be an object of settings, not {rvalue!r}"
    UNKNOWN_RULE = "unknown house rule {rentry!r} for {rgame}: expected some of {rchoices}"
    NOTHING_TO_UNDO = "undo: no event is left to remove"
    GAME_HAS_ALREADY_BEEN_DEALT = "the game has already been dealt"
    GAME_ALREADY_DECIDED_NOW = "the game is already decided: no {type} now"
    EVENT_BEFORE_DEAL = "a {type} event before the deal"
    EVENT_NOT_OBJECT = "an event must be an object, not {rvalue!r}"
    UNKNOWN_EVENT_TYPE = "{rtype!r} is not an event type of {rgame}"
    UNKNOWN_FIELD = "a {type} event has no field {rfield!r}"
    FIELD_MALFORMED = "the field {rfield!r} of a {type} event is malformed"
    FIELD_MISSING = "a {type} event needs the field {rfield!r}"
    CALL_WITHOUT_CARD = "a call names a card unless it is alone: true"
    HAND_CARD_NOT_IN_DECK = "{rcard!r} in {player}'s hand is not a card of this deck"
    NOT_IN_DECK = "{rcard!r} is not a card of this deck"
    NOT_A_CARD = "{rcard!r} is not a card"
    SITS_OUT = "{player} sits out this game"
    NOT_PLAYING = "{rplayer!r} is not playing in this game"
    HANDS_NOT_OBJECT = "hands must map players to their six cards"
    HAND_NOT_LIST = "the hand of {player} must be a list of cards"
    HAND_OF_NON_PLAYER = "{rplayer!r} is dealt a hand but does not play"
    HAND_NOT_SIX = "{player} must be dealt six different cards"
    CARD_DEALT_TWICE = "a card is dealt to two players"
    FUCHSEN_SEATS = "Fuchsen is dealt to 4, 5 or 6 seated players"
    KOENIGRUFEN_SEATS = "Gradener Königrufen is dealt to exactly four players"
    EMPTY_NAME = "every player needs a non-empty name"
    SEATED_TWICE = "a player is seated twice"
    DEALER_NOT_SEATED = "the dealer {rplayer!r} is not seated"
    SIX_SEATED_SIT_OUT_NAMED = (
        "with six seated and sit_out named, the deal names a seated player who sits out"
    )
    SIT_OUT_DEALER_DEALER_SITS = "with sit_out dealer the dealer sits out"
    SIX_SEATED_DOES_PLAYER_SIT = "only with six seated does a player sit out"
    DEAL_REMOVES_EXACTLY_TWO = "the deal removes exactly two cards"
    REMOVED_ARE_TWO_DIFFERENT_ZERO = (
        "the removed cards are two different zero-Augen plain cards ({cards})"
    )
    ARE_REMOVED_FIVE_ACTIVE_PLAYERS = "cards are removed only with five active players"
    ALREADY_PLAYED = "{card} was already played: {player} cannot have it"
    ALREADY_SHOWN = "{card} was already shown: {player} cannot have it"
    IN_ANOTHER_HAND = "{player} cannot hold {card}: the record puts it in {other}'s hand"
    HAND_ALREADY_FULL = (
        "{player} cannot hold {card}: the record already shows all six cards of {player}"
    )
    NOBODYS_TURN = "it is nobody's turn to play, not {player}'s"
    NOT_TURN_TO_PLAY = "it is {other}'s turn to play, not {player}'s"
    NOT_TURN_TO_SPEAK = "it is {other}'s turn to speak, not {player}'s"
    FOLLOW_TRUMPS = "{player} must follow suit: {player} holds {example} and Trumps were led"
    FOLLOW_SUIT = "{player} must follow suit: {player} holds {example} and {suit} was led"
    BEAT_THE_TRICK = (
        "{player} must beat the trick: {player} holds {card}, which beats it, and played {card2}"
    )
    TRUMP = "{player} must trump: {player} holds {card} and no {suit} card"
    OVER_TRUMP = (
        "{player} must over-trump: {player} holds {card}, which beats the trick, and played {card2}"
    )
    MACHER_HAS_ALREADY_CALLED = "the Macher has already called"
    PLAYED_BEFORE_MACHER_HAS_CALLED = "no card is played before the Macher has called"
    FORFEIT_COMES_AFTER_CALL = "a forfeit comes after the call"
    PLAYS_ALONE_SO_CALLS = "{player} plays alone and so calls no card"
    MACHER_HOLDS_EO = "{player} is not the Macher: {other} holds EO"
    MACHER_SIX_RECORD_SHOWS_FOR = (
        "{player} is not the Macher: the six cards the record shows for {player} lack EO"
    )
    MAY_TURN_EO_MACHER_STAYS = "{player} may not turn EO, the Macher card stays up"
    MAY_TURN_TRUMP_SIX_TRUMPS = "{player} may turn a trump ({card}) only with six trumps"
    TURN_NOT_ALLOWED_HERE = (
        "{player} may not turn {card}: only a plain 7 or 8 and not under this club's rules"
    )
    TURN_NOT_PLAIN_LOW = "{player} may not turn {card}: only a plain 7 or 8"
    MAY_PLAY_ALONE_SIX_TRUMPS = "{player} may play alone only with six trumps"
    MAY_CALL_TRUMP = "{player} may not call {card}: it is a trump"
    MAY_CALL_TURNED = "{player} may not call the card {player} turned"
    CALLS_OWN_CARD = "{player} may not call {card}: {player} holds it"
    MAY_CALL_CALLED_MUST_SUIT = (
        "{player} may not call {card}: the called card must be of a suit in which "
        "{player} holds a plain card"
    )
    NOBODY_HOLDS_CALLED = "nobody can hold {card}: every other hand is known without it"
    NOBODY_CAN_RAISE_BEFORE_CALL = "nobody can raise before the call"
    UNKNOWN_LEVEL = "{rlevel!r} is not a level of Fahren"
    CANNOT_SAY_RAISING_OVER = "{player} cannot say {level}: the raising is over"
    CANNOT_SAY_NEXT_LEVEL = "{player} cannot say {level}: the next level is {level2}"
    RAISE_MACHERS_SIDE = "{player} cannot say {level}: only the Macher's side may"
    RAISE_OPPONENTS = "{player} cannot say {level}: only the opponents may"
    CANNOT_SAY_BEFORE_PLAYING = "{player} cannot say {level} before playing a card"
    CANNOT_SAY_CHANCE_LAPSED_WHEN = (
        "{player} cannot say {level}: the chance lapsed when the next card was played"
    )
    RAISING_ENDS_ONCE_WHEN_FIRST = (
        "the raising ends only once, when the first trick has been collected"
    )
    HILFER_HILFER_SAYS_FUCHS = "{player} is not the Hilfer: only the Hilfer says Fuchs"
    MAY_SAY_FUCHS_FIRST_PLAYED = "{player} may say Fuchs only with the first card played"
    CANNOT_SAY_FUCHS_RECORD_SHOWS = "{player} cannot say Fuchs: the record shows {player} lacks GO"
    NOT_THE_TURNED_CARD = "{player}'s {card} is not the Macher's turned card"
    TURNED_MUST_PLAYED_FACE_DOWN = (
        "{player} turned {card}: it must be played face down (turned: true)"
    )
    AUCTION_OVER_NOW = "the auction is over: no {type} now"
    PLAYED_BEFORE_AUCTION_OVER = "no card is played before the auction is over"
    FORFEIT_COMES_AFTER_AUCTION = "a forfeit comes after the auction"
    CANNOT_JOIN_BETTLER_OR_PLAUDERER = (
        "{player} cannot join: only a bettler or plauderer nobody has joined yet can be joined"
    )
    UNKNOWN_CONTRACT = "{rcontract!r} is not a contract one can bid"
    MUST_BID_HIGHER_THAN = "{player} must bid higher than {contract}, not {contract2}"
    NEEDS_CALLED_CARD = "{contract} names a called card"
    CALLS_NO_CARD = "{contract} calls no card"
    NO_FACE_DOWN = "{contract} lays no card face down"
    CANNOT_BID_RECORD_SHOWS_LACKS = (
        "{player} cannot bid {contract}: the record shows {player} lacks K and O of one suit"
    )
    LAID_FACE_DOWN_MUST_PLAY = (
        "{player} laid {card} face down and must play it in the first trick, not {card2}"
    )
    TALLY_COMES_AFTER_CALL = "a tally comes after the call"
    TALLY_COMES_AFTER_AUCTION = "a tally comes after the auction"
    TALLY_COMES_BETWEEN_TRICKS_TRICK = (
        "a tally comes between tricks, not with cards of a trick down"
    )
    TALLY_DOES_END_RAISING_RAISING = "a tally does not end the raising: the raising must end first"
    TALLY_AFTER_FIRST_TRICK_GIVES = (
        "a tally after the first trick gives no level: the recorded raises say it"
    )
    ALONE_GAME_HAS_HILFER_WHO = "an alone game has no Hilfer who could say Fuchs"
    TALLY_AFTER_FIRST_TRICK_DOES = (
        "a tally after the first trick does not say the Fuchs: the recorded first cards do"
    )
    NOBODY_CAN_HAVE_SAID_FUCHS = (
        "nobody can have said Fuchs: the Macher holds the called card himself"
    )
    CANNOT_HAVE_SAID_FUCHS_RECORD = (
        "{player} cannot have said Fuchs: the record shows {player} lacks GO"
    )
    ALONE_GAME_HAS_HILFER_CANNOT = "an alone game has no Hilfer: {player} cannot be one"
    PARTNER_CALLED_ELSEWHERE = (
        "{player} cannot hold the called {card}: the record puts it in {other}'s hand"
    )
    PARTNER_HAND_FULL = (
        "{player} cannot hold the called {card}: the record shows all six cards of {player}"
    )
    ENDED_NO_KONTRA = (
        "with no kontra the game ended after the first trick: the tally gives no {rfield}"
    )
    ENDED_NO_RE = (
        "with kontra but no re the game ended after the first trick: the tally gives no {rfield}"
    )
    NO_KONTRA_WON = "with no kontra the Macher's side won: the tally says it lost"
    NO_RE_LOST = "with kontra but no re the Macher's side lost: the tally says it won"
    GAME_WAS_PLAYED_OUT_TALLY = (
        "the game was played out: the tally says won or the Augen of the Macher's side"
    )
    AUGEN_LIE_BETWEEN = "the Augen lie between 0 and 121, not {rvalue}"
    AUGEN_LOSE = "{n} Augen lose: the tally says the Macher's side won"
    AUGEN_WIN = "{n} Augen win: the tally says the Macher's side lost"
    STILLES_SPIEL_NEEDS_MACHER_SIDE = "a Stilles Spiel needs the Macher's side to have won"
    STILLES_SPIEL_MACHER_SIDE_TAKES = (
        "in a Stilles Spiel the Macher's side takes all 121 Augen, not {n}"
    )
    MACHER_SIDE_RECORDED_TRICKS_ALREADY = (
        "the Macher's side's recorded tricks already hold {n} Augen: it cannot have lost"
    )
    OPPONENTS_RECORDED_TRICKS_ALREADY_HOLD = (
        "the opponents' recorded tricks already hold {n} Augen: the Macher's side cannot have won"
    )
    RECORDED_TRICKS_LEAVE_MACHER_SIDE = (
        "the recorded tricks leave the Macher's side between {n} and {n2} Augen, not {n3}"
    )
    OPPONENTS_WON_RECORDED_TRICK_STILLES = "the opponents won a recorded trick: no Stilles Spiel"
    SCHURLN_EVERYONE_PLAYS_FOR_HIMSELF = (
        "in schurln everyone plays for himself: the tally gives no {rfield}, only the losers"
    )
    TALLY_SCHURLN_NAMES_LOSER_OR = "a tally of schurln names the loser or losers"
    TALLY_SCHURLN_NAMES_ONE_TWO = "a tally of schurln names one, two or three different losers"
    SCHURLN_HAS_LOSERS = "only schurln has losers, not {contract}"
    TALLY_SAYS_WHETHER_DECLARER_SIDE = (
        "the tally says whether the declarer's side made its contract (won)"
    )
    WON_DURCHMARSCH_LETZTER_HAS_PARTNER = (
        "only a won durchmarsch_letzter has a partner, the winner of the last trick"
    )
    DECLARER_PARTNER_DURCHMARSCH_LETZTER_ANOTHER = (
        "{player} is the declarer: the partner in durchmarsch_letzter is another player, "
        "the winner of the last trick"
    )
    TOOK_FIVE_RECORDED_TRICKS_DURCHMARSCH = (
        "{player} took the five recorded tricks: durchmarsch_letzter cannot be lost"
    )
    HAS_PARTNER_NAME = "{contract} has no partner to name"


class Illegal(Exception):
    """Raised inside ``apply``: the event breaks a rule.

    ``code``: the rule's ``Code``; ``msg`` and ``params``: the message's template and
    its parameters; ``field``: the event's field at fault, where the rule names one (a
    ``tally``'s). ``message`` is the English sentence, rendered when it is read (the
    table view judges many cards it never words)."""

    # Slots, and no ``Exception.__init__``: the table view raises one for most moves it
    # tries (``args`` stays the positional arguments, as ``BaseException`` keeps them).
    __slots__ = ("code", "field", "msg", "params")

    def __init__(self, code: Code, msg: Msg, field: str | None = None, **params: Any) -> None:
        self.code = code
        self.msg = msg
        self.params = params
        self.field = field

    @property
    def message(self) -> str:
        return render(self.msg, self.params)

    def __str__(self) -> str:
        return self.message


def render(msg: Msg | str, params: Mapping[str, Any]) -> str:
    """The English sentence of template ``msg`` with ``params``."""
    # A ``Msg`` is its template (a ``str``): formatted as it stands.
    return str.format(msg, **params)
