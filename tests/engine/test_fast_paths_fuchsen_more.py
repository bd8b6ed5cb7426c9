"""Fuchsen's later shortcuts keep the contracts of what they replace.

The run's lean loop (tricks 2 to 6, once the raising is over in a game without a
turned card) and the bitmask tests of the obligations are checked against the plain
fold, event by event, on games broken in those tricks in every way the loop tests.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine import replay
from engine.core import NeedPartner
from engine.generate import random_game
from engine.replay import RecordError, fold, prepare
from tests.engine.folds import fold_watching_runs, state_fields

Record = dict[str, Any]


def _fold_both(record: Record) -> tuple[Any, Any]:
    """The fold with runs and strictly event by event, with the partner assumed where
    the record does not name him (the candidates' folds are checked elsewhere)."""
    variant, rules, events, undo_error = prepare(record)
    out: list[Any] = []
    for runs in (True, False):
        try:
            state, error = fold(variant, rules, events, undo_error, runs=runs)
        except NeedPartner as need:
            assumed = (need.candidates[0], need.called)
            state, error = fold(variant, rules, events, undo_error, assumed, runs=runs)
        out.append((state_fields(state), error))
    return out[0], out[1]


def _broken(record: Record, rng: random.Random) -> list[Record]:
    """Copies of ``record`` broken at a play, in each way the runs test an event (in
    trick 1 the run's first loop takes the plays, later the lean loop)."""
    events = record["events"]
    players = events[0]["players"]
    plays = [k for k, e in enumerate(events) if e["type"] == "play"]
    # Trick 1 is the first four or five plays, and half the breaks go in it.
    active = 4 if len(players) == 4 else 5
    later = plays[active:]
    picked = rng.sample(plays[1:active], 2) + rng.sample(later, min(5, len(later)))
    out: list[Record] = []
    for k in picked:
        event = events[k]
        mine = [j for j in plays if j > k and events[j]["player"] == event["player"]]
        others = [j for j in plays if events[j]["player"] != event["player"]]
        changes: list[Any] = [
            {**event, "player": rng.choice(players)},  # not his turn, or sits out
            {**event, "card": events[rng.choice(plays[: plays.index(k)])]["card"]},  # played
            {**event, "card": events[rng.choice(others)]["card"]},  # another's card
            {**event, "fuchs": True},
            {**event, "turned": True},
            {**event, "card": 7},
            {"type": "play", "player": event["player"]},
            [event],
            "play",
            {"type": "raise", "player": event["player"], "level": "kontra"},
            {"type": "end_raising"},
            {"type": "forfeit", "player": event["player"]},
            {"type": "annul"},
        ]
        for change in changes:
            changed = list(events)
            changed[k] = change
            out.append({**record, "events": changed})
        for j in mine:
            # His cards swapped: the earlier play may now break an obligation.
            changed = list(events)
            changed[k] = {**event, "card": events[j]["card"]}
            changed[j] = {**events[j], "card": event["card"]}
            out.append({**record, "events": changed})
        out.append({**record, "events": events[:k]})
        out.append({**record, "events": [*events[:k], *events[k + 1 :]]})
    return out


def test_the_runs_equal_the_plain_fold_on_games_broken_in_any_trick() -> None:
    rng = random.Random(7)
    codes: Counter[str] = Counter()
    for seed in range(120):
        seats = (4, 5, 6)[seed % 3]
        record = random_game(50_000 + seed, "fuchsen", seats, hands=seed % 2 == 0)
        for case in [record, *_broken(record, rng)]:
            try:
                ran, plain = _fold_both(case)
            except RecordError:  # pragma: no cover - the generator's records are whole
                continue
            assert ran == plain, case
            if plain[1] is not None:
                codes[plain[1].code] += 1
    # Every test of the loop is met by some broken record.
    for code in (
        "not_your_turn",
        "card_already_played",
        "card_not_in_hand",
        "must_follow_suit",
        "must_overtake",
        "must_trump",
        "malformed_event",
        "invalid_raise",
        "out_of_order",
        "invalid_announcement",
        "face_down_card_mismatch",
        "unknown_player",
    ):
        assert codes[code] > 0, code


def test_the_lean_loop_takes_every_play_of_a_whole_game() -> None:
    # The shortcut must be used, not only agree: a whole game without a turned card
    # is folded in at most a few runs, its later tricks in one.
    variant = None
    for seed in range(40):
        record = random_game(60_000 + seed, "fuchsen", 5, hands=True)
        if any(e["type"] == "call" and "turned" in e for e in record["events"]):
            continue
        variant, rules, events, undo_error = prepare(record)
        state, error, calls = fold_watching_runs(variant, rules, events, undo_error)
        assert error is None
        assert state.decision is not None
        # The run that reaches the end of the record is one of at most three.
        assert calls[-1][1] == len(events)
        assert len(calls) <= 3
    assert variant is not None


# ----------------------------------------------------------------- shared raising's end


def _after_trick_one(record: Record, rng: random.Random) -> list[Record]:
    """The record without ``end_raising``, cut a few events after the lead of trick
    2, and copies changed between the first trick's last card and that lead: raises
    by anyone at any level, the lead by another player, of the called card, of a
    card already played, with a Fuchs."""
    events = [e for e in record["events"] if e["type"] != "end_raising"]
    players = events[0]["players"]
    plays = [k for k, e in enumerate(events) if e["type"] == "play"]
    active = 4 if len(players) == 4 else 5
    if len(plays) <= active:
        return []
    lead = plays[active]  # the lead of trick 2
    events = events[: lead + rng.randrange(1, 4)]
    levels = ("kontra", "re", "supp", "mort", "bogus")
    called = events[1].get("card")
    out = [{**record, "events": events}]
    for _ in range(8):
        changed = list(events)
        first = lead - sum(1 for e in events[:lead] if e["type"] == "raise")
        for _ in range(rng.randrange(3)):
            raise_ = {"type": "raise", "player": rng.choice(players), "level": rng.choice(levels)}
            changed.insert(rng.randrange(first, lead + 1), raise_)
        at = changed.index(events[lead])
        what = rng.randrange(6)
        if what == 0:
            changed[at] = {**changed[at], "player": rng.choice(players)}
        elif what == 1 and isinstance(called, str):
            changed[at] = {**changed[at], "card": called}
        elif what == 2:
            changed[at] = {**changed[at], "card": events[rng.choice(plays[:active])]["card"]}
        elif what == 3:
            changed[at] = {**changed[at], "fuchs": True}
        out.append({**record, "events": changed})
    return out


def test_candidates_share_the_lead_of_trick_two_as_each_candidates_plain_fold() -> None:
    # ``share_prefix`` goes past the first trick: raises, then the lead of trick 2,
    # which ends the raising and each candidate settles (``need.end_raising``).
    from tests.engine.test_fast_paths import _plain_replay, _shared_starts

    rng = random.Random(23)
    checked = settled = 0
    for seed in range(300):
        seats = (4, 5, 6)[seed % 3]
        record = random_game(70_000 + seed, "fuchsen", seats, hands=False)
        record["rules"] = {"strict_raise_windows": seed % 2 == 0}
        for changed in _after_trick_one(record, rng):
            assert replay(changed).to_dict() == _plain_replay(changed), changed
            got = _shared_starts(changed)
            if got is None:
                continue
            pairs, _, ended = got
            settled += ended
            for resumed, plain in pairs:
                checked += 1
                assert resumed == plain, (seed, changed["events"])
    assert checked > 2000
    assert settled > 100  # the lead of trick 2 was shared and settled per candidate


def _trick_one_swaps(record: Record) -> list[Record]:
    """The record cut before the called card is played (the partner stays unknown),
    and copies with a card of trick 1 swapped with a later card of the same player:
    he may now break an obligation there, which the candidates' shared fold judges."""
    events = record["events"]
    called = events[1].get("card")
    cut = next((k for k, e in enumerate(events) if e.get("card") == called and k > 1), None)
    events = events[:cut]
    players = events[0]["players"]
    plays = [k for k, e in enumerate(events) if e["type"] == "play"]
    active = 4 if len(players) == 4 else 5
    out: list[Record] = [{**record, "events": events}]
    for k in plays[1:active]:
        event = events[k]
        for j in plays[active:]:
            if events[j]["player"] == event["player"]:
                changed = list(events)
                changed[k] = {**event, "card": events[j]["card"]}
                changed[j] = {**events[j], "card": event["card"]}
                out.append({**record, "events": changed})
    return out


def test_the_shared_first_trick_judges_obligations_as_the_plain_replay() -> None:
    from tests.engine.test_fast_paths import _plain_replay

    messages: Counter[str] = Counter()
    for seed in range(300):
        seats = (4, 5, 6)[seed % 3]
        record = random_game(80_000 + seed, "fuchsen", seats, hands=False)
        for case in _trick_one_swaps(record):
            expected = _plain_replay(case)
            assert replay(case).to_dict() == expected, case
            if "error" in expected:
                messages[" ".join(expected["error"]["message"].split()[1:3])] += 1
            elif expected.get("awaiting") == "partner":
                messages["partner"] += 1
    # Candidates were needed, and each obligation was broken where they share a fold.
    for words in ("must follow", "must beat", "must trump:", "must over-trump:", "partner"):
        assert messages[words] > 5, messages
