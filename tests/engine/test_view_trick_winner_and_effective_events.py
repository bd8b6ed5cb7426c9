"""The table view says who is winning the trick on the table so far and which events
stand after ``undo``, so the recording page neither ranks cards nor resolves undo."""

from __future__ import annotations

import pytest

from engine import table_view
from engine.generate import random_game
from tests.engine.records import HANDS5, call, deal, play, record


@pytest.mark.parametrize(("game", "seats"), [("fuchsen", 5), ("fuchsen", 4), ("koenigrufen", 4)])
@pytest.mark.parametrize("hands", [False, True])
def test_the_trick_goes_to_the_player_winning_it_so_far_or_to_one_who_plays_after(
    game: str, seats: int, hands: bool
) -> None:
    checked = 0
    for seed in range(12):
        events = random_game(500 + seed, game, seats, hands=hands)["events"]
        for k in range(1, len(events)):
            view = table_view({"game": game, "events": events[:k]})
            if not view.trick:
                assert view.trick_winner is None
                continue
            assert view.trick_winner in [p for p, _ in view.trick]
            # The trick complete: later in the record, or never (an early end).
            done = len(view.tricks)
            for m in range(k + 1, len(events) + 1):
                later = table_view({"game": game, "events": events[:m]})
                if len(later.tricks) > done:
                    winner = later.tricks[done].winner
                    after = [p for p, _ in later.tricks[done].cards[len(view.trick) :]]
                    assert winner == view.trick_winner or winner in after
                    checked += 1
                    break
    assert checked > 50


def test_the_effective_events_leave_out_an_undone_event_and_the_undo() -> None:
    rec = record(
        "fuchsen",
        deal(hands=HANDS5),
        call("bert", "E10"),
        play("bert", "EA"),
        {"type": "undo"},
        play("bert", "EO"),
    )
    view = table_view(rec)
    assert view.effective == (0, 1, 4)
    assert view.to_dict()["effective"] == [0, 1, 4]
    assert view.trick == (("bert", "EO"),) and view.trick_winner == "bert"
