"""The German catalogues are complete: every text the pages, the exports and the
pages' scripts show has its German words (a missing one shows up in English amid
German). The scripts' sentences are the ``djangojs`` catalogue's; a text that both
catalogues hold reads the same in both."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation.trans_real import DjangoTranslation

from clubs.models import Club
from games.pages.recording import record_words
from tests.games.script_texts import SCRIPTS, script_msgids, script_translation

MESSAGES = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES"


@pytest.mark.parametrize("catalogue", ["django.po", "djangojs.po"])
def test_every_entry_of_the_german_catalogue_has_a_translation(catalogue: str) -> None:
    text = (MESSAGES / catalogue).read_text(encoding="utf-8")
    entries = text.split("\n\n")[1:]  # the first is the header
    missing = [
        e for e in entries if "msgid" in e and re.search(r'^msgstr ""\s*\Z', e.strip(), re.M)
    ]
    assert not missing, missing[:5]


def test_every_text_a_script_asks_for_has_its_german_words_in_the_compiled_catalogue() -> None:
    german = script_translation("de")._catalog  # type: ignore[attr-defined]
    asked = script_msgids()
    assert len(asked) > 150  # record.js alone asks for some 160
    missing = [
        (context, msgid)
        for context, msgid in asked
        if not german.get(f"{context}\x04{msgid}" if context else msgid)
    ]
    assert missing == []


def test_every_gettext_call_in_the_scripts_names_its_text_literally() -> None:
    # makemessages finds only a literal text: gettext(variable) would stay English.
    call = re.compile(r'\b(?:gettext|pgettext)\(\s*(?!")')
    fallback = re.compile(r"window\.p?gettext \|\| function")
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in SCRIPTS
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if call.search(line) and not fallback.search(line)
    ]
    assert found == []


def test_a_text_in_both_catalogues_reads_the_same_in_both() -> None:
    scripts = script_translation("de")
    pages = DjangoTranslation("de")  # the pages' catalogue (domain django)
    differ = []
    for context, msgid in script_msgids():
        key = f"{context}\x04{msgid}" if context else msgid
        in_pages = pages._catalog.get(key)  # type: ignore[attr-defined]
        if in_pages is not None and in_pages != scripts._catalog.get(key):  # type: ignore[attr-defined]
            differ.append((msgid, in_pages, scripts._catalog.get(key)))  # type: ignore[attr-defined]
    assert differ == []


def test_the_balance_exports_header_is_german() -> None:
    with translation.override("de"):
        header = [gettext(w) for w in ("Player", "Results", "Payments", "Balance")]
    assert header == ["Spieler", "Ergebnisse", "Zahlungen", "Saldo"]


def test_the_recording_pages_words_are_german() -> None:
    german = script_translation("de")
    assert german.gettext("Undo") == "Rückgängig"
    assert german.gettext("Correct this entry") == "Diesen Eintrag korrigieren"
    with translation.override("de"):
        words = record_words(Club.CardFace.GERMAN)
    assert not words["errors"]["must_follow_suit"].startswith("Er ")
    assert words["suits"]["E"] == "Eichel"
