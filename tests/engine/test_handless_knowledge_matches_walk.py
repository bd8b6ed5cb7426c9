"""The shortcuts for records whose deal lists no hand, each against the
plain path it replaces: the knowledge read backwards against the walk event by event
(``engine.core._gather_each``), and the runs taking the plays that reading handed over
against the plain fold, event by event."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

from engine.cards import CODES, INDEX
from engine.core import (
    NO_PLAY,
    Knowledge,
    ReadKnowledge,
    _gather_each,
    _read_without_hands,
    gather_knowledge,
)
from engine.generate import random_game
from engine.replay import RecordError, deal_table, fold, prepare
from tests.engine.folds import fold_both, fold_watching_runs
from tests.engine.test_fast_paths import replay_module

replay_start = replay_module._START

Record = dict[str, Any]


class _Event(dict[str, Any]):
    """An event object of another class than ``dict`` (JSON never gives one)."""


class _Text(str):
    """A name or code of another class than ``str`` (JSON never gives one)."""


def _records(count: int, *, turned: bool = True) -> list[Record]:
    """Games whose deal lists no hand: Fuchsen at every seat count and Königrufen."""
    out = []
    for seed in range(count):
        if seed % 4 == 3:
            out.append(random_game(70_000 + seed, "koenigrufen", 4, hands=False))
            continue
        record = random_game(70_000 + seed, "fuchsen", (4, 5, 6)[seed % 3], hands=False)
        if turned or "turned" not in record["events"][1]:
            out.append(record)
    return out


def _placing_changes(record: Record, rng: random.Random) -> list[Record]:
    """Copies of ``record`` with placements the walk refuses or skips, and with events
    it reads in other ways: each is a reason for the backward read to give up, or
    (some) none."""
    events = record["events"]
    deal = events[0]
    seated = deal["players"]
    plays = [k for k, e in enumerate(events) if e["type"] == "play"]
    if len(plays) < 8:
        return []
    out: list[Record] = []

    def changed(k: int, event: Any) -> None:
        copy = list(events)
        copy[k] = event
        out.append({**record, "events": copy})

    k, j = sorted(rng.sample(plays, 2))
    first, later = events[k], events[j]
    changed(j, {**later, "card": first["card"]})  # a card played twice
    changed(j, {**later, "player": first["player"], "card": first["card"]})  # by one player
    changed(k, {**first, "player": later["player"]})  # another's card, a hand of seven
    changed(k, {**first, "player": rng.choice(seated)})  # perhaps one who sits out
    changed(k, {**first, "player": "nobody"})
    changed(k, {**first, "card": "XX"})
    changed(k, {**first, "card": rng.choice(CODES)})  # perhaps removed, or unused
    changed(k, {**first, "card": 7})
    changed(k, {**first, "card": ["EO"]})
    changed(k, {**first, "player": _Text(first["player"])})
    changed(k, {**first, "card": _Text(first["card"])})
    changed(k, {**first, "fuchs": False})
    changed(k, _Event(first))
    changed(k, {"type": "play", "player": first["player"]})
    changed(k, [first])
    changed(k, "play")
    changed(k, {"type": ["play"]})
    changed(k, {"type": _Text("play"), "player": first["player"], "card": first["card"]})
    show = {"type": "show", "player": first["player"], "cards": [first["card"]]}
    changed(1 + rng.randrange(len(events) - 1), show)  # shows a card in his hand
    changed(k, {**show, "cards": [later["card"]]})  # or in another's
    changed(k, {**show, "cards": [_Text(first["card"])]})
    changed(k, {**show, "player": _Text(first["player"])})
    changed(k, {**show, "type": _Text("show")})
    changed(k, {**show, "cards": "EO"})
    # A call naming a turned card: in the caller's hand, or in another's.
    call = events[1]
    if call.get("type") == "call":
        changed(1, {**call, "turned": first["card"]})
        changed(1, {**call, "turned": 8})
    # The deal lists a hand: the walk then starts from it.
    hands = {seated[0]: [first["card"]]}
    changed(0, {**deal, "hands": hands})
    # His first card played again, twice (one hand: the read is still made), and a
    # player who plays on into a seventh card after the first trick's first card.
    out.append({**record, "events": [*events, *events[plays[0] : plays[0] + 1] * 2]})
    player = events[plays[0]]["player"]
    seventh = [{"type": "play", "player": player, "card": events[j]["card"]} for j in plays[1:7]]
    out.append({**record, "events": [*events[: plays[0] + 1], *seventh]})
    return out


def _read_and_walked(record: Record) -> tuple[Knowledge, Knowledge, list[Any], bool] | None:
    """The knowledge ``gather_knowledge`` gives for the record and the walk's, the
    effective events, and whether the backward read was made; None for a record
    without a valid deal."""
    try:
        variant, rules, events, _ = prepare(record)
    except RecordError:
        return None
    start = dataclasses.replace(replay_start[variant.name], rules=rules)
    try:
        table = deal_table(start, events[0][1])
    except Exception:
        return None
    got = gather_knowledge(variant, table, events[0][1], events, events[0][0])
    walked = _gather_each(variant, table, events, events[0][0])
    read = not table.dealt and _read_without_hands(variant, table, events) is not None
    return got, walked, events, read


def _fields(know: Knowledge) -> tuple[Any, ...]:
    return know.owner, know.known, know.placed_at, know.blank


def test_the_backward_read_gives_the_knowledge_the_walk_gives() -> None:
    rng = random.Random(61)
    read = walked_only = 0
    for record in _records(240):
        for case in [record, *_placing_changes(record, rng)]:
            got = _read_and_walked(case)
            if got is None:
                continue
            know, walked, events, was_read = got
            assert _fields(know) == _fields(walked), case
            if was_read:
                read += 1
                # A long Fuchsen record is read for the runs too (Königrufen's do not
                # take the reading).
                long = len(events) >= 16 and case["game"] == "fuchsen"
                assert (type(know) is ReadKnowledge) is long, case
            else:
                walked_only += 1
                assert type(know) is Knowledge
    assert read > 1200  # the usual record is read backwards
    assert walked_only > 1600  # and the changes above send many to the walk


def test_the_reading_holds_each_plain_play_as_its_players_own_card() -> None:
    rng = random.Random(67)
    checked = plain = 0
    for record in _records(160):
        for case in [record, *_placing_changes(record, rng)]:
            got = _read_and_walked(case)
            if got is None or type(got[0]) is not ReadKnowledge:
                continue
            know, _, events, _ = got
            assert isinstance(know, ReadKnowledge)
            assert know.events is events and len(know.plays) == len(events)
            index = {name: p for p, name in enumerate(_active_names(case))}
            for (_, event), pair in zip(events, know.plays, strict=True):
                checked += 1
                if (
                    type(event) is dict
                    and set(event) == {"type", "player", "card"}
                    and event["type"] == "play"
                ):
                    plain += 1
                    p, c = index[event["player"]], INDEX[event["card"]]
                    assert pair == (p, c), case
                    assert know.owner[c] == p, case
                else:
                    assert pair == NO_PLAY, case
    assert checked > 10_000 and plain > 8_000


def _active_names(record: Record) -> list[str]:
    """The active players in the order of their indexes (the seating, less who sits
    out)."""
    variant, rules, events, _ = prepare(record)
    start = dataclasses.replace(replay_start[variant.name], rules=rules)
    return list(deal_table(start, events[0][1]).active)


def _reading_kept(record: Record, rng: random.Random) -> list[Record]:
    """Copies of ``record`` broken in ways that place no card in two hands, so that the
    backward read is still made: two events swapped (a play out of turn, a raise
    moved), a player's two cards swapped (an obligation broken), his card played
    again, a play given a field more, or an object of another class."""
    events = record["events"]
    plays = [k for k, e in enumerate(events) if e["type"] == "play"]
    out: list[Record] = []
    for _ in range(6):
        k, j = sorted(rng.sample(range(2, len(events)), 2))
        copy = list(events)
        copy[k], copy[j] = copy[j], copy[k]
        out.append({**record, "events": copy})
    for k in rng.sample(plays, min(6, len(plays))):
        player = events[k]["player"]
        mine = [j for j in plays if j > k and events[j]["player"] == player]
        if mine:
            j = rng.choice(mine)
            copy = list(events)
            copy[k] = {**events[k], "card": events[j]["card"]}
            copy[j] = {**events[j], "card": events[k]["card"]}
            out.append({**record, "events": copy})
    for k in rng.sample(plays, min(4, len(plays))):
        # His own card played again, later (one hand holds it: the read is made).
        player = events[k]["player"]
        mine = [j for j in plays if j > k and events[j]["player"] == player]
        if mine:
            copy = list(events)
            copy[mine[0]] = {**events[mine[0]], "card": events[k]["card"]}
            out.append({**record, "events": copy})
        for event in (
            {**events[k], "fuchs": False},
            {**events[k], "turned": True},
            {**events[k], "seen": 1},
            _Event(events[k]),
        ):
            copy = list(events)
            copy[k] = event
            out.append({**record, "events": copy})
    return out


def test_runs_taking_the_read_plays_fold_as_the_plain_fold() -> None:
    rng = random.Random(71)
    codes: Counter[str] = Counter()
    read = 0
    for seed in range(150):
        record = random_game(80_000 + seed, "fuchsen", (4, 5, 6)[seed % 3], hands=False)
        record["rules"] = {"strict_raise_windows": seed % 2 == 0}
        for case in [record, *_reading_kept(record, rng)]:
            got = _read_and_walked(case)
            read += got is not None and type(got[0]) is ReadKnowledge
            both = fold_both(case)
            assert both is not None
            ran, plain = both
            assert ran == plain, case
            if plain[0] != "partner" and plain[1] is not None:
                codes[plain[1].code] += 1
    assert read > 1500
    for code in (
        "not_your_turn",
        "card_already_played",
        "must_follow_suit",
        "must_overtake",
        "must_trump",
        "malformed_event",
        "invalid_raise",
    ):
        assert codes[code] > 5, codes


def test_a_whole_game_read_backwards_is_folded_in_one_run_from_the_call() -> None:
    # The shortcut must be used, not only agree: the reading takes every plain play.
    taken = 0
    for record in _records(120, turned=False):
        if record["game"] != "fuchsen" or len(record["events"]) < 20:
            continue  # (the generator's game may end with the partner open)
        variant, rules, events, undo_error = prepare(record)
        try:
            state, error, calls = fold_watching_runs(variant, rules, events, undo_error)
        except Exception:
            continue  # the partner is open: his candidates' folds are checked elsewhere
        assert error is None and state.decision is not None
        assert type(state.know) is ReadKnowledge
        assert calls[-1][1] == len(events) and len(calls) <= 3
        taken += 1
    assert taken > 20


def test_a_run_reads_the_events_itself_from_a_list_other_than_the_one_read() -> None:
    # A state whose knowledge was read from one list, folded on over another list
    # whose next play is another player's: the run must not take the first list's
    # pair for it.
    checked = 0
    for seed in range(40):
        record = random_game(90_000 + seed, "fuchsen", 5, hands=False)
        variant, rules, events, _ = prepare(record)
        plays = [k for k, (_, e) in enumerate(events) if e["type"] == "play"]
        k = plays[len(plays) // 2]  # a play in a later trick
        try:
            state, _ = fold(variant, rules, events, events[k - 1][0])  # up to k
        except Exception:
            continue  # the partner is open
        if type(state.know) is not ReadKnowledge or state.decision is not None:
            continue
        other = list(events)
        event = events[k][1]
        later = next(
            e for _, e in events[k + 1 :] if e["type"] == "play" and e["player"] != event["player"]
        )
        other[k] = (events[k][0], {**event, "player": later["player"], "card": later["card"]})
        got = [
            fold(variant, rules, other, -1, start=(state, k), runs=runs) for runs in (True, False)
        ]
        assert got[0][1] is not None and got[0][1].code == "not_your_turn"
        assert got[0][1] == got[1][1]
        assert got[0][0] == got[1][0]
        checked += 1
    assert checked > 20
