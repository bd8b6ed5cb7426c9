"""The engine's error sentence in the reader's language, with players' names.

The engine (pure Python, English) explains an illegal event in one sentence, e.g.
``"3 must follow suit: 3 holds GK and Eichel was led"``, naming players as they
appear in the record (ids like ``"3"`` in our games). ``explain`` recognises the
sentence by its template, the engine's f-string written as a gettext msgid with
named placeholders, and fills that template's translation: in German a sentence a
card player understands, with names for ids and card names for codes; in English
the engine's own sentence with names.

A sentence no template matches (a future engine message) falls back to the
heading of its code (``pages.error_titles``) followed by the engine's sentence.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, gettext, gettext_noop, pgettext

__all__ = ["TEMPLATES", "explain", "template_for"]

_CARD = r"[EGRS](?:10|[AKOU987])"

# What each placeholder may match, by its name without a trailing digit. The
# players' names (``p``, ``q``) and repr values (``r…``) are any text.
_PATTERNS: dict[str, str] = {
    "card": _CARD,
    "example": rf"(?:{_CARD}|the blank)",
    "cards": rf"{_CARD}(?: {_CARD})*",
    "level": r"[a-z]+",
    "contract": r"[a-z_]+",
    "suit": r"Eichel|Grün|Rot|Schellen",
    "type": r"[a-z_]+",
    "n": r"\d+",
    "rule": r"\S+",
}

# The engine's sentences as msgids (``%(p)s`` a player, ``%(card)s`` a card code,
# ``%(r…)s`` a Python repr, …): ``gettext_noop`` puts them in the catalogue.
_MSGIDS: tuple[str, ...] = (
    # --- the record and its house rules (engine/replay.py, engine/rules.py)
    gettext_noop("a record must be an object"),
    gettext_noop("%(rgame)s is not a game of this engine"),
    gettext_noop("the record's events must be a list"),
    gettext_noop("house rule %(rule)s must be an integer, not %(rvalue)s"),
    gettext_noop("house rule %(rule)s must lie between -%(n)s and %(n)s, not %(rvalue)s"),
    gettext_noop("house rule %(rule)s must be true or false, not %(rvalue)s"),
    gettext_noop("house rule %(rule)s must be one of %(rchoices)s, not %(rvalue)s"),
    gettext_noop("house rule %(rule)s must be an object, not %(rvalue)s"),
    gettext_noop(
        "house rule %(rule)s has an unknown entry %(rentry)s: expected some of %(rchoices)s"
    ),
    gettext_noop(
        "house rule %(rule)s must list two distinct zero-Augen plain cards (%(cards)s), "
        "not %(rvalue)s"
    ),
    gettext_noop("house rules must be an object of settings, not %(rvalue)s"),
    gettext_noop("unknown house rule %(rentry)s for %(rgame)s: expected some of %(rchoices)s"),
    gettext_noop("undo: no event is left to remove"),
    gettext_noop("the game has already been dealt"),
    gettext_noop("the game is already decided: no %(type)s now"),
    gettext_noop("a %(type)s event before the deal"),
    # --- the shape of an event (engine/core.py)
    gettext_noop("an event must be an object, not %(rvalue)s"),
    gettext_noop("%(rtype)s is not an event type of %(rgame)s"),
    gettext_noop("a %(type)s event has no field %(rfield)s"),
    gettext_noop("the field %(rfield)s of a %(type)s event is malformed"),
    gettext_noop("a %(type)s event needs the field %(rfield)s"),
    gettext_noop("a call names a card unless it is alone: true"),
    gettext_noop("%(rcard)s in %(p)s's hand is not a card of this deck"),
    gettext_noop("%(rcard)s is not a card of this deck"),
    gettext_noop("%(rcard)s is not a card"),
    gettext_noop("%(p)s sits out this game"),
    gettext_noop("%(rp)s is not playing in this game"),
    # --- the deal
    gettext_noop("hands must map players to their six cards"),
    gettext_noop("the hand of %(p)s must be a list of cards"),
    gettext_noop("%(rp)s is dealt a hand but does not play"),
    gettext_noop("%(p)s must be dealt six different cards"),
    gettext_noop("a card is dealt to two players"),
    gettext_noop("Fuchsen is dealt to 4, 5 or 6 seated players"),
    gettext_noop("Gradener Königrufen is dealt to exactly four players"),
    gettext_noop("every player needs a non-empty name"),
    gettext_noop("a player is seated twice"),
    gettext_noop("the dealer %(rp)s is not seated"),
    gettext_noop("with six seated and sit_out named, the deal names a seated player who sits out"),
    gettext_noop("with sit_out dealer the dealer sits out"),
    gettext_noop("only with six seated does a player sit out"),
    gettext_noop("the deal removes exactly two cards"),
    gettext_noop("the removed cards are two different zero-Augen plain cards (%(cards)s)"),
    gettext_noop("cards are removed only with five active players"),
    # --- where a card is
    gettext_noop("%(card)s was already played: %(p)s cannot have it"),
    gettext_noop("%(card)s was already shown: %(p)s cannot have it"),
    gettext_noop("%(p)s cannot hold %(card)s: the record puts it in %(q)s's hand"),
    gettext_noop("%(p)s cannot hold %(card)s: the record already shows all six cards of %(p)s"),
    # --- whose turn (engine/tricks.py, engine/koenigrufen.py)
    gettext_noop("it is nobody's turn to play, not %(p)s's"),
    gettext_noop("it is %(p)s's turn to play, not %(q)s's"),
    gettext_noop("it is %(p)s's turn to speak, not %(q)s's"),
    # --- the obligations of a trick
    gettext_noop("%(p)s must follow suit: %(p)s holds %(example)s and Trumps were led"),
    gettext_noop("%(p)s must follow suit: %(p)s holds %(example)s and %(suit)s was led"),
    gettext_noop(
        "%(p)s must beat the trick: %(p)s holds %(card)s, which beats it, and played %(card2)s"
    ),
    gettext_noop("%(p)s must trump: %(p)s holds %(card)s and no %(suit)s card"),
    gettext_noop(
        "%(p)s must over-trump: %(p)s holds %(card)s, which beats the trick, and played %(card2)s"
    ),
    # --- Fuchsen: the call
    gettext_noop("the Macher has already called"),
    gettext_noop("no card is played before the Macher has called"),
    gettext_noop("a forfeit comes after the call"),
    gettext_noop("%(p)s plays alone and so calls no card"),
    gettext_noop("%(p)s is not the Macher: %(q)s holds EO"),
    gettext_noop("%(p)s is not the Macher: the six cards the record shows for %(p)s lack EO"),
    gettext_noop("%(p)s may not turn EO, the Macher card stays up"),
    gettext_noop("%(p)s may turn a trump (%(card)s) only with six trumps"),
    gettext_noop(
        "%(p)s may not turn %(card)s: only a plain 7 or 8 and not under this club's rules"
    ),
    gettext_noop("%(p)s may not turn %(card)s: only a plain 7 or 8"),
    gettext_noop("%(p)s may play alone only with six trumps"),
    gettext_noop("%(p)s may not call %(card)s: it is a trump"),
    gettext_noop("%(p)s may not call the card %(p)s turned"),
    gettext_noop("%(p)s may not call %(card)s: %(p)s holds it"),
    gettext_noop(
        "%(p)s may not call %(card)s: the called card must be of a suit in which %(p)s "
        "holds a plain card"
    ),
    gettext_noop("nobody can hold %(card)s: every other hand is known without it"),
    # --- Fuchsen: Fahren and Fuchs
    gettext_noop("nobody can raise before the call"),
    gettext_noop("%(rlevel)s is not a level of Fahren"),
    gettext_noop("%(p)s cannot say %(level)s: the raising is over"),
    gettext_noop("%(p)s cannot say %(level)s: the next level is nothing more"),
    gettext_noop("%(p)s cannot say %(level)s: the next level is %(level2)s"),
    gettext_noop("%(p)s cannot say %(level)s: only the Macher's side may"),
    gettext_noop("%(p)s cannot say %(level)s: only the opponents may"),
    gettext_noop("%(p)s cannot say %(level)s before playing a card"),
    gettext_noop("%(p)s cannot say %(level)s: the chance lapsed when the next card was played"),
    gettext_noop("the raising ends only once, when the first trick has been collected"),
    gettext_noop("%(p)s is not the Hilfer: only the Hilfer says Fuchs"),
    gettext_noop("%(p)s may say Fuchs only with the first card played"),
    gettext_noop("%(p)s cannot say Fuchs: the record shows %(p)s lacks GO"),
    gettext_noop("%(p)s's %(card)s is not the Macher's turned card"),
    gettext_noop("%(p)s turned %(card)s: it must be played face down (turned: true)"),
    # --- Königrufen: the auction
    gettext_noop("the auction is over: no %(type)s now"),
    gettext_noop("no card is played before the auction is over"),
    gettext_noop("a forfeit comes after the auction"),
    gettext_noop(
        "%(p)s cannot join: only a bettler or plauderer nobody has joined yet can be joined"
    ),
    gettext_noop("%(rcontract)s is not a contract one can bid"),
    gettext_noop("%(p)s must bid higher than %(contract)s, not %(contract2)s"),
    gettext_noop("%(contract)s names a called card"),
    gettext_noop("%(contract)s calls no card"),
    gettext_noop("%(contract)s lays no card face down"),
    gettext_noop("%(p)s cannot bid %(contract)s: the record shows %(p)s lacks K and O of one suit"),
    gettext_noop(
        "%(p)s laid %(card)s face down and must play it in the first trick, not %(card2)s"
    ),
    # --- the tally (engine/fuchsen.py, engine/koenigrufen.py)
    gettext_noop("a tally comes after the call"),
    gettext_noop("a tally comes after the auction"),
    gettext_noop("a tally comes between tricks, not with cards of a trick down"),
    gettext_noop("a tally does not end the raising: the raising must end first"),
    gettext_noop("a tally after the first trick gives no level: the recorded raises say it"),
    gettext_noop("an alone game has no Hilfer who could say Fuchs"),
    gettext_noop(
        "a tally after the first trick does not say the Fuchs: the recorded first cards do"
    ),
    gettext_noop("nobody can have said Fuchs: the Macher holds the called card himself"),
    gettext_noop("%(p)s cannot have said Fuchs: the record shows %(p)s lacks GO"),
    gettext_noop("an alone game has no Hilfer: %(p)s cannot be one"),
    gettext_noop("%(p)s cannot hold the called %(card)s: the record puts it in %(q)s's hand"),
    gettext_noop("%(p)s cannot hold the called %(card)s: the record shows all six cards of %(p)s"),
    gettext_noop(
        "with no kontra the game ended after the first trick: the tally gives no %(rfield)s"
    ),
    gettext_noop(
        "with kontra but no re the game ended after the first trick: the tally gives no %(rfield)s"
    ),
    gettext_noop("with no kontra the Macher's side won: the tally says it lost"),
    gettext_noop("with kontra but no re the Macher's side lost: the tally says it won"),
    gettext_noop("the game was played out: the tally says won or the Augen of the Macher's side"),
    gettext_noop("the Augen lie between 0 and 121, not %(rvalue)s"),
    gettext_noop("%(n)s Augen lose: the tally says the Macher's side won"),
    gettext_noop("%(n)s Augen win: the tally says the Macher's side lost"),
    gettext_noop("a Stilles Spiel needs the Macher's side to have won"),
    gettext_noop("in a Stilles Spiel the Macher's side takes all 121 Augen, not %(n)s"),
    gettext_noop(
        "the Macher's side's recorded tricks already hold %(n)s Augen: it cannot have lost"
    ),
    gettext_noop(
        "the opponents' recorded tricks already hold %(n)s Augen: the Macher's side cannot have won"
    ),
    gettext_noop(
        "the recorded tricks leave the Macher's side between %(n)s and %(n2)s Augen, not %(n3)s"
    ),
    gettext_noop("the opponents won a recorded trick: no Stilles Spiel"),
    gettext_noop(
        "in schurln everyone plays for himself: the tally gives no %(rfield)s, only the losers"
    ),
    gettext_noop("a tally of schurln names the loser or losers"),
    gettext_noop("a tally of schurln names one, two or three different losers"),
    gettext_noop("only schurln has losers, not %(contract)s"),
    gettext_noop("the tally says whether the declarer's side made its contract (won)"),
    gettext_noop("only a won durchmarsch_letzter has a partner, the winner of the last trick"),
    gettext_noop(
        "%(p)s is the declarer: the partner in durchmarsch_letzter is another player, "
        "the winner of the last trick"
    ),
    gettext_noop("%(p)s took the five recorded tricks: durchmarsch_letzter cannot be lost"),
    gettext_noop("%(contract)s has no partner to name"),
    # --- the service's own stand-in for an error without details (games/services.py)
    gettext_noop("The engine rejected the record."),
    # --- the service's cap on a game's events (games/errors.py)
    gettext_noop("a game holds at most %(n)s events"),
)

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@dataclass(frozen=True)
class Template:
    """One engine sentence: its msgid and the regex its sentences match."""

    msgid: str
    regex: re.Pattern[str]


def _kind(name: str) -> str:
    return name.rstrip("0123456789")


def _compile(msgid: str) -> Template:
    parts: list[str] = []
    seen: set[str] = set()
    pos = 0
    for m in _PLACEHOLDER.finditer(msgid):
        parts.append(re.escape(msgid[pos : m.start()]))
        name = m.group(1)
        if name in seen:
            parts.append(f"(?P={name})")
        else:
            seen.add(name)
            parts.append(f"(?P<{name}>{_PATTERNS.get(_kind(name), '.+?')})")
        pos = m.end()
    parts.append(re.escape(msgid[pos:]))
    return Template(msgid, re.compile("".join(parts), re.DOTALL))


def _literal_length(msgid: str) -> int:
    return len(_PLACEHOLDER.sub("", msgid))


# The more literal text a template has, the more specific it is: tried first
# ("'X' in 3's hand is not a card of this deck" before "'X' is not a card of this deck").
TEMPLATES: tuple[Template, ...] = tuple(
    _compile(msgid) for msgid in sorted(_MSGIDS, key=_literal_length, reverse=True)
)


def template_for(message: str) -> tuple[Template, dict[str, str]] | None:
    """The template the engine's ``message`` was written from, with its values, or None."""
    for template in TEMPLATES:
        m = template.regex.fullmatch(message)
        if m is not None:
            return template, m.groupdict()
    return None


# --- values ---------------------------------------------------------------------------------


def _german() -> bool:
    return (get_language() or "").split("-")[0] == "de"


def _unrepr(text: str) -> object:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text


_SUIT_LETTER = {"Eichel": "E", "Grün": "G", "Rot": "R", "Schellen": "S"}


class _Words:
    """Renders the placeholders' values in the active language."""

    def __init__(self, names: Mapping[str, str], face: str | None) -> None:
        self.names = names
        self.face = face
        self.german = _german()

    def player(self, value: str) -> str:
        return self.names.get(value, value)

    def repr_player(self, value: str) -> str:
        raw = _unrepr(value)
        if isinstance(raw, str) and raw in self.names:
            return self.names[raw] if self.german else repr(self.names[raw])
        return value

    def card(self, code: str) -> str:
        if not self.german:
            return code
        from games.vocabulary import card_view

        return str(card_view(code, self._face(), "")["name"])

    def repr_card(self, value: str) -> str:
        raw = _unrepr(value)
        if self.german and isinstance(raw, str) and re.fullmatch(_CARD, raw):
            return self.card(raw)
        return value

    def example(self, value: str) -> str:
        if value == "the blank":
            return pgettext("engine error", "the turned card") if self.german else value
        return self.card(value)

    def cards(self, value: str) -> str:
        if not self.german:
            return value
        return ", ".join(self.card(code) for code in value.split())

    def level(self, value: str) -> str:
        if not self.german:
            return value
        from games.vocabulary import level_names

        return level_names().get(value, value)

    def contract(self, value: str) -> str:
        if not self.german:
            return value
        from games.vocabulary import contract_names

        return contract_names().get(value, value)

    def suit(self, value: str) -> str:
        if not self.german:
            return value
        from games.vocabulary import suit_names

        return suit_names(self._face()).get(_SUIT_LETTER.get(value, ""), value)

    def type(self, value: str) -> str:
        if not self.german:
            return value
        return _event_types().get(value, value)

    def _face(self) -> str:
        from clubs.models import Club

        return self.face or Club.CardFace.GERMAN

    def render(self, name: str, value: str) -> str:
        kind = _kind(name)
        render: Callable[[str], str] | None = {
            "p": self.player,
            "q": self.player,
            "rp": self.repr_player,
            "card": self.card,
            "rcard": self.repr_card,
            "example": self.example,
            "cards": self.cards,
            "level": self.level,
            "contract": self.contract,
            "suit": self.suit,
            "type": self.type,
        }.get(kind)
        return render(value) if render is not None else value


def _event_types() -> dict[str, str]:
    """An event type as German players name the move (in the sentence's quotes)."""
    return {
        "deal": pgettext("event type", "deal"),
        "play": pgettext("event type", "play a card"),
        "call": pgettext("event type", "call"),
        "raise": pgettext("event type", "raise"),
        "end_raising": pgettext("event type", "end the raising"),
        "bid": pgettext("event type", "bid"),
        "pass": pgettext("event type", "pass"),
        "join": pgettext("event type", "join"),
        "show": pgettext("event type", "show cards"),
        "forfeit": pgettext("event type", "forfeit"),
        "tally": pgettext("event type", "enter the result"),
        "annul": pgettext("event type", "annul"),
        "undo": pgettext("event type", "undo"),
    }


def _with_names(message: str, names: Mapping[str, str]) -> str:
    """Every whole word of ``message`` that is a player's id, replaced by the name."""
    if not names:
        return message
    return re.sub(
        r"[^\s:,'()]+",
        lambda m: names.get(m.group(0), m.group(0)),
        message,
    )


def explain(
    error: Mapping[str, Any],
    names: Mapping[str, str] | None = None,
    *,
    face: str | None = None,
) -> str:
    """The engine error's sentence in the active language, players named.

    ``error``: the engine's ``{"index", "code", "message"}``; ``names``:
    ``{str(pk): display_name}`` (or any record name to the name to show);
    ``face``: the club's card face (``Club.CardFace``), German cards by default.
    Never raises for an unknown message: it falls back to the code's heading
    followed by the engine's sentence.
    """
    names = {str(k): str(v) for k, v in (names or {}).items()}
    message = str(error.get("message") or "")
    found = template_for(message)
    if found is not None:
        template, values = found
        words = _Words(names, face)
        try:
            return gettext(template.msgid) % {k: words.render(k, v) for k, v in values.items()}
        except (KeyError, ValueError, TypeError):  # a broken translation: the fallback below
            pass
    sentence = _with_names(message, names)
    if not _german():
        return sentence
    from games.vocabulary import error_titles

    code = str(error.get("code") or "")
    title = error_titles().get(code) or gettext("Not accepted")
    return f"{title}: {sentence}" if sentence else title
