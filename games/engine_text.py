"""The engine's error sentence in the reader's language, with players' names.

An engine error carries its message's template (``engine.errors.Msg``, a ``str.format``
string written once in the engine) and the template's parameters (player ids, card
codes, levels, …): ``error.to_dict(detail=True)`` gives them as ``template`` and
``params``. ``explain`` renders ``gettext(template).format(**params)`` with each value
worded for the reader: in German names for ids and card names for codes, in English
the engine's own sentence with names. No sentence is parsed.

An error without a template (one stored before errors carried it, or a stand-in of
the services) reads as the translation of its message if there is one, else as the
heading of its code (``pages.error_titles``) followed by the engine's sentence.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import get_language, gettext, gettext_noop, pgettext

from engine.cards import INDEX
from engine.errors import Msg
from games.errors import TOO_MANY_EVENTS
from games.vocabulary import card_view, contract_names, error_titles, level_names, suit_names

__all__ = ["TEMPLATES", "explain"]

# Every template an error may carry: the engine's and the services' own (the last a
# fixed sentence, ``games.services._error_dict``).
TEMPLATES: tuple[str, ...] = (
    *(msg.value for msg in Msg),
    TOO_MANY_EVENTS,
    gettext_noop("The engine rejected the record."),
)

# ``{name}`` or ``{name!r}``: a translation may drop the conversion, as the values it
# gets are already worded.
_CONVERSION = re.compile(r"\{(\w+)![rsa]\}")


@functools.lru_cache(maxsize=1024)
def _conversions(template: str) -> dict[str, str | None]:
    """Each parameter of ``template`` with its conversion (``"r"`` or None); cached, as
    the templates are the engine's few (the caller must not change the answer)."""
    out: dict[str, str | None] = {}
    for _, name, _, conversion in string.Formatter().parse(template):
        if name:
            out.setdefault(name, conversion)
    return out


def _german() -> bool:
    return (get_language() or "").split("-")[0] == "de"


class _Words:
    """Words the parameters' values in the active language."""

    def __init__(self, names: Mapping[str, str], face: str | None) -> None:
        self.names = names
        self.face = face
        self.german = _german()

    def player(self, value: object, default: str) -> str:
        return self.names.get(value, default) if isinstance(value, str) else default

    def raw_player(self, value: object, default: str) -> str:
        if isinstance(value, str) and value in self.names:
            return self.names[value] if self.german else repr(self.names[value])
        return default

    def card(self, value: object, default: str) -> str:
        if not self.german or not isinstance(value, str) or value not in INDEX:
            return default
        return _card_name(get_language(), self._face(), value)

    def example(self, value: object, default: str) -> str:
        if value == "the blank":
            return pgettext("engine error", "the turned card") if self.german else default
        return self.card(value, default)

    def cards(self, value: object, default: str) -> str:
        if not self.german or not isinstance(value, str):
            return default
        return ", ".join(self.card(code, code) for code in value.split())

    def level(self, value: object, default: str) -> str:
        if not self.german:
            return default
        return level_names().get(value, default) if isinstance(value, str) else default

    def contract(self, value: object, default: str) -> str:
        if not self.german:
            return default
        return contract_names().get(value, default) if isinstance(value, str) else default

    _SUIT_LETTER = {"Eichel": "E", "Grün": "G", "Rot": "R", "Schellen": "S"}

    def suit(self, value: object, default: str) -> str:
        if not self.german or not isinstance(value, str):
            return default
        return suit_names(self._face()).get(self._SUIT_LETTER.get(value, ""), default)

    def type(self, value: object, default: str) -> str:
        if not self.german or not isinstance(value, str):
            return default
        return _event_types().get(value, default)

    def _face(self) -> str:
        from clubs.models import Club

        return self.face or Club.CardFace.GERMAN

    def word(self, name: str, value: object, conversion: str | None) -> str:
        """``value`` of parameter ``name`` as the sentence shows it: the English
        rendering (``repr`` where the template says ``!r``), worded for the reader."""
        default = repr(value) if conversion == "r" else str(value)
        method = _RENDERERS.get(name)
        render: Callable[[object, str], str] | None = (
            getattr(self, method) if method is not None else None
        )
        if render is None:
            return default
        if name == "rcard" and not self.german:
            return default  # a raw value stays as the record wrote it
        return render(value, default)


# Which ``_Words`` method words a parameter, by the parameter's name in the templates.
_RENDERERS: dict[str, str] = {
    "player": "player",
    "other": "player",
    "rplayer": "raw_player",
    "card": "card",
    "card2": "card",
    "rcard": "card",
    "example": "example",
    "cards": "cards",
    "level": "level",
    "level2": "level",
    "contract": "contract",
    "contract2": "contract",
    "suit": "suit",
    "type": "type",
}


# A language's catalogue does not change while the process runs: the card names and
# the templates' translations are worded once per language (an append's answer words
# every refused card's reason, some 25 sentences, on every card played).
@functools.lru_cache(maxsize=1024)
def _card_name(language: str | None, face: str, code: str) -> str:
    """``card_view``'s name of ``code`` in ``language`` (the active one, the cache's key)."""
    return str(card_view(code, face, "")["name"])


@functools.lru_cache(maxsize=1024)
def _translation(language: str | None, template: str) -> str:
    """``gettext(template)`` in ``language`` (the active one), conversions dropped."""
    return _CONVERSION.sub(r"{\1}", gettext(template))


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


def render(template: str, params: Mapping[str, Any], words: _Words) -> str:
    """``gettext(template)`` filled with ``params`` worded by ``words``; raises
    ``KeyError``/``ValueError``/``IndexError`` for a translation that does not fit."""
    conversions = _conversions(template)
    values = {k: words.word(k, v, conversions.get(k)) for k, v in params.items()}
    return _translation(get_language(), template).format(**values)


def explain(
    error: Mapping[str, Any],
    names: Mapping[str, str] | None = None,
    *,
    face: str | None = None,
) -> str:
    """The engine error's sentence in the active language, players named.

    ``error``: the engine's ``{"index", "code", "message", "template", "params"}``
    (``template`` and ``params`` may be absent); ``names``: ``{str(pk): display_name}``
    (or any record name to the name to show); ``face``: the club's card face
    (``Club.CardFace``), German cards by default. Never raises: an error without a
    template, or whose translation does not fit, falls back to the code's heading
    followed by the engine's sentence.
    """
    names = {str(k): str(v) for k, v in (names or {}).items()}
    template = error.get("template")
    params = error.get("params")
    if isinstance(template, str) and isinstance(params, Mapping):
        try:
            return render(template, params, _Words(names, face))
        except (KeyError, IndexError, ValueError, TypeError):  # a broken translation
            pass
    message = str(error.get("message") or "")
    if message and gettext(message) != message:
        return gettext(message)  # a fixed sentence of the services, translated
    sentence = _with_names(message, names)
    if not _german():
        return sentence
    code = str(error.get("code") or "")
    title = error_titles().get(code) or gettext("Not accepted")
    return f"{title}: {sentence}" if sentence else title
