"""The German catalogue is complete: every text the pages and exports show has its
German words (a missing one shows up in English amid German)."""

from __future__ import annotations

import re
from pathlib import Path

from django.utils import translation
from django.utils.translation import gettext

PO = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES" / "django.po"


def test_every_entry_of_the_german_catalogue_has_a_translation() -> None:
    text = PO.read_text(encoding="utf-8")
    entries = text.split("\n\n")[1:]  # the first is the header
    missing = [
        e for e in entries if "msgid" in e and re.search(r'^msgstr ""\s*\Z', e.strip(), re.M)
    ]
    assert not missing, missing[:5]


def test_the_balance_exports_header_is_german() -> None:
    with translation.override("de"):
        header = [gettext(w) for w in ("Player", "Results", "Payments", "Balance")]
    assert header == ["Spieler", "Ergebnisse", "Zahlungen", "Saldo"]


def test_the_recording_pages_words_are_german() -> None:
    from games.pages import record_strings

    with translation.override("de"):
        strings = record_strings()
    assert strings["undo"] == "Rückgängig"
    assert strings["fix_do"] == "Diesen Eintrag korrigieren"
    assert not strings["errors"]["must_follow_suit"].startswith("Er ")
