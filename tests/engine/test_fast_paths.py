"""The engine's hand-written shortcuts keep the contracts of what they replace."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import random
from typing import Any

import pytest

from engine import replay
from engine.cards import CODES
from engine.core import Decision, NeedPartner, worse_error
from engine.generate import random_game
from engine.replay import VARIANTS, RecordError, fold, prepare
from engine.result import EngineError, Result
from engine.rules import effective_rules
from tests.engine._shared import CORPORA, CORPUS, load, need
from tests.engine.folds import fold_both, partner_needed, state_fields
from tests.engine.records import call, deal, plays

# ``engine.replay`` the module (the package exports the function under that name).
replay_module = importlib.import_module("engine.replay")


@pytest.mark.parametrize("cls", [Result, Decision])
def test_a_written_out_init_takes_the_fields_in_order_with_their_defaults(cls: type) -> None:
    # Result and Decision write their __init__ out (one __dict__ instead of a setattr
    # per field): the parameters must stay the dataclass fields, so that replace() and
    # callers keep working.
    params = list(inspect.signature(cls).parameters.values())
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        expected = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        assert p.default == expected, f.name


def test_result_finished_is_the_plain_finished_result() -> None:
    fields: dict[str, Any] = {
        "game": "fuchsen",
        "contract": "partner",
        "declarers": ("anna", "bert"),
        "won": False,
        "value": 20,
        "reason": "played_out",
        "tricks": 6,
        "payouts": {"anna": -20, "bert": -20, "carl": 20, "dora": 20},
    }
    extra: dict[str, Any] = {"level": "re", "has_level": True, "augen": (40, 81)}
    for more in ({}, extra):
        made = Result.finished(**fields, **more)
        assert made == Result(status="finished", has_won=True, **fields, **more)
        assert made.__dict__ == Result(status="finished", has_won=True, **fields, **more).__dict__


def test_result_stays_a_frozen_value() -> None:
    result = Result(status="invalid", game="fuchsen", error=EngineError(3, "x", "y"))
    assert dataclasses.replace(result, game=None) == Result("invalid", error=result.error)
    assert result == Result("invalid", "fuchsen", error=EngineError(3, "x", "y"))
    try:
        result.status = "finished"  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:  # pragma: no cover
        raise AssertionError("Result must stay frozen")


# ----------------------------------------------------------------- candidate partners


def _candidate_starts(record: Any) -> list[tuple[Any, Any]] | None:
    """Per candidate partner: the fold going on from ``Variant.assume_partner`` and the
    plain fold from the start, event by event, with him assumed; None without one."""
    needed = partner_needed(record)
    if needed is None:
        return None
    variant, rules, events, undo_error, found = needed
    out = []
    for q in found.candidates:
        pair: list[tuple[Any, Any]] = []
        for start in (variant.assume_partner(found, q), None):
            try:
                state, error = fold(
                    variant, rules, events, undo_error, (q, found.called), start=start
                )
                pair.append((state_fields(state), error))
            except NeedPartner as again:  # pragma: no cover - a candidate is never asked
                pair.append(("partner", again.candidates))
        out.append((pair[0], pair[1]))
    return out


def _plain_replay(record: Any) -> dict[str, Any]:
    """Hindsight rule 4 as the spec words it: undo resolved first, every candidate
    replayed from the start, event by event, and the results compared whole."""
    try:
        variant, rules, events, undo_error = prepare(record)
    except RecordError:
        return replay(record).to_dict()
    try:
        state, error = fold(variant, rules, events, undo_error, runs=False)
    except NeedPartner as need:
        results: list[Result] = []
        errors: list[EngineError] = []
        for q in need.candidates:
            state, error = fold(variant, rules, events, undo_error, (q, need.called), runs=False)
            if error is not None:
                errors.append(error)
            else:
                results.append(variant.result(state))
        if not results:
            worst = functools.reduce(worse_error, errors)
            return Result("invalid", variant.name, error=worst).to_dict()
        keys = [{k: v for k, v in r.to_dict().items() if k != "declarers"} for r in results]
        first = results[0]
        if len(results) == 1:
            return first.to_dict()
        if any(key != keys[0] for key in keys):
            return replay_module._awaiting_partner(first).to_dict()
        declarers = first.declarers[:1] if first.declarers else first.declarers
        return dataclasses.replace(first, declarers=declarers).to_dict()
    if error is not None:
        return Result("invalid", variant.name, error=error).to_dict()
    return variant.result(state).to_dict()


def _mutations(record: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """The record, some prefixes, and copies with an event dropped, two swapped or a
    raise by another player (so that candidates fail at different events)."""
    events = record["events"]
    out = [record]
    for cut in range(2, len(events)):
        out.append({**record, "events": events[:cut]})
    for _ in range(6):
        changed = list(events)
        i = rng.randrange(2, len(events))
        j = rng.randrange(2, len(events))
        what = rng.randrange(3)
        if what == 0:
            del changed[i]
        elif what == 1:
            changed[i], changed[j] = changed[j], changed[i]
        else:
            players = record["events"][0]["players"]
            levels = ("kontra", "re", "supp", "mort")
            changed.insert(
                i,
                {"type": "raise", "player": rng.choice(players), "level": rng.choice(levels)},
            )
        out.append({**record, "events": changed})
    return out


def test_candidates_go_on_after_the_call_as_the_plain_fold_would() -> None:
    rng = random.Random(7)
    checked = 0
    for seed in range(300):
        seats = (4, 5, 6)[seed % 3]
        record = random_game(seed, "fuchsen", seats, hands=False)
        for variant_record in _mutations(record, rng):
            pairs = _candidate_starts(variant_record)
            if pairs is None:
                continue
            for resumed, plain in pairs:
                checked += 1
                assert resumed == plain, (seed, variant_record["events"])
    assert checked > 2000


def test_replay_with_candidates_equals_the_plain_replay() -> None:
    rng = random.Random(11)
    awaiting = shared = 0
    for seed in range(200):
        for game, seats in (("fuchsen", 5), ("fuchsen", 4), ("fuchsen", 6), ("koenigrufen", 4)):
            record = random_game(seed, game, seats, hands=False)
            if game == "fuchsen" and seed % 4 == 0:
                # A game worth nothing pays nothing whoever the partner is: then the
                # candidates' results agree but for the partner.
                record["rules"] = {"min_value": 0}
            for variant_record in _mutations(record, rng)[:12]:
                got = replay(variant_record).to_dict()
                assert got == _plain_replay(variant_record), variant_record
                awaiting += got.get("awaiting") == "partner"
                shared += got.get("value") == 0 and len(got.get("declarers", ())) == 1
    assert awaiting > 100
    assert shared > 10


def test_replay_with_candidates_equals_the_plain_replay_on_the_corpus() -> None:
    for corpus in CORPORA:
        need(corpus)
        for n, case in enumerate(load(corpus)):
            record = case["record"]
            assert replay(record).to_dict() == _plain_replay(record), (corpus.name, n)


# ----------------------------------------------------------------- knowledge


def test_only_placing_types_place_cards() -> None:
    # gather_knowledge skips the placements hook for the other event types.
    records = [random_game(seed, "fuchsen", 5 + seed % 2, hands=False) for seed in range(40)]
    records += [random_game(seed, "koenigrufen", 4, hands=False) for seed in range(40)]
    if CORPUS.exists():
        records += [case["record"] for case in load(CORPUS)]
    seen: set[tuple[str, str]] = set()
    for record in records:
        game = record.get("game") if isinstance(record, dict) else None
        variant = VARIANTS.get(game) if isinstance(game, str) else None
        if variant is None or not isinstance(record.get("events"), list):
            continue
        try:
            table = variant.validate_deal(record["events"][0], effective_rules(variant.name, None))
        except Exception:
            continue
        for event in record["events"]:
            typ = event.get("type") if isinstance(event, dict) else None
            if not isinstance(typ, str) or typ in variant.placing_types:
                continue
            seen.add((variant.name, typ))
            try:
                pairs = variant.placements(event, table)
            except (KeyError, TypeError, AttributeError):
                continue
            assert pairs == [], (variant.name, event)
    assert {("fuchsen", "raise"), ("koenigrufen", "pass")} <= seen


# ----------------------------------------------------------------- runs


@pytest.mark.parametrize("contract", [None, "alone"])
def test_runs_go_on_around_a_blank_in_the_trick_as_the_plain_fold(contract: str | None) -> None:
    # A run may start with the Macher's identified blank in the trick (partner games)
    # and with a raise or an end of the raising; every prefix puts the run's start and
    # end somewhere else.
    checked = 0
    for seed in range(120):
        seats = (4, 5, 6)[seed % 3]
        record = random_game(seed, "fuchsen", seats, hands=seed % 2 == 0, contract=contract)
        if "turned" not in record["events"][1]:
            continue
        checked += 1
        for cut in range(2, len(record["events"]) + 1):
            both = fold_both({**record, "events": record["events"][:cut]})
            assert both is not None
            assert both[0] == both[1], (seed, cut)
    assert checked > 10


def test_runs_take_the_fuchs_as_the_plain_fold() -> None:
    # The Hilfer's Fuchs with his first card is folded in the run; every prefix and a
    # Fuchs said by someone else, or with a later card, is left to apply.
    checked = 0
    for seed in range(150):
        record = random_game(seed, "fuchsen", 4 + seed % 3, hands=seed % 2 == 0)
        events = record["events"]
        fuchs = [k for k, e in enumerate(events) if e.get("fuchs") is True]
        if not fuchs:
            continue
        checked += 1
        variants = [events[:cut] for cut in range(2, len(events) + 1)]
        for k in range(2, len(events)):
            if events[k]["type"] == "play" and k != fuchs[0]:
                moved = [dict(e) for e in events]
                moved[k]["fuchs"] = True
                variants.append(moved)
        for changed in variants:
            both = fold_both({**record, "events": changed})
            assert both is not None
            assert both[0] == both[1], (seed, changed)
    assert checked > 20


# ----------------------------------------------------------------- undo


def _with_undos(record: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Copies of the record with ``undo`` events put in (first, anywhere, after the
    end, malformed, several in a row, after an illegal event)."""
    events = record["events"]
    out = []
    for _ in range(8):
        changed = list(events)
        for _ in range(rng.randrange(1, 4)):
            undo: Any = {"type": "undo"}
            if rng.random() < 0.15:
                undo = {"type": "undo", "player": "anna"}
            changed.insert(rng.randrange(0, len(changed) + 1), undo)
        if rng.random() < 0.3:
            changed.insert(rng.randrange(1, len(changed)), {"type": "play", "card": "EO"})
        out.append({**record, "events": changed})
    out.append({**record, "events": [{"type": "undo"}, *events]})
    out.append({**record, "events": [*events, {"type": "undo"}, {"type": "undo"}]})
    return out


def test_replay_finds_an_undo_as_the_resolved_replay() -> None:
    rng = random.Random(3)
    for seed in range(60):
        for game, seats in (("fuchsen", 5), ("fuchsen", 6), ("koenigrufen", 4)):
            record = random_game(seed, game, seats, hands=seed % 2 == 0)
            for changed in _with_undos(record, rng):
                expected = replay_module._replay_resolved(changed).to_dict()
                assert replay(changed).to_dict() == expected, changed


def test_runs_around_a_blank_the_record_never_identifies_as_the_plain_fold() -> None:
    # Before the Macher's face-down play the record does not say which card he turned:
    # the run takes every card but the Macher's in a trick he did not lead. Each such
    # prefix is tried with its last card replaced by every card of the deck, so that
    # the Macher (and the others) keep and break their obligations in every way.
    checked = macher = 0
    for seed in range(400):
        record = random_game(seed, "fuchsen", 4 + seed % 3, hands=seed % 4 == 0)
        events = record["events"]
        if "turned" not in events[1] or events[1]["turned"] is not True:
            continue
        down = next(
            (k for k, e in enumerate(events) if e.get("turned") is True and k > 1), len(events)
        )
        players = events[0]["players"]
        for cut in range(3, down + 1):
            last = events[cut - 1]
            if last["type"] != "play":
                continue
            checked += 1
            macher += last["player"] == events[1]["player"]
            for code in CODES:
                changed = [*events[: cut - 1], {**last, "card": code}]
                both = fold_both({**record, "events": changed})
                assert both is not None
                assert both[0] == both[1], (seed, changed)
            # and a play by someone else, which the run must leave to apply as well
            seat = (players.index(last["player"]) + 1) % len(players)
            other = {**last, "player": players[seat]}
            both = fold_both({**record, "events": [*events[: cut - 1], other]})
            assert both is not None and both[0] == both[1], (seed, cut)
    assert checked > 50
    assert macher > 10


def test_the_macher_follows_the_called_suit_with_a_blank_the_record_never_shows() -> None:
    # His blank follows the called suit: a trump or another suit he plays face up
    # breaks that, though the record never says which card the blank is. The run
    # must leave his card to apply, which words the error.
    start = [deal(dealer="anna"), call("bert", "GA", turned=True)]
    start += plays("bert:S9 carl:SA dora:S8 emil:S10")
    start += [
        {"type": "raise", "player": "emil", "level": "kontra"},
        {"type": "raise", "player": "bert", "level": "re"},
        *plays("anna:SK carl:G9 dora:G8 emil:GK anna:G10"),
    ]
    for last, code in (("bert:RO", "must_follow_suit"), ("bert:E7", "must_follow_suit")):
        record = {"game": "fuchsen", "events": [*start, *plays(last)]}
        both = fold_both(record)
        assert both is not None and both[0] == both[1]
        error = replay(record).error
        assert error is not None and (error.index, error.code) == (13, code)


def test_runs_take_a_call_with_a_turned_card_as_the_plain_fold() -> None:
    # The run takes ``{type, player, card, turned}`` with turned true or a card code of
    # the deck; every other value (a removed card, no card, another kind) is apply's.
    values: list[Any] = [*CODES, "XX", True, False, None, 7, ["EA"]]
    checked = 0
    for seed in range(60):
        record = random_game(seed, "fuchsen", 4 + seed % 3, hands=seed % 2 == 0)
        events = record["events"]
        call_event = events[1]
        if "card" not in call_event:
            continue
        for value in values:
            turned = {**call_event, "turned": value}
            for cut in (2, 4, len(events)):
                changed = [events[0], turned, *events[2:cut]]
                both = fold_both({**record, "events": changed})
                assert both is not None
                assert both[0] == both[1], (seed, value, cut)
                checked += 1
    assert checked > 3000


# ----------------------------------------------------------------- shared first trick


def _trick_one_mutations(record: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """``_mutations`` and more changes inside the first trick, where the candidates
    share their fold: raises by anyone at any level, a Fuchs, the called card played,
    a card of the called suit led, a play by the wrong player."""
    events = record["events"]
    out = _mutations(record, rng)
    players = events[0]["players"]
    called = events[1].get("card")
    levels = ("kontra", "re", "supp", "mort", "bogus")
    for _ in range(10):
        changed = [dict(e) for e in events]
        i = rng.randrange(2, min(len(events), 9) + 1)
        what = rng.randrange(5)
        if what == 0:
            changed.insert(
                i, {"type": "raise", "player": rng.choice(players), "level": rng.choice(levels)}
            )
        elif what == 1 and i < len(changed) and changed[i]["type"] == "play":
            changed[i]["fuchs"] = True
        elif what == 2 and isinstance(called, str) and i < len(changed):
            changed[i] = {**changed[i], "card": called}
        elif what == 3 and i < len(changed) and changed[i]["type"] == "play":
            changed[i] = {**changed[i], "player": rng.choice(players)}
        else:
            changed.insert(i, {"type": "end_raising"})
        out.append({**record, "events": changed})
    return out


def _shared_starts(record: Any) -> tuple[list[tuple[Any, Any]], bool, bool] | None:
    """Per candidate: the fold going on from where ``share_prefix`` left him and the
    plain fold from the start, event by event, with him assumed; whether the sharing
    folded anything, and whether it ended with an end of the raising each candidate
    settles. None without candidates."""
    needed = partner_needed(record)
    if needed is None:
        return None
    variant, rules, events, undo_error, found = needed
    position = found.position
    variant.share_prefix(found, events, len(events))
    moved = found.resume > position + 1 or bool(found.starts)
    out = []
    for q in found.candidates:
        start = variant.assume_partner(found, q)
        pair = []
        for begin in (start, None):
            state, error = fold(
                variant, rules, events, undo_error, (q, found.called), start=begin, runs=False
            )
            pair.append((state_fields(state), error))
        out.append((pair[0], pair[1]))
    return out, moved, found.end_raising


@pytest.mark.parametrize("strict", [False, True])
def test_candidates_shared_first_trick_equals_each_candidates_plain_fold(strict: bool) -> None:
    rng = random.Random(13)
    checked = moved = left = settled = 0
    for seed in range(300):
        seats = (4, 5, 6)[seed % 3]
        record = random_game(seed, "fuchsen", seats, hands=False)
        record["rules"] = {"strict_raise_windows": strict}
        for changed in _trick_one_mutations(record, rng):
            got = _shared_starts(changed)
            if got is None:
                continue
            pairs, shared, ended = got
            moved += shared
            settled += ended
            for resumed, plain in pairs:
                checked += 1
                assert resumed == plain, (seed, changed["events"])
            left += sum(
                1 for resumed, plain in pairs if resumed[1] is not None and plain[1] is not None
            )
    assert checked > 3000
    assert moved > 500  # the sharing did fold events in many records
    assert left > 100  # and candidates failed (raises, the called suit) after it
    assert settled > 200  # and the candidates settled the end of the raising from it


def test_replay_with_a_shared_first_trick_equals_the_plain_replay() -> None:
    rng = random.Random(17)
    for seed in range(150):
        for seats in (4, 5, 6):
            record = random_game(seed, "fuchsen", seats, hands=False)
            if seed % 3 == 0:
                record["rules"] = {"strict_raise_windows": True}
            for changed in _trick_one_mutations(record, rng):
                assert replay(changed).to_dict() == _plain_replay(changed), changed
