"""``Variant.judge_cards`` (the table view's cards, judged at once from masks) gives each
card of the deck exactly what ``check_card`` gives it alone: the same card accepted,
the same error refused. A card the record places in no hand is judged, as its play
would place it, with the card placed in the player's hand (``Knowledge.with_card``):
the masks must not miss anything that placing changes."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import bits
from engine.core import GameState, NeedPartner
from engine.generate import random_game
from engine.replay import candidate_folds, fold, prepare


def _states(record: dict[str, Any]) -> list[GameState]:
    """The states after ``record``: one, or one per candidate partner still possible."""
    variant, rules, events, undo_error = prepare(record)
    try:
        state, error = fold(variant, rules, events, undo_error)
    except NeedPartner as need:
        return [s for s, e in candidate_folds(variant, rules, events, undo_error, need) if not e]
    return [] if error is not None else [state]


def _one_by_one(state: GameState, p: int, card: int) -> Any:
    """``check_card`` of ``card`` alone, placed in ``p``'s hand where the record places
    it nowhere (as its play would)."""
    know = state.know
    assert know is not None
    if know.owner[card] < 0 and not know.full(p):
        placed = state.copy()
        placed.know = know.with_card(p, card)
        return state.variant.check_card(placed, p, card)
    return state.variant.check_card(state, p, card)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([("fuchsen", 4), ("fuchsen", 5), ("fuchsen", 6), ("koenigrufen", 4)]),
    st.integers(0, 100_000),
    st.booleans(),
    st.data(),
)
def test_every_card_is_judged_at_once_as_check_card_judges_it_alone(
    table: tuple[str, int], seed: int, hands: bool, data: st.DataObject
) -> None:
    game, seats = table
    record = random_game(seed, game, seats, hands=hands)
    cut = data.draw(st.integers(1, len(record["events"])), label="cut")
    for state in _states({**record, "events": record["events"][:cut]}):
        p = state.to_act
        variant = state.variant
        if state.phase != "play" or p < 0 or state.decision is not None or state.annulled:
            continue
        if variant.plays_face_down(state, p) is not None:
            continue  # judged card by card, face up and face down (``engine.view``)
        assert state.table is not None
        legal, refused = variant.judge_cards(state, p)
        for card in bits(state.table.deck & ~state.played):
            alone = _one_by_one(state, p, card)
            if alone is None:
                assert legal >> card & 1 and card not in refused
            else:
                assert not legal >> card & 1
                got = refused[card]
                assert (got.code, got.msg, got.params) == (alone.code, alone.msg, alone.params)
