"""A forgotten Fuchs proven before a late tally decides the game as ``fuchs_forgotten``
(event-stream.md, "Fuchsen, the result", case 1: whether the proof comes before, by or
after the tally). The issue's example: anna played GO in trick 1 without "Fuchs", her
``re`` (a raise of the Macher's side) shows she is the Hilfer, then a late tally."""

from __future__ import annotations

from typing import Any

from engine import replay

SEATS = ["bert", "fritz", "anna", "gerd", "lena", "kurt"]
RULES = {"sit_out": "named", "strict_raise_windows": False}


def _record(*tail: dict[str, Any]) -> dict[str, Any]:
    def play(who: str, card: str) -> dict[str, Any]:
        return {"type": "play", "player": who, "card": card}

    events = [
        {"type": "deal", "dealer": "bert", "players": SEATS, "sitting_out": "kurt"},
        {"type": "call", "player": "gerd", "card": "S9"},
        play("fritz", "R9"),
        play("anna", "GO"),
        {"type": "raise", "player": "fritz", "level": "kontra"},
        play("gerd", "EO"),
        {"type": "raise", "player": "anna", "level": "re"},
        play("lena", "GU"),
        play("bert", "SU"),
        {"type": "end_raising"},
        *tail,
    ]
    return {"game": "fuchsen", "rules": RULES, "events": events}


def test_a_hilfer_shown_by_his_raise_who_forgot_the_fuchs_loses_at_a_late_tally() -> None:
    result = replay(_record({"type": "tally", "won": True, "augen": 77}))
    assert result.status == "finished", result.to_dict(detail=True)
    assert result.reason == "fuchs_forgotten"
    assert result.won is False
    assert result.value == 30  # fuchs_penalty 10 + V(re) 20
    assert result.declarers == ("gerd", "anna")
    assert result.augen == (77, 44)  # the tally's Augen are still reported


def test_without_the_proof_the_result_waits_and_a_show_after_the_tally_proves_it() -> None:
    # gerd, the Macher, says re himself: the record no longer shows who the Hilfer is.
    record = _record({"type": "tally", "won": True, "augen": 77})
    record["events"][6] = {"type": "raise", "player": "gerd", "level": "re"}
    waiting = replay(record)
    assert (waiting.status, waiting.awaiting) == ("in_progress", "partner")
    record["events"].append({"type": "show", "player": "anna", "cards": ["S9"]})
    assert replay(record).reason == "fuchs_forgotten"
