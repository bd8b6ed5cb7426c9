"""The hook inside the real recording service: an example game from the spec, booked.

The game is recorded event by event through ``games.services`` (the engine
replays it, the service calls ``ledger_sync_game`` in its transaction);
an ``undo`` takes it back into play and an ``annul`` voids it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services as games
from games.listeners import LockedGame
from games.models import Game
from ledger.models import LedgerEntry, ProjectionState
from ledger.selectors import balance_map, game_entry_totals, standing_list
from ledger.services import ledger_sync_locked_game
from tests.games.records import RE_PLAYED_OUT, RE_PLAYED_OUT_PAYOUTS
from tests.ledger.factories import Table, make_table

pytestmark = pytest.mark.django_db

NAMES = ["anna", "bert", "carl", "dora", "emil"]
# shared/examples/04: bert (Macher) and carl win at re, +40/+20.
EVENTS: list[dict[str, Any]] = RE_PLAYED_OUT["events"]
PAYOUTS = RE_PLAYED_OUT_PAYOUTS


def renamed(value: Any, ids: dict[str, str]) -> Any:
    """The example's names replaced by the players' ids (the service records by id)."""
    if isinstance(value, str):
        return ids.get(value, value)
    if isinstance(value, list):
        return [renamed(item, ids) for item in value]
    if isinstance(value, dict):
        return {ids.get(k, k): renamed(v, ids) for k, v in value.items()}
    return value


@pytest.fixture
def example() -> dict[str, Any]:
    return {"record": {"events": EVENTS}, "expected": {"payouts": PAYOUTS}}


def record_example(table: Table, example: dict[str, Any]) -> tuple[Game, dict[int, int]]:
    ids = {name: table.pk(i) for i, name in enumerate(NAMES)}
    evening = games.evening_create(
        club=table.club,
        user=None,
        season=table.season,
        players=[player.pk for player in table.players],
    )
    events = renamed(example["record"]["events"], ids)
    game = games.game_start(evening=evening, user=None, deal=events[0])
    game = games.game_events_append(game=game, user=None, expected_seq=1, events=events[1:]).game
    payouts = {int(ids[name]): amount for name, amount in example["expected"]["payouts"].items()}
    return game, payouts


def test_a_game_recorded_to_its_end_is_booked_and_projected(
    example: dict[str, Any], django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    table = make_table(players=5)
    with django_capture_on_commit_callbacks(execute=True):
        game, payouts = record_example(table, example)
    assert game.status == Game.Status.FINISHED
    assert game_entry_totals(game=game) == payouts
    assert balance_map(club=table.club, evening=game.evening) == payouts
    nets = {row.player_id: row.net for row in standing_list(season=table.season)}
    assert nets == payouts


def test_an_undo_of_the_last_card_reverses_and_replaying_it_books_again(
    example: dict[str, Any],
) -> None:
    table = make_table(players=5)
    game, payouts = record_example(table, example)
    last = example["record"]["events"][-1]
    game = games.game_events_append(
        game=game, user=None, expected_seq=game.last_seq, events=[{"type": "undo"}]
    ).game
    assert game.status == Game.Status.IN_PROGRESS
    assert set(game_entry_totals(game=game).values()) == {0}
    ids = {name: table.pk(i) for i, name in enumerate(NAMES)}
    game = games.game_events_append(
        game=game, user=None, expected_seq=game.last_seq, events=[renamed(last, ids)]
    ).game
    assert game_entry_totals(game=game) == payouts
    kinds = list(LedgerEntry.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds == ["result"] * 5 + ["reversal"] * 5 + ["result"] * 5


def test_an_annulled_game_leaves_every_balance_at_zero(example: dict[str, Any]) -> None:
    table = make_table(players=5)
    game, _payouts = record_example(table, example)
    game = games.game_events_append(
        game=game, user=None, expected_seq=game.last_seq, events=[{"type": "annul"}]
    ).game
    assert game.status == Game.Status.ANNULLED
    assert set(balance_map(club=table.club).values()) == {0}


def test_the_finishing_append_books_without_a_savepoint_or_a_second_lock(
    example: dict[str, Any],
) -> None:
    # The service holds the game's row lock with its evening loaded; the hook
    # takes neither again and opens no savepoint inside the append's transaction.
    table = make_table(players=5)
    ids = {name: table.pk(i) for i, name in enumerate(NAMES)}
    evening = games.evening_create(
        club=table.club, user=None, season=table.season, players=[p.pk for p in table.players]
    )
    events = renamed(example["record"]["events"], ids)
    game = games.game_start(evening=evening, user=None, deal=events[0])
    game = games.game_events_append(game=game, user=None, expected_seq=1, events=events[1:-1]).game
    ProjectionState.objects.get_or_create(season_id=table.season.pk)  # the season's first change
    with CaptureQueriesContext(connection) as finishing:
        game = games.game_events_append(
            game=game, user=None, expected_seq=game.last_seq, events=events[-1:]
        ).game
    assert game.status == Game.Status.FINISHED
    statements = [query["sql"] for query in finishing.captured_queries]
    # One savepoint: the append's own transaction, nested in the test's.
    assert len([s for s in statements if s.upper().startswith("SAVEPOINT")]) == 1
    locks = 1 if connection.features.has_select_for_update else 0  # SQLite locks the file
    assert len([s for s in statements if "FOR UPDATE" in s.upper()]) == locks
    assert not [s for s in statements if s.lstrip().upper().startswith('SELECT "GAMES_EVENING"')]
    payouts = {int(ids[name]): amount for name, amount in example["expected"]["payouts"].items()}
    assert game_entry_totals(game=game) == payouts


@pytest.mark.django_db(transaction=True)
def test_a_sync_of_a_locked_game_refuses_to_run_outside_a_transaction() -> None:
    table = make_table(players=4)
    game = table.new_game()
    with pytest.raises(RuntimeError, match="holds the lock"):
        ledger_sync_locked_game(locked=LockedGame(game=game, evening=game.evening))
    assert not LedgerEntry.objects.filter(game=game).exists()
