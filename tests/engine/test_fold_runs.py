"""The fold's shortcut for runs of ordinary plays gives exactly the event-by-event fold."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.generate import random_game
from tests.engine._shared import CORPORA, load, need
from tests.engine.folds import fold_both


def test_runs_agree_with_the_event_by_event_fold_on_the_corpus() -> None:
    for corpus in CORPORA:
        need(corpus)
        for n, case in enumerate(load(corpus)):
            both = fold_both(case["record"])
            if both is not None:
                assert both[0] == both[1], f"{corpus.name} case {n}"


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from([("fuchsen", 4), ("fuchsen", 5), ("fuchsen", 6), ("koenigrufen", 4)]),
    st.booleans(),
    st.integers(0, 60),
)
def test_runs_agree_on_random_games_and_their_prefixes(
    seed: int, game: tuple[str, int], hands: bool, cut: int
) -> None:
    record = random_game(seed, game[0], game[1], hands=hands)
    for events in (record["events"], record["events"][:cut]):
        both = fold_both({**record, "events": events})
        assert both is not None
        assert both[0] == both[1]


def test_runs_agree_on_games_with_a_turned_card() -> None:
    # The shortcut folds plays around an identified blank; apply takes the blank itself.
    checked = 0
    for seed in range(400):
        for seats in (4, 5, 6):
            record = random_game(seed, "fuchsen", seats, hands=seed % 2 == 0)
            call = record["events"][1]
            if "turned" not in call:
                continue
            checked += 1
            # After the blank's own trick the run goes on as in a game without one:
            # cut in that trick, at its end and in the next one as well.
            events = record["events"]
            blank_at = next(
                (k for k, e in enumerate(events) if e["type"] == "play" and e.get("turned")), 9
            )
            cuts = {len(events), 9, 17, 26, *range(blank_at + 1, blank_at + 2 * seats)}
            for cut in sorted(cuts):
                both = fold_both({**record, "events": record["events"][:cut]})
                assert both is not None
                assert both[0] == both[1], (seed, seats, cut)
    assert checked > 50


def test_runs_agree_on_koenigrufen_auctions_and_their_prefixes() -> None:
    # Passes, bids (with a called or face-down card) and joins are folded in a run,
    # the auction's last word included; every prefix ends the run somewhere else.
    for seed in range(150):
        record = random_game(seed, "koenigrufen", 4, hands=seed % 2 == 0)
        events = record["events"]
        for cut in range(1, min(len(events), 12) + 1):
            both = fold_both({**record, "events": events[:cut]})
            assert both is not None
            assert both[0] == both[1], (seed, cut)


def test_runs_agree_on_turned_card_games_with_two_plays_swapped() -> None:
    # A player's two cards swapped between tricks often breaks his obligations: the
    # runs must refuse such a play wherever the event-by-event fold does, before the
    # blank is played and after its trick.
    checked = 0
    for seed in range(300):
        record = random_game(seed, "fuchsen", 5, hands=False)
        events = record["events"]
        if "turned" not in events[1]:
            continue
        plays = [k for k, e in enumerate(events) if e["type"] == "play" and len(e) == 3]
        for a in plays:
            for b in plays:
                if b <= a or events[a]["player"] != events[b]["player"]:
                    continue
                swapped = list(events)
                swapped[a] = {**events[a], "card": events[b]["card"]}
                swapped[b] = {**events[b], "card": events[a]["card"]}
                both = fold_both({**record, "events": swapped})
                assert both is not None
                assert both[0] == both[1], (seed, a, b)
                checked += 1
    assert checked > 500
