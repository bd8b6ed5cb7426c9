"""The fold owns one state and each handler changes it in place, checking first: an
event refused (``Illegal``) or waiting for the partner (``NeedPartner``) leaves the
state exactly as the events before it left it, and ``apply`` never changes its input.

Random prefixes of random games (with and without hands), their next event replaced
by another event of the game, legal or not."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import CODES
from engine.core import GameState, NeedPartner
from engine.generate import random_game
from engine.replay import apply, fold, prepare
from engine.rules import FUCHSEN_LEVELS
from tests.engine._shared import state_fields

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)
games = st.tuples(
    st.sampled_from([("fuchsen", 4), ("fuchsen", 5), ("fuchsen", 6), ("koenigrufen", 4)]),
    st.booleans(),
)
# A generated game of each kind, with or without the deal's hands.
records = st.builds(
    lambda seed, spec: random_game(seed, spec[0][0], spec[0][1], hands=spec[1]), seeds, games
)


def _events(game: str, players: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Any event of ``game`` its handlers take, with fields of the right kinds."""
    player = st.sampled_from(players)
    card = st.sampled_from(CODES)
    common = [
        st.fixed_dictionaries({"type": st.just("play"), "player": player, "card": card}),
        st.fixed_dictionaries(
            {"type": st.just("show"), "player": player, "cards": st.lists(card, max_size=3)}
        ),
        st.fixed_dictionaries({"type": st.just("forfeit"), "player": player}),
        st.just({"type": "annul"}),
    ]
    if game == "fuchsen":
        own = [
            st.fixed_dictionaries(
                {"type": st.just("play"), "player": player, "card": card},
                optional={"fuchs": st.booleans(), "turned": st.booleans()},
            ),
            st.fixed_dictionaries(
                {"type": st.just("call"), "player": player},
                optional={"card": card, "turned": st.one_of(st.booleans(), card)},
            ),
            st.fixed_dictionaries(
                {"type": st.just("call"), "player": player, "alone": st.just(True)}
            ),
            st.fixed_dictionaries(
                {
                    "type": st.just("raise"),
                    "player": player,
                    "level": st.sampled_from(FUCHSEN_LEVELS),
                }
            ),
            st.just({"type": "end_raising"}),
            st.fixed_dictionaries(
                {"type": st.just("tally")},
                optional={
                    "won": st.booleans(),
                    "augen": st.integers(0, 121),
                    "fuchs": st.booleans(),
                    "silent": st.booleans(),
                    "partner": player,
                },
            ),
        ]
    else:
        contracts = ["rufer", "trischaken", "bettler", "plauderer", "durchmarsch", "solo"]
        own = [
            st.fixed_dictionaries(
                {"type": st.just("bid"), "player": player, "contract": st.sampled_from(contracts)},
                optional={"called": card, "card": card},
            ),
            st.fixed_dictionaries({"type": st.just("pass"), "player": player}),
            st.fixed_dictionaries(
                {"type": st.just("join"), "player": player}, optional={"card": card}
            ),
            st.fixed_dictionaries(
                {"type": st.just("tally")},
                optional={
                    "won": st.booleans(),
                    "partner": player,
                    "losers": st.lists(player, min_size=1, max_size=3),
                },
            ),
        ]
    return st.one_of(*common, *own)


def _before_and_after(record: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The fields of the fold's state after the record's last event but one, and as the
    fold reports it where the last event is refused or needs the partner (the last
    good state, ``NeedPartner.state``); None where the last event is accepted."""
    variant, rules, events, undo_error = prepare(record)
    last = len(events) - 1
    kept: list[GameState] = []

    def keep(state: GameState, _event: object, i: int) -> None:
        if i == last - 1:
            kept.append(state.copy())  # the fold goes on changing its own

    try:
        state, error = fold(variant, rules, events, undo_error, visit=keep)
        if error is None or error.index != last:
            return None
    except NeedPartner as need:
        # Nothing kept: the call before it opened the candidates, and a visitor's fold
        # stops right after it (``Variant.open_partner``), the last event not judged.
        if need.position != last or not kept:
            return None
        assert need.state is not None
        state = need.state
    return state_fields(kept[0]), state_fields(state)


@SETTINGS
@given(records, st.data())
def test_an_event_refused_or_waiting_for_the_partner_changes_nothing(
    record: dict[str, Any], data: st.DataObject
) -> None:
    game = record["game"]
    events = record["events"]
    k = data.draw(st.integers(min_value=1, max_value=len(events)), label="position")
    event = data.draw(_events(game, events[0]["players"]), label="event")
    states = _before_and_after({**record, "events": [*events[:k], event]})
    if states is not None:
        before, after = states
        assert after == before


@SETTINGS
@given(records, st.data())
def test_apply_leaves_its_input_as_it_was(record: dict[str, Any], data: st.DataObject) -> None:
    game = record["game"]
    events = record["events"]
    variant, rules, effective, _ = prepare(record)
    k = data.draw(st.integers(min_value=1, max_value=len(events) - 1), label="position")
    try:
        state, error = fold(variant, rules, effective[:k], -1)
    except NeedPartner:
        return
    assert error is None
    fields = state_fields(state)
    event = data.draw(st.one_of(st.just(events[k]), _events(game, events[0]["players"])))
    try:
        new: GameState | None = apply(state, event, k)
    except Exception:
        new = None
    assert state_fields(state) == fields
    assert new is not state
