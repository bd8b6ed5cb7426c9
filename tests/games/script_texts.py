"""The texts the pages' scripts ask the JS catalogue for, read from their source as
``makemessages -d djangojs`` reads it: ``gettext("…")``, ``pgettext("…", "…")`` and
``ngettext("…", "…", n)``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import NamedTuple

from django.conf import settings
from django.utils.translation.trans_real import DjangoTranslation

STATIC_JS = Path(__file__).resolve().parents[2] / "static" / "js"
# The project's scripts (htmx is vendored and asks for nothing).
SCRIPTS = sorted(p for p in STATIC_JS.glob("*.js") if not p.name.endswith(".min.js"))

_STRING = r'"((?:[^"\\]|\\.)*)"'
# A call whose texts are all literals (what makemessages can collect), over line breaks.
CALL = re.compile(
    rf"\b(?:(p)gettext\(\s*{_STRING}\s*,\s*{_STRING}\s*\)"
    rf"|gettext\(\s*{_STRING}\s*\)"
    rf"|ngettext\(\s*{_STRING}\s*,\s*{_STRING}\s*,)"
)
# Every call of the catalogue's functions, literal or not.
ANY_CALL = re.compile(r"\b(n|p)?gettext\(")


class ScriptText(NamedTuple):
    """A text a script asks for: its context (pgettext), its msgid and, for ngettext,
    its plural."""

    context: str | None
    msgid: str
    plural: str | None = None

    def catalogue_keys(self) -> list[str | tuple[str, int]]:
        """Its keys in a compiled catalogue: one per plural form (German has two)."""
        if self.plural is not None:
            return [(self.msgid, 0), (self.msgid, 1)]
        return [f"{self.context}\x04{self.msgid}" if self.context else self.msgid]


def _text(literal: str) -> str:
    return str(json.loads(f'"{literal}"'))


def script_texts(path: Path) -> list[ScriptText]:
    """The texts one script asks for, in the order it asks, each once."""
    found: dict[ScriptText, None] = {}
    for p, context, text, single, singular, plural in CALL.findall(
        path.read_text(encoding="utf-8")
    ):
        if p:
            found[ScriptText(_text(context), _text(text))] = None
        elif singular:
            found[ScriptText(None, _text(singular), _text(plural))] = None
        else:
            found[ScriptText(None, _text(single))] = None
    return list(found)


def script_msgids() -> list[ScriptText]:
    """Every text the scripts ask for, each once."""
    found: dict[ScriptText, None] = {}
    for path in SCRIPTS:
        found.update(dict.fromkeys(script_texts(path)))
    return list(found)


def script_translation(language: str) -> DjangoTranslation:
    """The compiled ``djangojs`` catalogue of ``language``, as ``/jsi18n/`` serves it."""
    return DjangoTranslation(
        language, domain="djangojs", localedirs=[str(p) for p in settings.LOCALE_PATHS]
    )
