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
from tests.games.script_texts import (
    ANY_CALL,
    CALL,
    SCRIPTS,
    STATIC_JS,
    script_msgids,
    script_texts,
    script_translation,
)

MESSAGES = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES"


@pytest.mark.parametrize("catalogue", ["django.po", "djangojs.po"])
def test_every_entry_of_the_german_catalogue_has_a_translation(catalogue: str) -> None:
    text = (MESSAGES / catalogue).read_text(encoding="utf-8")
    entries = text.split("\n\n")[1:]  # the first is the header
    # A plural's forms too (msgstr[0], msgstr[1]): each an empty string is missing.
    empty = re.compile(r'^msgstr(?:\[\d\])? ""\n(?!")', re.M)
    missing = [e for e in entries if "msgid" in e and empty.search(e.strip() + "\n")]
    assert not missing, missing[:5]
    assert "#, fuzzy" not in text  # a guess of makemessages' is shown as if it were German


def test_every_text_a_script_asks_for_has_its_german_words_in_the_compiled_catalogue() -> None:
    german = script_translation("de")._catalog  # type: ignore[attr-defined]
    asked = script_msgids()
    assert len(asked) > 150  # record.js alone asks for some 160
    missing = [text for text in asked for key in text.catalogue_keys() if not german.get(key)]
    assert missing == []


def test_the_scripts_that_write_words_into_the_page_all_ask_the_catalogue() -> None:
    # Those that write none are not among them: deal.js and seat_order.js write numbers,
    # page.js shows the question the server worded for its element (data-confirm, with
    # the element's names in it), outbox.js the word its caller gives.
    asking = {path.name for path in SCRIPTS if script_texts(path)}
    assert {
        "record.js",
        "offline.js",
        "live.js",
        "sender.js",
        "copy_link.js",
        "share.js",
        "ranking.js",
        "replay.js",
    } <= asking


def test_every_gettext_call_in_the_scripts_names_its_text_literally() -> None:
    # makemessages finds only a literal text: gettext(variable) would stay English.
    found = []
    for path in SCRIPTS:
        source = path.read_text(encoding="utf-8")
        literal = {m.start() for m in CALL.finditer(source)}
        for call in ANY_CALL.finditer(source):
            if call.start() not in literal:
                line = source.count("\n", 0, call.start()) + 1
                found.append(f"{path.name}:{line}: {source.splitlines()[line - 1].strip()}")
    assert found == []


@pytest.mark.parametrize("script", [path.name for path in SCRIPTS if script_texts(path)])
def test_a_script_shows_its_english_words_when_the_catalogue_did_not_load(script: str) -> None:
    # Each function of the catalogue a script calls has its fallback (the text as written),
    # so that a page whose /jsi18n/ failed still works.
    source = (STATIC_JS / script).read_text(encoding="utf-8")
    for name in sorted({m.group(0)[:-1] for m in ANY_CALL.finditer(source)}):
        assert re.search(rf"var {name} = window\.{name} \|\| function", source), (script, name)


def test_a_text_in_both_catalogues_reads_the_same_in_both() -> None:
    scripts = script_translation("de")
    pages = DjangoTranslation("de")  # the pages' catalogue (domain django)
    differ = []
    for text in script_msgids():
        for key in text.catalogue_keys():
            in_pages = pages._catalog.get(key)  # type: ignore[attr-defined]
            in_scripts = scripts._catalog.get(key)  # type: ignore[attr-defined]
            if in_pages is not None and in_pages != in_scripts:
                differ.append((key, in_pages, in_scripts))
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


def test_the_outbox_banner_counts_its_entries_in_german() -> None:
    german = script_translation("de")
    waiting = (
        "No network: %(n)s entry waits on this phone and is sent as soon as it is back.",
        "No network: %(n)s entries wait on this phone and are sent as soon as it is back.",
    )
    assert german.ngettext(*waiting, 1) % {"n": 1} == (
        "Kein Netz: 1 Eintrag wartet auf diesem Handy und wird gesendet, sobald es wieder da ist."
    )
    assert german.ngettext(*waiting, 3) % {"n": 3} == (
        "Kein Netz: 3 Einträge warten auf diesem Handy und werden gesendet, "
        "sobald es wieder da ist."
    )
    assert german.gettext("Refused") == "Abgelehnt"


def test_the_replays_steps_are_named_in_german_and_its_end_is_not_the_raise() -> None:
    german = script_translation("de")
    assert german.pgettext("replay step", "Trick %(n)s") % {"n": 3} == "Stich 3"
    assert german.pgettext("replay step", "End") == "Ende"  # the raise "End" stays "End"
