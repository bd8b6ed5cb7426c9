"""The shortcuts for records that leave the partner open, each against
the plain path it replaces: the candidate's fold from the start, event by event, and
hindsight rule 4 as the spec words it (``test_fast_paths._plain_replay``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import replay
from engine.cards import CODES, INDEX
from engine.core import NEVER, Knowledge, NeedPartner
from engine.fuchsen import CLASS
from engine.generate import random_game
from engine.replay import RecordError, fold, prepare
from tests.engine.folds import partner_needed, state_fields
from tests.engine.test_fast_paths import (
    _plain_replay,
    _shared_starts,
    _trick_one_mutations,
    replay_module,
)


def _called_suit_mutations(record: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """The record with a card of the first trick swapped for a later card of the same
    player, preferring cards of the called suit: candidates then follow the called
    suit, or fail to, or fail to beat the trick where the called card would."""
    events = record["events"]
    called = events[1].get("card") if len(events) > 1 else None
    if not isinstance(called, str) or called not in INDEX:
        return []
    suit = CLASS[INDEX[called]]
    out = []
    trick_one = [k for k in range(2, min(len(events), 8)) if events[k]["type"] == "play"]
    for k in trick_one:
        player = events[k]["player"]
        later = [
            j
            for j in range(k + 1, len(events))
            if events[j]["type"] == "play" and events[j]["player"] == player
        ]
        in_suit = [j for j in later if CLASS[INDEX[events[j]["card"]]] == suit]
        for j in in_suit or later[:1]:
            changed = [dict(e) for e in events]
            changed[k]["card"], changed[j]["card"] = changed[j]["card"], changed[k]["card"]
            out.append({**record, "events": changed})
            # Cut after the end of the raising, where the partner is still open.
            ends = [e for e, ev in enumerate(changed) if ev["type"] == "end_raising"]
            if ends:
                out.append({**record, "events": changed[: ends[0] + 1 + rng.randrange(2)]})
    rng.shuffle(out)
    return out[:12]


def _candidates_in_trick_one(record: Any) -> tuple[list[tuple[Any, Any]], int, int] | None:
    """Per candidate: his fold going on from ``assume_partner`` after ``share_prefix``
    against his plain fold from the start; and how many candidates played a card with
    the called suit led in the shared first trick and stayed in the shared fold, and
    how many left it there. None without candidates."""
    needed = partner_needed(record)
    if needed is None:
        return None
    variant, rules, events, undo_error, found = needed
    variant.share_prefix(found, events, len(events))
    stayed = left = 0
    after = found.after
    end = found.resume if found.resume >= 0 else found.position + 1
    if after is not None and found.resume >= 0:
        called_suit = CLASS[found.called]
        trick: list[int] = []
        for k in range(found.position + 1, end):
            event = events[k][1]
            if event.get("type") != "play":
                continue
            p = after.table.index[event["player"]] if after.table else -1
            if trick and CLASS[trick[0]] == called_suit and p in found.candidates:
                start = found.starts.get(p)
                if start is not None and start[1] == k:
                    left += 1
                elif start is None:
                    stayed += 1
            trick.append(INDEX[event["card"]])
            if len(trick) == len(after.table.active if after.table else ()):
                trick = []
    pairs = []
    for q in found.candidates:
        got = []
        for start in (variant.assume_partner(found, q), None):
            state, error = fold(
                variant, rules, events, undo_error, (q, found.called), start=start, runs=False
            )
            got.append((state_fields(state), error))
        pairs.append((got[0], got[1]))
    return pairs, stayed, left


@pytest.mark.parametrize("strict", [False, True])
def test_a_candidate_following_the_called_suit_stays_shared_only_where_his_plain_fold_agrees(
    strict: bool,
) -> None:
    rng = random.Random(23)
    checked = stayed = left = 0
    for seed in range(300):
        seats = (4, 5, 6)[seed % 3]
        record = random_game(seed, "fuchsen", seats, hands=False)
        record["rules"] = {"strict_raise_windows": strict}
        for changed in [record, *_called_suit_mutations(record, rng)]:
            got = _candidates_in_trick_one(changed)
            if got is None:
                continue
            pairs, s, lft = got
            stayed += s
            left += lft
            for resumed, plain in pairs:
                checked += 1
                assert resumed == plain, (seed, changed["events"])
            assert replay(changed).to_dict() == _plain_replay(changed), changed
    assert checked > 1000
    assert stayed > 10  # candidates followed the called suit inside the shared fold
    assert left > 50  # and others broke an obligation the called card gave them


def test_rule_four_with_lazy_first_results_equals_the_plain_replay() -> None:
    rng = random.Random(29)
    seen: dict[str, int] = {"awaiting": 0, "agreed": 0, "one": 0, "none": 0}
    for seed in range(250):
        for seats in (4, 5, 6):
            record = random_game(seed, "fuchsen", seats, hands=False)
            if seed % 3 == 0:
                # A game worth nothing pays nothing whoever the partner is.
                record["rules"] = {"min_value": 0}
            for changed in _trick_one_mutations(record, rng)[:10]:
                got = replay(changed).to_dict()
                assert got == _plain_replay(changed), changed
                if got.get("awaiting") == "partner":
                    seen["awaiting"] += 1
                elif got["status"] == "finished" and got["value"] == 0:
                    seen["agreed"] += len(got["declarers"]) == 1 and got["contract"] == "partner"
                elif got["status"] == "finished" and got["contract"] == "partner":
                    seen["one"] += 1
                elif got["status"] == "invalid":
                    seen["none"] += 1
    assert min(seen.values()) > 20, seen


def test_candidates_the_shared_fold_takes_to_the_end_are_settled_as_their_fold_would() -> None:
    taken = 0
    for seed in range(400):
        record = random_game(seed, "fuchsen", 5, hands=False)
        needed = partner_needed(record)
        if needed is None:
            continue
        variant, rules, events, undo_error, found = needed
        variant.share_prefix(found, events, len(events))
        for q in found.candidates:
            start = variant.assume_partner(found, q)
            if start is None or start[1] != len(events):
                continue
            taken += 1
            state, error = fold(variant, rules, events, undo_error, (q, found.called))
            assert error is None
            assert state_fields(start[0]) == state_fields(state)
        assert replay(record).to_dict() == _plain_replay(record)
    assert taken > 100


def test_knowledge_with_a_card_equals_the_knowledge_built_with_it() -> None:
    rng = random.Random(31)
    for _ in range(200):
        owner = [rng.randrange(-1, 5) for _ in range(32)]
        known = [rng.getrandbits(32) for _ in range(5)]
        placed = [rng.choice((NEVER, rng.randrange(20))) for _ in range(32)]
        know = Knowledge(tuple(owner), tuple(known), tuple(placed), rng.randrange(-1, 32))
        p, card = rng.randrange(5), rng.randrange(32)
        got = know.with_card(p, card)
        owner[card] = p
        known[p] |= 1 << card
        placed[card] = NEVER
        want = Knowledge(tuple(owner), tuple(known), tuple(placed), know.blank)
        assert got == want and hash(got) == hash(want)
        assert type(got.owner) is tuple and type(got.known) is tuple
        with pytest.raises(AttributeError):
            got.blank = 3  # type: ignore[misc]
    assert CODES  # the card table the records use is loaded


class _Event(dict[str, Any]):
    """An event object of another class than ``dict`` (JSON never gives one)."""


@pytest.mark.parametrize(
    "events",
    [
        [],
        [{"type": "play"}, {"type": "undo"}],
        [{"type": "play"}, {"player": "anna"}],
        [["undo"], "undo", None, {"type": ["undo"]}],
        [{"player": "anna"}, _Event(type="undo")],
        [_Event(player="anna"), {"type": "undo", "extra": 1}],
        [{"type": "undo "}, {"type": "UNDO"}],
    ],
)
def test_an_undo_is_found_among_events_of_any_kind_as_the_careful_walk_finds_it(
    events: list[Any],
) -> None:
    pairs = list(enumerate(events))
    careful = any(isinstance(e, dict) and e.get("type") == "undo" for _, e in pairs)
    assert replay_module._holds_undo(pairs) is careful


def _koenig_mutations(record: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """The record, prefixes, and copies with an event dropped, two swapped, a player
    changed or an ``undo`` put in: candidates then fail at different events."""
    events = record["events"]
    out = [record]
    for cut in rng.sample(range(2, len(events)), min(4, len(events) - 2)):
        out.append({**record, "events": events[:cut]})
    players = events[0]["players"]
    for _ in range(6):
        changed = [dict(e) for e in events]
        i = rng.randrange(1, len(events))
        j = rng.randrange(1, len(events))
        what = rng.randrange(4)
        if what == 0:
            del changed[i]
        elif what == 1:
            changed[i], changed[j] = changed[j], changed[i]
        elif what == 2 and "player" in changed[i]:
            changed[i]["player"] = rng.choice(players)
        else:
            changed.insert(i, {"type": "undo"})
        out.append({**record, "events": changed})
    return out


def test_a_candidates_fold_reusing_the_deal_equals_his_fold_from_the_start() -> None:
    rng = random.Random(37)
    checked = 0
    for seed in range(150):
        record = random_game(seed, "koenigrufen", 4, hands=seed % 5 == 0, contract="durchmarsch")
        for changed in _koenig_mutations(record, rng):
            needed = partner_needed(changed)
            if needed is None:
                continue
            variant, rules, events, undo_error, found = needed
            assert found.dealt is not None
            for q in found.candidates:
                got = []
                for dealt in (found.dealt, None):
                    state, error = fold(
                        variant, rules, events, undo_error, (q, found.called), dealt=dealt
                    )
                    got.append((state_fields(state), error))
                checked += 1
                assert got[0] == got[1], changed
            assert replay(changed).to_dict() == _plain_replay(changed), changed
    assert checked > 500


def _turned_records(count: int) -> list[dict[str, Any]]:
    """Partner games without hands whose Macher turned a card the call names."""
    out: list[dict[str, Any]] = []
    seed = 0
    while len(out) < count:
        record = random_game(seed, "fuchsen", (4, 5, 6)[seed % 3], hands=False)
        seed += 1
        if isinstance(record["events"][1].get("turned"), str):
            out.append(record)
    return out


def test_a_shared_first_trick_around_an_identified_blank_equals_each_candidates_fold() -> None:
    rng = random.Random(41)
    checked = moved = macher_stops = 0
    for record in _turned_records(120):
        changes = [*_trick_one_mutations(record, rng), *_called_suit_mutations(record, rng)]
        for changed in changes:
            got = _shared_starts(changed)
            if got is None:
                continue
            pairs, shared, _ = got
            moved += shared
            for resumed, plain in pairs:
                checked += 1
                assert resumed == plain, changed["events"]
            assert replay(changed).to_dict() == _plain_replay(changed), changed
            macher_stops += _macher_left_with_the_blank(changed)
    assert checked > 5000
    assert moved > 1000  # the candidates shared the first trick of a turned game
    assert macher_stops > 50  # and it stopped where only the blank follows the called suit


def _macher_left_with_the_blank(record: dict[str, Any]) -> bool:
    """Does the shared fold stop at a play of the Macher's, the called suit led, with
    no card of it in his hand but the blank?"""
    try:
        variant, rules, events, undo_error = prepare(record)
        fold(variant, rules, events, undo_error)
        return False
    except (RecordError, NeedPartner) as exc:
        if not isinstance(exc, NeedPartner):
            return False
        found = exc
    variant.share_prefix(found, events, len(events))
    after = found.after
    k = found.resume
    if after is None or after.know is None or k < 0 or k >= len(events) or after.trick == ():
        return False
    event = events[k][1]
    macher = getattr(after, "macher", -1)
    table = after.table
    if table is None or event.get("type") != "play" or event.get("player") != table.active[macher]:
        return False
    led = CLASS[after.trick[0][1]]
    hand = after.know.known[macher] & ~after.played & ~(1 << after.know.blank)
    return led == CLASS[found.called] and not any(
        CLASS[c] == led for c in range(32) if hand >> c & 1
    )
