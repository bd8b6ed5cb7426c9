"""The card-play board (``engine.board``): push then pop restores it exactly, its legal
mask holds exactly the cards ``replay`` accepts as the next play, and pushing a
record's plays gives the record's trick winners and Augen."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import replay, table_view
from engine.board import Board
from engine.cards import CODES, bits
from engine.generate import random_game
from engine.replay import board_at
from tests.engine._shared import generated_games, seeds

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _game(seed: int, spec: tuple[str, int, str | None]) -> dict[str, Any]:
    game, seats, contract = spec
    return random_game(seed, game, seats, contract=contract)


def _blank_unseen(record: dict[str, Any]) -> bool:
    """A Macher turned a card face down that the record never identifies: the
    analysis' model knows it, the record does not, so there is no board."""
    events = record["events"]
    return any(e.get("turned") is True for e in events if e["type"] == "call") and not any(
        e.get("turned") is True for e in events if e["type"] == "play"
    )


def _plays(record: dict[str, Any]) -> list[int]:
    return [i for i, e in enumerate(record["events"]) if e["type"] == "play"]


def _play(board: Board, card: int) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": "play",
        "player": board.names[board.to_act],
        "card": CODES[card],
    }
    if getattr(board, "blank", -1) == card:
        event["turned"] = True  # the Macher's card turned face down is played so
    return event


@SETTINGS
@given(seeds, generated_games, st.data())
def test_push_then_pop_restores_the_board_exactly(
    seed: int, spec: tuple[str, int, str | None], data: st.DataObject
) -> None:
    record = _game(seed, spec)
    board = board_at(record)
    if board is None:
        assert _blank_unseen(record)
        return
    moves = board.pending
    k = data.draw(st.integers(min_value=0, max_value=len(moves) - 1))
    for card in moves[:k]:
        board.push(card)
    before = board.key_state()
    # Every legal card, and a few plies deep along the record.
    for card in bits(board.legal()):
        board.push(card)
        board.pop()
        assert board.key_state() == before
    depth = data.draw(st.integers(min_value=1, max_value=len(moves) - k))
    for card in moves[k : k + depth]:
        board.push(card)
    for _ in range(depth):
        board.pop()
    assert board.key_state() == before
    assert board.copy().key_state() == before


@SETTINGS
@given(seeds, generated_games, st.data())
def test_the_legal_mask_is_exactly_the_cards_replay_accepts_next(
    seed: int, spec: tuple[str, int, str | None], data: st.DataObject
) -> None:
    record = _game(seed, spec)
    plays = _plays(record)
    index = data.draw(st.sampled_from(plays))
    prefix = {**record, "events": record["events"][:index]}
    # The board of the prefix, as the replay of the prefix with a play appended knows
    # it: a card turned face down unseen is known to both only where the prefix plays
    # it (the whole record's board would know it from a later play).
    board = board_at(prefix, index)
    if board is None:
        assert _blank_unseen(prefix)
        return
    result = replay(prefix)
    assert result.status == "in_progress"
    legal = board.legal()
    deck = 0
    for q in range(board.n):
        deck |= board.hands[q]
    for card in bits(deck):
        appended = {**prefix, "events": [*prefix["events"], _play(board, card)]}
        after = replay(appended)
        accepted = after.status != "invalid"
        assert accepted == bool(legal >> card & 1), (CODES[card], after.to_dict(detail=True))
        if not accepted and card in bits(board.hands[board.to_act]):
            assert after.error is not None
            assert board.refusal(card) == after.error.code


@SETTINGS
@given(seeds, generated_games)
def test_pushing_the_record_s_plays_gives_its_winners_and_augen(
    seed: int, spec: tuple[str, int, str | None]
) -> None:
    record = _game(seed, spec)
    board = board_at(record)
    if board is None:
        assert _blank_unseen(record)
        return
    result = replay(record)
    for card in board.pending:
        assert board.legal() >> card & 1
        board.push(card)
    assert board.tricks == result.tricks
    if record["game"] == "fuchsen" and result.reason == "played_out":
        assert result.augen is not None
        assert board.side_points() == result.augen[0]
        names = {board.names[q] for q in range(board.n) if board.side >> q & 1}
        assert names == set(result.declarers or ())


def test_a_record_without_known_hands_has_no_board() -> None:
    record = random_game(7, "fuchsen", 5, hands=False)
    events = record["events"]
    first = _plays(record)[0]
    assert board_at({**record, "events": events[: first + 1]}) is None
    assert board_at({**record, "events": events[:1]}) is None  # no card yet


@SETTINGS
@given(seeds, generated_games, st.data())
def test_the_legal_mask_is_the_table_view_s_legal_cards(
    seed: int, spec: tuple[str, int, str | None], data: st.DataObject
) -> None:
    record = _game(seed, spec)
    index = data.draw(st.sampled_from(_plays(record)))
    # The board and the view both of the record as it stands before that play: a
    # turned card that a later face-down play identifies is unknown to both there.
    before = {**record, "events": record["events"][:index]}
    board = board_at(before, index)
    if board is None:
        assert _blank_unseen(before)
        return
    view = table_view(before)
    assert view.next_player == board.names[board.to_act]
    assert {CODES[c] for c in bits(board.legal())} == set(view.legal.cards)
