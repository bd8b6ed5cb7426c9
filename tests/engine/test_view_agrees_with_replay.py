"""The table view offers a move exactly when appending it keeps the record valid (a
card it offers may instead prove an earlier entry wrong, which the page then corrects): for
random prefixes of random legal games and of their mutations, with and without hands,
each card of the deck played by the player to act, each raise, the end of the raising,
each bid, pass and join (and a tally the view does not offer is refused)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import replay, table_view
from engine.cards import CODES
from engine.generate import random_game
from engine.koenigrufen import CONTRACTS, WITH_CALLED
from engine.rules import FUCHSEN_LEVELS


def _valid(record: dict[str, Any], event: dict[str, Any]) -> bool:
    return replay({**record, "events": [*record["events"], event]}).status != "invalid"


def _playable(record: dict[str, Any], event: dict[str, Any]) -> bool:
    """Does appending the play keep the record valid, or does it prove an earlier
    entry wrong (an error at an earlier event, in hindsight)? The page offers such a
    card, as it was played at the table, and then corrects the earlier entry."""
    result = replay({**record, "events": [*record["events"], event]})
    error = result.error
    return result.status != "invalid" or (error is not None and error.index < len(record["events"]))


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
    cut = data.draw(st.integers(1, len(record["events"])), label="cut")
    return {**record, "events": record["events"][:cut]}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_card_is_offered_when_its_play_keeps_the_record_valid_and_only_then_or_in_hindsight(
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
        play = {"type": "play", "player": player, "card": code}
        # ``cards`` holds the Macher's cards he may play face down as his turned card too.
        down = {**play, "turned": True}
        if _valid(record, play) or (turned and _valid(record, down)):
            assert code in view.legal.cards, (code, record)
        if code in view.legal.cards:
            assert _playable(record, play) or (turned and _playable(record, down)), (code, record)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
    if view.tally is None:
        for won in (True, False):
            assert not _valid(record, {"type": "tally", "won": won}), record
