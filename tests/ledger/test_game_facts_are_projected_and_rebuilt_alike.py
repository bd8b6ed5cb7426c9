"""The facts of real recorded games (Stilles Spiel, the reason, each player's raises
per chance) reach the ``PlayerGame`` rows game by game exactly as a rebuild from
the games' events computes them, also after a game in the middle is taken back and
finished again (the games after it are folded again from their own rows); seasons
projected before these columns are projected again once (migration 0008)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps as django_apps

from engine.generate import random_game
from games import services as games
from games.models import Game
from ledger import services, tasks
from ledger.models import GameFacts, LedgerEntry, PlayerGame, ProjectionState
from tests.ledger.factories import Table, make_table
from tests.ledger.test_recording_integration import renamed
from tests.reliability.helpers import projections_snapshot

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


@pytest.fixture
def table() -> Table:
    table = make_table(players=5)
    evening = games.evening_create(
        club=table.club,
        user=None,
        season=table.season,
        players=[player.pk for player in table.players],
    )
    return Table(table.club, table.season, evening, table.players)


def _record(table: Table, seed: int) -> Game:
    """A random complete five-player Fuchsen game, recorded as the table would."""
    record = random_game(seed, "fuchsen", 5, hands=seed % 2 == 0)
    names = record["events"][0]["players"]
    ids = {name: table.pk(i) for i, name in enumerate(names)}
    events = renamed(record["events"], ids)
    # Seated in the table's order, with the generator's dealer.
    events[0]["players"] = [table.pk(i) for i in range(5)]
    game = games.game_started(evening=table.evening, user=None, events=events).game
    return game


def test_the_facts_columns_game_by_game_equal_the_rebuild_from_the_events(
    table: Table, django_capture_on_commit_callbacks: Capture
) -> None:
    recorded: list[Game] = []
    with django_capture_on_commit_callbacks(execute=True):
        for seed in range(12):
            game = _record(table, seed)
            if game.status == Game.Status.FINISHED:
                recorded.append(game)
    assert len(recorded) >= 8
    middle = recorded[2]
    with django_capture_on_commit_callbacks(execute=True):
        # Taken back (the games after it are folded again from their rows), then the
        # same last event again: finished at a later seq, so its facts are replayed.
        game = Game.objects.get(pk=middle.pk)
        last = game.events.order_by("-seq").first()
        assert last is not None
        games.game_events_append(
            game=game, user=None, expected_seq=game.last_seq, events=[{"type": "undo"}]
        )
        game.refresh_from_db()
        games.game_events_append(
            game=game, user=None, expected_seq=game.last_seq, events=[last.as_event()]
        )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert GameFacts.objects.get(game_id=game.pk).seq == game.last_seq

    season_id = table.season.pk
    incremental = projections_snapshot(season_id)
    rows = PlayerGame.objects.filter(season_id=season_id)
    # The figures are there to compare: raises counted, Stilles Spiel decided.
    assert rows.filter(raise_chances__gt=0).exists()
    assert rows.filter(silent__isnull=False).exists()
    assert rows.exclude(reason="").count() == rows.count()
    # From the events alone: no cached facts.
    GameFacts.objects.all().delete()
    services.season_projections_recompute(season_id=season_id, force=True)
    assert projections_snapshot(season_id) == incremental
    assert GameFacts.objects.count() == len(recorded)


def test_seasons_projected_before_the_facts_columns_are_projected_again_once(
    table: Table, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        for seed in range(3):
            _record(table, seed)
    season_id = table.season.pk
    projected = projections_snapshot(season_id)
    # The rows as they stood before the columns came: empty.
    PlayerGame.objects.filter(season_id=season_id).update(
        reason="", silent=None, raise_chances=None, raises=None
    )
    GameFacts.objects.all().delete()
    migration = importlib.import_module("ledger.migrations.0008_project_game_facts_again")
    migration.mark_seasons_behind(django_apps, None)
    assert ProjectionState.objects.get(season_id=season_id).is_behind
    assert tasks.repair_projections() == [season_id]
    assert projections_snapshot(season_id) == projected


def game_entries_count(game: Game) -> int:
    return LedgerEntry.objects.filter(game_id=game.pk).count()


def test_an_event_after_the_end_that_leaves_the_money_alone_still_refreshes_the_facts(
    table: Table, django_capture_on_commit_callbacks: Capture
) -> None:
    # An empty ``show`` after the end changes nothing the ledger books, but the
    # record grew: its facts were read at the old seq and must be read again.
    with django_capture_on_commit_callbacks(execute=True):
        game = next(
            g for seed in range(8) if (g := _record(table, seed)).status == Game.Status.FINISHED
        )
    before = GameFacts.objects.get(game_id=game.pk).seq
    entries = game_entries_count(game)
    player = game.events.get(seq=1).payload["players"][0]
    with django_capture_on_commit_callbacks(execute=True):
        games.game_events_append(
            game=game,
            user=None,
            expected_seq=game.last_seq,
            events=[{"type": "show", "player": player, "cards": []}],
        )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game_entries_count(game) == entries
    assert GameFacts.objects.get(game_id=game.pk).seq == game.last_seq == before + 1
