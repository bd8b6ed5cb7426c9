"""The table view offers a move exactly when appending it keeps the record valid: for
random prefixes of random legal games and of their mutations, with and without hands,
each card of the deck played by the player to act, each raise, the end of the raising,
the Macher's calls, each bid, pass and join, and the tally (whether one may stand, its
levels, partners and the silent game).

The one exception is a card whose play proves an earlier entry wrong in hindsight: the
page offers it, as it was played at the table, and then corrects the earlier entry.
Precisely: appending it gives an error at an earlier event, and that is the very error
the record gets when the card is only placed in the player's hand (a ``show`` of it
instead of the play; for the Macher's card played face down, the call naming it as his
turned card). Its play itself breaks nothing.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Result, TableView, replay, table_view
from engine.cards import CODES
from engine.generate import random_game
from engine.koenigrufen import CONTRACTS, WITH_CALLED
from engine.rules import FUCHSEN_LEVELS


def _valid(record: dict[str, Any], event: dict[str, Any]) -> bool:
    return replay({**record, "events": [*record["events"], event]}).status != "invalid"


def _replayed(record: dict[str, Any], event: dict[str, Any]) -> Result:
    return replay({**record, "events": [*record["events"], event]})


def _proves_an_earlier_entry_wrong(record: dict[str, Any], play: dict[str, Any]) -> bool:
    """Is appending ``play`` refused only for what its card proves about an earlier
    event: the same error as placing the card in the player's hand without playing it?"""
    error = _replayed(record, play).error
    if error is None or error.index >= len(record["events"]):
        return False
    if play.get("turned") is True:
        # Played face down, the card names the Macher's turned card: as if the call had.
        events = copy.deepcopy(record["events"])
        call = next(e for e in events if e["type"] == "call")
        call["turned"] = play["card"]
        placed = replay({**record, "events": events}).error
    else:
        show = {"type": "show", "player": play["player"], "cards": [play["card"]]}
        placed = _replayed(record, show).error
    return placed is not None and (placed.index, placed.code) == (error.index, error.code)


def _mutated(record: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """``record`` with one event after the deal moved, dropped or given another card
    or player."""
    out = copy.deepcopy(record)
    events = out["events"]
    if len(events) < 3:
        return out
    i = data.draw(st.integers(1, len(events) - 1), label="event")
    how = data.draw(st.sampled_from(["swap", "drop", "card", "player", "none"]), label="how")
    if how == "swap":
        j = data.draw(st.integers(1, len(events) - 1), label="other")
        events[i], events[j] = events[j], events[i]
    elif how == "drop":
        del events[i]
    elif how == "card" and "card" in events[i]:
        events[i]["card"] = data.draw(st.sampled_from(CODES), label="card")
    elif how == "player" and "player" in events[i]:
        events[i]["player"] = data.draw(st.sampled_from(events[0]["players"]), label="player")
    return out


def _prefix(data: st.DataObject) -> dict[str, Any]:
    game, seats = data.draw(
        st.sampled_from([("fuchsen", 4), ("fuchsen", 5), ("fuchsen", 6), ("koenigrufen", 4)]),
        label="table",
    )
    seed = data.draw(st.integers(0, 100_000), label="seed")
    hands = data.draw(st.booleans(), label="hands")
    record = random_game(seed, game, seats, hands=hands)
    if data.draw(st.booleans(), label="mutate"):
        record = _mutated(record, data)
    # Half the prefixes end early (the call, the first trick, the raising, the auction),
    # where most kinds of move are open.
    last = len(record["events"])
    if data.draw(st.booleans(), label="early"):
        last = min(last, 12)
    cut = data.draw(st.integers(1, last), label="cut")
    return {**record, "events": record["events"][:cut]}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_card_is_offered_exactly_when_its_play_is_valid_or_proves_an_earlier_entry_wrong(
    data: st.DataObject,
) -> None:
    record = _prefix(data)
    view = table_view(record)
    if view.status != "in_progress" or view.to_act is None:
        return
    player = view.to_act
    call = next((e for e in record["events"] if e.get("type") == "call"), None)
    turned = call is not None and call.get("player") == player and bool(call.get("turned"))
    for code in CODES:
        play: dict[str, Any] = {"type": "play", "player": player, "card": code}
        # ``cards`` holds the Macher's cards he may play face down as his turned card too.
        plays = [play, {**play, "turned": True}] if turned else [play]
        valid = any(_valid(record, p) for p in plays)
        offered = code in view.legal.cards
        if valid:
            assert offered, (code, record)
        elif offered:
            assert any(_proves_an_earlier_entry_wrong(record, p) for p in plays), (code, record)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_raises_bids_and_the_tally_are_offered_exactly_when_they_keep_the_record_valid(
    data: st.DataObject,
) -> None:
    record = _prefix(data)
    view = table_view(record)
    if view.status != "in_progress":
        return
    legal = view.legal
    if record["game"] == "fuchsen":
        for player in view.active:
            for level in FUCHSEN_LEVELS:
                event = {"type": "raise", "player": player, "level": level}
                assert ((player, level) in legal.raises) == _valid(record, event), event
        assert legal.can_end_raising == _valid(record, {"type": "end_raising"})
    elif view.to_act is not None:
        player = view.to_act
        for contract in CONTRACTS:
            bid = {"type": "bid", "player": player, "contract": contract}
            if contract in WITH_CALLED:
                valid = any(_valid(record, {**bid, "called": code}) for code in CODES)
            else:
                valid = _valid(record, bid)
            assert (contract in legal.bids) == valid, bid
        assert legal.can_pass == _valid(record, {"type": "pass", "player": player})
        assert legal.can_join == _valid(record, {"type": "join", "player": player})
    _assert_the_calls_offered_are_exactly_the_valid_ones(record, view)
    _assert_the_tally_offered_is_exactly_the_valid_one(record, view)


def _assert_the_calls_offered_are_exactly_the_valid_ones(
    record: dict[str, Any], view: TableView
) -> None:
    calls = view.legal.calls
    if record["game"] != "fuchsen" or view.to_act is None or calls is None:
        return  # the Macher is known once the record places EO
    base = {"type": "call", "player": view.to_act}
    for code in CODES:
        assert (code in calls.cards) == _valid(record, {**base, "card": code}), code
    assert calls.alone == _valid(record, {**base, "alone": True})
    for code in CODES:
        turning = {**base, "card": code, "turned": True}
        assert (code in calls.cards_turning) == _valid(record, turning), code
    if calls.turn == ("?",):
        return  # his hand is not known yet: any card he may turn is judged when named
    hand = (record["events"][0].get("hands") or {}).get(view.to_act, [])
    for code in hand:
        named = [{**base, "alone": True, "turned": code}]
        named += [{**base, "card": c, "turned": code} for c in CODES]
        assert (code in calls.turn) == any(_valid(record, call) for call in named), code


def _assert_the_tally_offered_is_exactly_the_valid_one(
    record: dict[str, Any], view: TableView
) -> None:
    """Whether a tally may stand, and (of those offered) its levels, partners and the
    silent game, against replay: every tally of ``level``/``won`` (a pure Fuchsen
    tally), ``won`` (a late one, and Königrufen's) or ``losers`` (schurln)."""
    tally = view.tally
    tallies: list[dict[str, Any]]
    if record["game"] == "fuchsen":
        levels = [None, *FUCHSEN_LEVELS]
        pure = [
            {"type": "tally", "level": lv, "won": won} for lv in levels for won in (True, False)
        ]
        late = [{"type": "tally", "won": won} for won in (True, False)]
        tallies = pure + late
    else:
        late = [{"type": "tally", "won": won} for won in (True, False)]
        tallies = late + [{"type": "tally", "losers": [name]} for name in view.active]
    valid = [t for t in tallies if _valid(record, t)]
    assert (tally is not None) == bool(valid), record
    if tally is None:
        return
    fields = tally["fields"]
    if "level" in fields:
        offered = {choice["level"] for choice in fields["level"]["choices"]}
        assert offered == {t["level"] for t in valid if "level" in t}, record
    outcomes = [t for t in tallies if "losers" not in t and ("level" in t) == ("level" in fields)]
    if "losers" not in fields:
        partners = {
            name
            for name in view.active
            if any(_valid(record, {**t, "partner": name}) for t in outcomes)
        }
        assert set(fields.get("partner", {}).get("choices", [])) == partners, record
    if record["game"] == "fuchsen":
        silent = any(_valid(record, {**t, "won": True, "silent": True}) for t in outcomes)
        assert ("silent" in fields) == silent, record


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_fuchs_is_offered_exactly_when_saying_it_with_some_card_keeps_the_record_valid(
    data: st.DataObject,
) -> None:
    record = _prefix(data)
    view = table_view(record)
    if record["game"] != "fuchsen" or view.status != "in_progress" or view.to_act is None:
        assert not view.legal.fuchs
        return
    player = view.to_act
    valid = any(
        _valid(record, {"type": "play", "player": player, "card": code, "fuchs": True, **turned})
        for code in CODES
        for turned in ({}, {"turned": True})
    )
    assert view.legal.fuchs == valid, record
