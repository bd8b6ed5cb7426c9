"""Fuchsen records decided, waiting or refused: the partner game played out, the
partner named by a raise, no kontra after the first trick, a forgotten Fuchs, broken
rules named by their codes (moved here from the express path's tests)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.replay import replay
from tests.engine.records import END, FIVE, call, deal, play, plays, raise_, record


def _game(*events: Any, **rules: Any) -> dict[str, Any]:
    # emil deals, anna leads.
    return record("fuchsen", deal(FIVE, "emil"), *events, rules=rules or None)


def test_a_played_out_partner_game_is_settled() -> None:
    # carl (EO) calls SA, which dora holds; the game is played out at re.
    game = _game(
        call("carl", "SA"),
        play("anna", "EU"),
        raise_("anna", "kontra"),
        *plays("bert:GU carl:EO"),
        raise_("carl", "re"),
        *plays("dora:RU emil:GO"),
        *plays("carl:RA dora:R10 emil:RK anna:RO bert:SU"),
        *plays("bert:SO carl:SK dora:SA emil:S9 anna:S10"),
        *plays("dora:EA emil:E9 anna:E10 bert:EK carl:E8"),
        *plays("dora:GA emil:G9 anna:G10 bert:GK carl:G8"),
        *plays("dora:R8 emil:R7 anna:E7 bert:R9 carl:S8"),
    )
    result = replay(game).to_dict()
    assert (result["reason"], result["level"], result["won"]) == ("played_out", "re", True)
    assert result["declarers"] == ["carl", "dora"]
    assert result["augen"] == {"declarers": 91, "opponents": 30}


def test_a_record_that_waits_for_the_partner_is_answered_with_what_it_awaits() -> None:
    game = _game(call("carl", "SA"), *plays("anna:EU bert:GU carl:EO dora:RU emil:GO"), END)
    result = replay(game).to_dict()
    assert (result["status"], result.get("reason")) == ("in_progress", None)
    assert result["awaiting"] == "partner"


def test_a_raise_of_the_macher_side_names_the_only_possible_partner() -> None:
    game = _game(
        call("carl", "SA"),
        play("anna", "EU"),
        raise_("anna", "kontra"),
        play("bert", "GU"),
        raise_("bert", "re"),
        *plays("carl:EO dora:RU emil:GO"),
    )
    result = replay(game).to_dict()
    assert result["declarers"] == ["carl", "bert"]
    assert result["awaiting"] == "raise_or_end"


def test_no_kontra_ends_the_game_after_the_first_trick() -> None:
    game = _game(call("carl", "SA"), *plays("anna:S10 bert:S9 carl:SK dora:SA emil:SO"), END)
    result = replay(game).to_dict()
    assert (result["reason"], result["won"], result["declarers"]) == (
        "no_kontra",
        True,
        ["carl", "dora"],
    )


@pytest.mark.parametrize(
    ("events", "code"),
    [
        # EU is a trump: no card to call.
        ([call("carl", "EU"), *plays("anna:SA bert:S10")], "invalid_call"),
        # dora plays EA on a Schellen lead, though the record shows her S8: Farbzwang.
        (
            [call("carl", "GA"), *plays("anna:S10 bert:S9 carl:SK dora:EA emil:SO dora:S8")],
            "must_follow_suit",
        ),
        # bert says kontra before his own first card.
        ([call("carl", "SA"), play("anna", "EU"), raise_("bert", "kontra")], "invalid_raise"),
        # anna plays twice in the first trick.
        ([call("carl", "SA"), *plays("anna:EU anna:GU")], "not_your_turn"),
    ],
)
def test_a_broken_rule_is_named_by_its_code(events: list[Any], code: str) -> None:
    game = _game(*events)
    assert replay(game).to_dict()["error"]["code"] == code


def test_a_forgotten_fuchs_is_refused() -> None:
    # dora plays GO without saying Fuchs, then SA, the called card: she is the Hilfer.
    game = _game(
        call("carl", "SA"),
        play("anna", "EU"),
        raise_("anna", "kontra"),
        *plays("bert:GU carl:EO"),
        raise_("carl", "re"),
        *plays("dora:GO emil:SU"),
        END,
        *plays("carl:SK dora:SA"),
    )
    result = replay(game).to_dict()
    assert result["reason"] == "fuchs_forgotten"
