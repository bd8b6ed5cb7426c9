"""The texts the pages' scripts ask the JS catalogue for, read from their source as
``makemessages -d djangojs`` reads it: ``gettext("…")`` and ``pgettext("…", "…")``."""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.conf import settings
from django.utils.translation.trans_real import DjangoTranslation

STATIC_JS = Path(__file__).resolve().parents[2] / "static" / "js"
# The project's scripts (htmx is vendored and asks for nothing).
SCRIPTS = sorted(p for p in STATIC_JS.glob("*.js") if not p.name.endswith(".min.js"))

_STRING = r'"((?:[^"\\]|\\.)*)"'
_CALL = re.compile(rf"\b(p?)gettext\(\s*{_STRING}(?:\s*,\s*{_STRING})?\s*\)")


def _text(literal: str) -> str:
    return str(json.loads(f'"{literal}"'))


def script_msgids() -> list[tuple[str | None, str]]:
    """(context or None, msgid) of every text the scripts ask for, each once."""
    found: dict[tuple[str | None, str], None] = {}
    for path in SCRIPTS:
        for p, first, second in _CALL.findall(path.read_text(encoding="utf-8")):
            key = (_text(first), _text(second)) if p else (None, _text(first))
            found[key] = None
    return list(found)


def script_translation(language: str) -> DjangoTranslation:
    """The compiled ``djangojs`` catalogue of ``language``, as ``/jsi18n/`` serves it."""
    return DjangoTranslation(
        language, domain="djangojs", localedirs=[str(p) for p in settings.LOCALE_PATHS]
    )
