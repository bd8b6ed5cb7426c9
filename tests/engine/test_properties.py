"""Properties of random legal games (engine.generate), checked with hypothesis.

Each random game is generated from a seed with the engine's own legal-move view; the
properties then replay it, or a copy with one illegal change, from scratch.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import replay, table_view
from engine.generate import random_game
from engine.koenigrufen import CONTRACTS
from engine.rules import FUCHSEN_LEVELS

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)
fuchsen_games = st.tuples(seeds, st.sampled_from([4, 5, 6]), st.sampled_from(["partner", "alone"]))
koenig_games = st.tuples(seeds, st.sampled_from([*CONTRACTS, "schurln"]))


def _fuchsen(seed: int, seats: int, contract: str | None = None) -> dict[str, Any]:
    if contract == "alone":
        # Six trumps are rare: redraw from nearby seeds rather than filter in hypothesis.
        return random_game(seed, "fuchsen", seats, contract="alone")
    return random_game(seed, "fuchsen", seats, contract=contract)


@SETTINGS
@given(fuchsen_games)
def test_random_legal_fuchsen_games_finish_with_zero_sum_payouts(
    game: tuple[int, int, str],
) -> None:
    seed, seats, contract = game
    record = _fuchsen(seed, seats, contract)
    result = replay(record)
    assert result.status == "finished", result.to_dict()
    assert result.contract == contract
    assert result.payouts is not None and sum(result.payouts.values()) == 0
    assert set(result.payouts) == set(record["events"][0]["players"])


@SETTINGS
@given(koenig_games)
def test_random_legal_koenigrufen_games_finish_with_zero_sum_payouts(game: tuple[int, str]) -> None:
    seed, contract = game
    record = random_game(seed, "koenigrufen", 4, contract=contract)
    result = replay(record)
    assert result.status == "finished", result.to_dict()
    assert result.contract == contract
    assert result.payouts is not None and sum(result.payouts.values()) == 0


@SETTINGS
@given(
    st.tuples(
        seeds, st.sampled_from([("fuchsen", 4), ("fuchsen", 5), ("fuchsen", 6), ("koenigrufen", 4)])
    )
)
def test_removing_the_hands_never_makes_a_legal_record_invalid(
    game: tuple[int, tuple[str, int]],
) -> None:
    seed, (name, seats) = game
    record = random_game(seed, name, seats, hands=False)
    assert replay(record).status != "invalid"


def _plays(record: dict[str, Any]) -> list[int]:
    return [i for i, e in enumerate(record["events"]) if e["type"] == "play"]


def _assert_error_at(record: dict[str, Any], index: int, codes: set[str]) -> None:
    result = replay(record)
    assert result.status == "invalid", result.to_dict()
    assert result.error is not None
    assert (result.error.index, result.error.code in codes) == (index, True), result.error


game_choice = st.tuples(
    seeds,
    st.sampled_from([("fuchsen", 4), ("fuchsen", 5), ("fuchsen", 6), ("koenigrufen", 4)]),
    st.randoms(use_true_random=False),
)


@SETTINGS
@given(game_choice)
def test_a_card_breaking_an_obligation_is_reported_at_that_event(game: Any) -> None:
    seed, (name, seats), rnd = game
    record = random_game(seed, name, seats)
    hands = record["events"][0]["hands"]
    candidates = []
    plays = _plays(record)
    # In Königrufen's first trick a face-down card may be the only legal one: skip it.
    for i in plays[4:] if name == "koenigrufen" else plays:
        prefix = {**record, "events": record["events"][:i]}
        view = table_view(prefix)
        player = record["events"][i]["player"]
        played = {e["card"] for e in record["events"][:i] if e["type"] == "play"}
        held = [c for c in hands[player] if c not in played]
        illegal = [c for c in held if c not in view.legal.cards]
        if illegal and len(view.trick) > 0:
            candidates.append((i, rnd.choice(illegal)))
    assume(candidates)
    i, card = rnd.choice(candidates)
    bad = copy.deepcopy(record)
    bad["events"][i] = {"type": "play", "player": bad["events"][i]["player"], "card": card}
    _assert_error_at(bad, i, {"must_follow_suit", "must_overtake", "must_trump"})


@SETTINGS
@given(game_choice)
def test_a_card_played_twice_is_reported_at_the_second_time(game: Any) -> None:
    seed, (name, seats), rnd = game
    record = random_game(seed, name, seats, hands=rnd.random() < 0.5)
    plays = _plays(record)
    assume(len(plays) > seats)
    i = rnd.choice(plays[seats:])
    earlier = rnd.choice([record["events"][j]["card"] for j in plays if j < i])
    bad = copy.deepcopy(record)
    bad["events"][i]["card"] = earlier
    bad["events"][i].pop("turned", None)
    _assert_error_at(bad, i, {"card_already_played"})


@SETTINGS
@given(game_choice)
def test_a_play_out_of_turn_is_reported_at_that_event(game: Any) -> None:
    seed, (name, seats), rnd = game
    record = random_game(seed, name, seats)
    i = rnd.choice(_plays(record))
    events = record["events"]
    event = events[i]
    hands = events[0]["hands"]
    played = {e["card"] for e in events[:i] if e["type"] == "play"}
    # Another player plays one of his own cards: only the turn is wrong.
    others = [p for p in hands if p != event["player"] and set(hands[p]) - played]
    assume(others)
    other = rnd.choice(others)
    card = rnd.choice([c for c in hands[other] if c not in played])
    bad = copy.deepcopy(record)
    bad["events"][i] = {"type": "play", "player": other, "card": card}
    if rnd.random() < 0.5:
        del bad["events"][0]["hands"]
    _assert_error_at(bad, i, {"not_your_turn"})


def _first_trick_span(record: dict[str, Any]) -> list[int]:
    """Positions inside the raising: after the first card, up to the end of the raising
    (the ``end_raising`` event or the first card of trick 2)."""
    events = record["events"]
    plays = _plays(record)
    active = len(events[0]["hands"])
    ends = [i for i, e in enumerate(events) if e["type"] == "end_raising"]
    if len(plays) > active:
        ends.append(plays[active])
    end = min(ends) if ends else len(events)
    return list(range(plays[0] + 1, end + 1))


def _level_before(record: dict[str, Any], position: int) -> int:
    return sum(1 for e in record["events"][:position] if e["type"] == "raise")


@SETTINGS
@given(st.tuples(seeds, st.sampled_from([4, 5, 6]), st.randoms(use_true_random=False)))
def test_a_raise_by_the_wrong_side_is_reported_at_that_event(game: Any) -> None:
    seed, seats, rnd = game
    record = random_game(seed, "fuchsen", seats)
    result = replay(record)
    declarers = set(result.declarers or ())
    position = rnd.choice(_first_trick_span(record))
    events = record["events"]
    k = _level_before(record, position) + 1
    assume(k <= len(FUCHSEN_LEVELS))
    have_played = [e["player"] for e in events[:position] if e["type"] == "play"]
    wrong = [p for p in have_played if (p in declarers) != (k % 2 == 0)]
    assume(wrong)
    bad = copy.deepcopy(record)
    raise_event = {"type": "raise", "player": rnd.choice(wrong), "level": FUCHSEN_LEVELS[k - 1]}
    bad["events"].insert(position, raise_event)
    _assert_error_at(bad, position, {"invalid_raise"})


@SETTINGS
@given(st.tuples(seeds, st.sampled_from([4, 5, 6]), st.randoms(use_true_random=False)))
def test_a_raise_after_its_chance_lapsed_is_reported_at_that_event(game: Any) -> None:
    seed, seats, rnd = game
    record = random_game(seed, "fuchsen", seats)
    result = replay(record)
    declarers = set(result.declarers or ())
    events = record["events"]
    span = [p for p in _first_trick_span(record) if events[p - 1]["type"] == "play"]
    options = []
    for position in span:
        k = _level_before(record, position) + 1
        if k > len(FUCHSEN_LEVELS):
            continue
        said = max([i for i, e in enumerate(events[:position]) if e["type"] in ("raise", "call")])
        for j, e in enumerate(events[:position]):
            if e["type"] != "play" or (e["player"] in declarers) != (k % 2 == 0):
                continue
            first = min(
                i
                for i, f in enumerate(events)
                if f["type"] == "play" and f["player"] == e["player"]
            )
            opened = max(first, said)
            if any(f["type"] == "play" for f in events[opened + 1 : position]) and j == first:
                options.append((position, e["player"], FUCHSEN_LEVELS[k - 1]))
    assume(options)
    position, player, level = rnd.choice(options)
    bad = copy.deepcopy(record)
    bad["events"].insert(position, {"type": "raise", "player": player, "level": level})
    _assert_error_at(bad, position, {"invalid_raise"})


@SETTINGS
@given(game_choice)
def test_the_views_legal_cards_are_exactly_those_the_replay_accepts(game: Any) -> None:
    seed, (name, seats), rnd = game
    record = random_game(seed, name, seats)
    events = record["events"]
    i = rnd.choice(_plays(record))
    prefix = {**record, "events": events[:i]}
    view = table_view(prefix)
    player = events[i]["player"]
    played = {e["card"] for e in events[:i] if e["type"] == "play"}
    for card in events[0]["hands"][player]:
        if card in played:
            continue
        play = {"type": "play", "player": player, "card": card}
        accepted = replay({**record, "events": [*events[:i], play]}).status != "invalid"
        if not accepted and name == "fuchsen":
            # The Macher's turned card is played face down.
            turned = {**play, "turned": True}
            accepted = replay({**record, "events": [*events[:i], turned]}).status != "invalid"
        assert accepted == (card in view.legal.cards), (card, view.legal.cards)


# Any JSON value: what a record read from a file or the network may hold anywhere.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    game=st.sampled_from(["fuchsen", "koenigrufen"]),
    hands=st.booleans(),
    where=st.integers(0, 10_000),
    field=st.sampled_from(["type", "player", "card", "level", "contract", "called", "extra"]),
    value=JSON_VALUES,
    whole=st.booleans(),
)
def test_any_json_value_in_any_field_of_any_event_is_judged_and_never_raises(
    seed: int, game: str, hands: bool, where: int, field: str, value: Any, whole: bool
) -> None:
    record = random_game(seed, game, 5 if game == "fuchsen" else 4, hands=hands)
    events = record["events"]
    index = where % len(events)
    if whole:
        events[index] = value
    else:
        events[index][field] = value
    result = replay(record)  # "never raises": a list as an event's type once did
    assert result.status in {"invalid", "in_progress", "finished", "annulled"}
    table_view(record)
