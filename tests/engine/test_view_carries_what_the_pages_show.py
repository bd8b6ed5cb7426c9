"""The table view carries what the pages would otherwise compute themselves: the game's
value at each level under its house rules, the Augen of each trick, the called card,
whether the Fuchs was said, alone or not, who plays next and which trick each event
belongs to (issue 42, "rules only in the engine")."""

from __future__ import annotations

import json

from engine import replay, table_view
from engine.generate import random_game
from tests.engine.records import HANDS5, call, deal, play, record
from tests.reference import EXAMPLES


def _example(name: str) -> dict[str, object]:
    path = next(p for p in EXAMPLES.rglob(name))
    rec: dict[str, object] = json.loads(path.read_text())["record"]
    return rec


def test_the_values_follow_the_game_s_house_rules() -> None:
    plain = table_view(record("fuchsen", deal(hands=HANDS5))).values
    assert plain is not None
    assert plain[""] == plain["kontra"]
    changed = table_view(
        {
            "game": "fuchsen",
            "rules": {"min_value": 7, "game_cost": 3, "level_values": {"re": 100}},
            "events": [deal(hands=HANDS5)],
        }
    ).values
    assert changed is not None
    assert changed[""] == changed["kontra"] == 7
    assert changed["re"] == 103
    assert changed["supp"] != changed["re"]


def test_the_value_of_a_finished_game_is_the_result_s_value() -> None:
    for name in ("03-fuchsen-fuchs-announced-played-out.json", "34-koenig-koenigmord-won.json"):
        rec = _example(name)
        view = table_view(rec)
        assert view.value == replay(rec).value
        assert view.values is not None and view.value in view.values.values()


def test_each_trick_carries_its_augen_and_they_add_up_to_the_result() -> None:
    rec = _example("03-fuchsen-fuchs-announced-played-out.json")
    view = table_view(rec)
    assert [t.to_dict()["augen"] for t in view.tricks] == [t.augen for t in view.tricks]
    assert sum(t.augen or 0 for t in view.tricks) == 121
    ours = sum(t.augen or 0 for t in view.tricks if t.winner in view.declarers)
    assert ours == 43  # the example's Augen of dora and carl
    koenig = table_view(_example("34-koenig-koenigmord-won.json"))
    assert koenig.tricks and all(t.augen is None for t in koenig.tricks)


def test_the_called_card_and_the_fuchs_said_are_the_record_s() -> None:
    rec = _example("03-fuchsen-fuchs-announced-played-out.json")
    events = rec["events"]
    assert isinstance(events, list)
    before = table_view({**rec, "events": events[:3]})
    assert before.called_card == "S10" and not before.fuchs_said and before.alone is False
    after = table_view({**rec, "events": events[:4]})
    assert after.fuchs_said
    assert table_view({**rec, "events": events[:1]}).called_card is None


def test_a_macher_alone_has_no_called_card() -> None:
    rec = record("fuchsen", deal(hands=HANDS5), {"type": "call", "player": "bert", "alone": True})
    rec["rules"] = {"alone_requires_six_trumps": False}
    view = table_view(rec)
    assert view.status == "in_progress", view.result
    assert view.alone is True and view.called_card is None


def test_the_next_player_is_to_act_or_the_first_trick_s_winner_while_raising() -> None:
    for seed in range(6):
        rec = random_game(900 + seed, "fuchsen", 5, hands=True)
        events = rec["events"]
        for k in range(1, len(events) + 1):
            view = table_view({**rec, "events": events[:k]})
            if view.awaiting == "play":
                assert view.next_player == view.to_act
            elif view.awaiting == "raise_or_end":
                assert view.next_player == view.tricks[0].winner
            else:
                assert view.next_player is None


def test_each_effective_event_is_given_its_trick() -> None:
    rec = record(
        "fuchsen",
        deal(hands=HANDS5),
        call("bert", "E10"),
        play("bert", "EA"),
        {"type": "undo"},
        play("bert", "EO"),
        play("carl", "RU"),
        play("dora", "R10"),
        play("emil", "RO"),
        play("anna", "R8"),
        {"type": "end_raising"},
        play("bert", "GO"),
    )
    view = table_view(rec)
    assert view.effective == (0, 1, 4, 5, 6, 7, 8, 9, 10)
    assert view.event_tricks == (-1, -1, 0, 0, 0, 0, 0, 0, 1)
    assert view.to_dict()["event_tricks"] == list(view.event_tricks)


def _silent_tally(
    rules: dict[str, object] | None = None, *, silent: bool = True
) -> dict[str, object]:
    tally: dict[str, object] = {"type": "tally", "partner": "carl", "level": "supp", "won": True}
    if silent:
        tally["silent"] = True
    return {
        "game": "fuchsen",
        "rules": rules,
        "events": [deal(), call("bert", "EA"), tally],
    }


def test_a_stilles_spiel_names_the_bonus_its_value_includes_under_the_house_rules() -> None:
    view = table_view(_silent_tally())
    assert view.result.silent is True
    default = view.silent_bonus
    assert default is not None and default > 0
    assert view.to_dict()["silent_bonus"] == default
    changed = table_view(_silent_tally({"silent_bonus": default + 7}))
    assert changed.silent_bonus == default + 7
    assert view.result.value is not None and changed.result.value == view.result.value + 7


def test_a_game_that_was_no_stilles_spiel_names_no_bonus() -> None:
    assert table_view(_silent_tally(silent=False)).silent_bonus is None
    assert (
        table_view(record("koenigrufen", deal(["anna", "bert", "carl", "dora"]))).silent_bonus
        is None
    )
