"""The shortcuts for records that leave the partner open, each against
the plain path it replaces: the candidate's state built by ``assume_partner`` (and
his fold from the start, event by event), and hindsight rule 4 as the spec words it
(``test_fast_paths._plain_replay``)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from engine import replay
from engine.core import waiting_for_partner
from engine.generate import random_game
from engine.replay import fold
from engine.result import Result
from tests.engine.folds import partner_needed
from tests.engine.test_fast_paths import (
    _plain_replay,
    _shared_starts,
    _trick_one_mutations,
    replay_module,
)
from tests.engine.test_open_partner_candidates_match_plain_fold import _called_suit_mutations


def _records(count: int, seed: int) -> list[dict[str, Any]]:
    """Fuchsen games without hands, every seat count, some worth nothing (every
    candidate then pays nothing), each with mutations of its first trick."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for s in range(count):
        record = random_game(s, "fuchsen", (4, 5, 6)[s % 3], hands=False)
        if s % 4 == 0:
            record["rules"] = {"min_value": 0}
        elif s % 4 == 1:
            record["rules"] = {"strict_raise_windows": True}
        out.append(record)
        out.extend(_trick_one_mutations(record, rng)[:6])
        out.extend(_called_suit_mutations(record, rng)[:3])
    return out


def test_settled_payouts_are_the_payouts_of_the_state_assume_partner_builds() -> None:
    settled = decided = undecided = others = apart = 0
    for record in _records(300, 43):
        needed = partner_needed(record)
        if needed is None:
            continue
        variant, rules, events, undo_error, found = needed
        variant.share_prefix(found, events, len(events))
        end = len(events) if undo_error < 0 else -1
        outcomes = [variant.settled_payouts(found, q, end) for q in found.candidates]
        decided_payouts = {o[1] for o in outcomes if o[1] is not None}
        assert variant.settled_apart(found, end) == (len(decided_payouts) >= 2), record
        apart += len(decided_payouts) >= 2
        for q, (ok, payouts) in zip(found.candidates, outcomes, strict=True):
            if not ok:
                assert payouts is None
                if any(o[0] for o in outcomes):
                    # Where any candidate is settled, the answer that waits is the
                    # shared state's, whoever the first survivor is.
                    plain, error = fold(variant, rules, events, undo_error, (q, found.called))
                    if error is None:
                        others += 1
                        waits = replay_module._awaiting_partner(variant.result(plain))
                        assert variant.awaiting_result(found) == waits, record
                continue
            settled += 1
            start = variant.assume_partner(found, q)
            assert start is not None and start[1] == end
            state = start[0]
            # His fold from the start, event by event, ends in that state, error-free.
            plain, error = fold(variant, rules, events, undo_error, (q, found.called), runs=False)
            assert error is None and plain.__dict__.keys() == state.__dict__.keys()
            assert {k: v for k, v in plain.__dict__.items() if k != "variant"} == {
                k: v for k, v in state.__dict__.items() if k != "variant"
            }
            d = state.decision
            assert payouts == (None if d is None or state.annulled else d.payouts), record
            decided += payouts is not None
            undecided += payouts is None
            # The shared state's result stands for his in the answer that waits.
            waits = replay_module._awaiting_partner(variant.result(state))
            assert variant.awaiting_result(found) == waits
    assert settled > 1000
    assert decided > 500  # no kontra, no re: the Hilfer's pairing pays
    assert undecided > 50  # the raising went on past re, or the game goes on
    assert apart > 100  # records whose settled candidates show that the answer waits
    # Candidates who left the shared fold fail at the event that made them leave it
    # (``others`` stays 0 in these records); the check above holds should one survive.


def test_candidates_settled_or_put_off_give_the_plain_replays_answer() -> None:
    put_off = 0
    for record in _records(300, 47):
        assert replay(record).to_dict() == _plain_replay(record), record
        needed = partner_needed(record)
        if needed is None:
            continue
        variant, _, events, undo_error, found = needed
        variant.share_prefix(found, events, len(events))
        end = len(events) if undo_error < 0 else -1
        settled = [variant.settled_payouts(found, q, end)[0] for q in found.candidates]
        # A candidate to be folded after the first one, before a settled one.
        put_off += any(not s and any(settled[k + 1 :]) for k, s in enumerate(settled) if k)
    assert put_off > 100


def test_an_undo_after_a_shared_fold_is_found_as_the_careful_walk_finds_it() -> None:
    rng = random.Random(53)
    checked = 0
    for record in _records(120, 59)[::3]:
        needed = partner_needed(record)
        if needed is None:
            continue
        events = record["events"]
        position = needed[4].position
        for _ in range(3):
            changed = [dict(e) for e in events]
            changed.insert(rng.randrange(position + 1, len(events) + 1), {"type": "undo"})
            got = replay({**record, "events": changed}).to_dict()
            assert got == replay_module._replay_resolved({**record, "events": changed}).to_dict()
            assert got == _plain_replay({**record, "events": changed})
            checked += 1
    assert checked > 100


def _unseen_blank_records(count: int) -> list[dict[str, Any]]:
    """Partner games without hands whose Macher turned a card (``turned: true``),
    cut before his face-down play: the record never identifies the blank."""
    out: list[dict[str, Any]] = []
    seed = 0
    while len(out) < count:
        record = random_game(seed, "fuchsen", (4, 5, 6)[seed % 3], hands=False)
        seed += 1
        events = record["events"]
        if events[1].get("turned") is not True or "card" not in events[1]:
            continue
        down = [k for k, e in enumerate(events) if e.get("turned") is True and k > 1]
        cut = down[0] if down else len(events)
        if cut >= 6:  # the mutations need a few plays
            out.append({**record, "events": events[:cut]})
    return out


def _macher_followed_in_the_shared_fold(record: dict[str, Any]) -> bool:
    """Did the shared fold take a card of the Macher's in a trick he did not lead?"""
    needed = partner_needed(record)
    if needed is None:
        return False
    variant, _, events, _, found = needed
    variant.share_prefix(found, events, len(events))
    after = found.after
    if after is None or found.resume < 0 or after.table is None:
        return False
    macher = after.table.active[getattr(after, "macher", -1)]
    trick = 0
    for k in range(found.position + 1, found.resume):
        event = events[k][1]
        if event.get("type") != "play":
            continue
        if event["player"] == macher and trick % len(after.table.active):
            return True
        trick += 1
    return False


def test_a_shared_first_trick_around_an_unseen_blank_equals_each_candidates_fold() -> None:
    rng = random.Random(61)
    checked = shared = broke = 0
    for record in _unseen_blank_records(60):
        changes = [
            record,
            *_trick_one_mutations(record, rng),
            *_called_suit_mutations(record, rng),
        ]
        for changed in changes:
            got = _shared_starts(changed)
            if got is None:
                continue
            pairs, _, _ = got
            for resumed, plain in pairs:
                checked += 1
                assert resumed == plain, changed["events"]
            assert replay(changed).to_dict() == _plain_replay(changed), changed
            if _macher_followed_in_the_shared_fold(changed):
                shared += 1
            elif all(plain[1] is not None for _, plain in pairs):
                broke += 1
    assert checked > 1500
    assert shared > 100  # the Macher's card was judged once, on the shared state
    assert broke > 30  # and records that every candidate fails were left to each fold


def test_a_result_that_waits_built_from_one_dict_equals_the_one_built_by_keywords() -> None:
    got = waiting_for_partner("fuchsen", "partner", ("anna",), "re", True, 1)
    want = Result(
        status="in_progress",
        game="fuchsen",
        contract="partner",
        declarers=("anna",),
        level="re",
        has_level=True,
        tricks=1,
        awaiting="partner",
    )
    assert got == want and got.__dict__ == want.__dict__
    assert list(got.__dict__) == [f.name for f in dataclasses.fields(Result)]
    assert got.to_dict() == want.to_dict()
