"""The apps speak to the database through the ORM: at most three hand-written
statements, all in one module, and none past Django's cursor."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("clubs", "games", "ledger", "live", "web", "stichbuch")
RAW = re.compile(r"\.cursor\(|\.raw\(|RawSQL\(|\.extra\(|import psycopg")


def raw_sql_places() -> dict[str, int]:
    found: dict[str, int] = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            hits = len(RAW.findall(path.read_text(encoding="utf-8")))
            if hits:
                found[str(path.relative_to(ROOT))] = hits
    return found


def test_the_pattern_finds_a_cursor() -> None:
    assert RAW.search("with connection.cursor() as cursor:")


def test_at_most_three_hand_written_statements_in_one_module() -> None:
    places = raw_sql_places()
    assert len(places) <= 1, places
    assert sum(places.values()) <= 3, places
