"""Tasks run twice, runs that die half-way, and random histories: never a cent twice.

The games here are recorded through the real recording service (events
appended, undone and annulled), so the ledger hook and the on-commit
projection request run exactly as in production; tasks run eagerly.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command

from games import services
from games.models import Game, GameEvent
from ledger import services as ledger_services
from ledger import tasks
from ledger.models import LedgerEntry, PlayerRating, ProjectionState, SeasonSeries, StandingRow
from ledger.selectors import balance_map, seasons_behind
from ledger.services import booking
from ledger.tasks import project_season, repair_projections
from tests.reliability.helpers import (
    Table,
    make_table,
    money_by_player,
    payouts_by_player,
    projections_snapshot,
    stored_events,
)

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


class Boom(RuntimeError):
    """The worker dies here."""


@pytest.fixture
def table() -> Table:
    return make_table()


def play_through(table: Table, seed: int) -> Game:
    record = table.record(seed)
    game = table.start(record)
    return services.game_events_append(
        game=game, user=None, expected_seq=1, events=record["events"][1:]
    ).game


def rebuilt(season_id: int) -> dict[str, Any]:
    """Throw the projections away, rebuild them from the events' results, snapshot them."""
    StandingRow.objects.all().delete()
    PlayerRating.objects.all().delete()
    SeasonSeries.objects.all().delete()
    call_command("rebuild_projections", stdout=open("/dev/null", "w"))  # noqa: SIM115
    return projections_snapshot(season_id)


def test_the_projection_task_run_twice_computes_once_and_changes_nothing(
    table: Table, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        for seed in range(4):
            play_through(table, seed)
    season_id = table.evening.season_id
    assert project_season.apply(args=(season_id,)).get() is not None
    first = projections_snapshot(season_id)
    runs = ProjectionState.objects.get(season_id=season_id).runs
    project_season.apply(args=(season_id,)).get()  # redelivered (acks_late)
    assert ProjectionState.objects.get(season_id=season_id).runs == runs
    assert projections_snapshot(season_id) == first
    assert first == rebuilt(season_id)


def test_a_run_that_dies_after_replacing_the_standings_leaves_nothing_half_done(
    table: Table, django_capture_on_commit_callbacks: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        play_through(table, 21)
    season_id = table.evening.season_id
    before = projections_snapshot(season_id)
    assert before["standings"]
    with django_capture_on_commit_callbacks(execute=False):
        play_through(table, 22)

    def die(*args: Any, **kwargs: Any) -> Any:
        raise Boom("worker killed after the standings were written")

    # The standings are deleted and re-inserted first; the ratings come next: die there.
    monkeypatch.setattr(PlayerRating.objects, "bulk_create", die)
    with pytest.raises(Boom):
        project_season.run(season_id)
    monkeypatch.undo()

    assert projections_snapshot(season_id) == before  # the half-done run wrote nothing
    assert ProjectionState.objects.get(season_id=season_id).is_behind
    assert [s.season_id for s in seasons_behind()] == [season_id]

    project_season.run(season_id)  # the redelivered task
    project_season.run(season_id)  # and once more for good measure
    after = projections_snapshot(season_id)
    assert not seasons_behind().exists()
    assert sum(row[5] for row in after["standings"] if row[0] is None) == 2 * 5  # 2 games x 5
    assert after == rebuilt(season_id)


def test_the_repair_task_run_twice_after_a_failure_repairs_every_season_once(
    django_capture_on_commit_callbacks: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    tables = [make_table(), make_table()]
    with django_capture_on_commit_callbacks(execute=False):  # the broker lost them all
        for i, table in enumerate(tables):
            play_through(table, 30 + i)
    first_season = tables[0].evening.season_id
    real = ledger_services.season_projections_recompute

    def dies_on_the_first(*, season_id: int, force: bool = False) -> Any:
        if season_id == first_season:
            raise Boom("the first season's run died")
        return real(season_id=season_id, force=force)

    monkeypatch.setattr(tasks, "season_projections_recompute", dies_on_the_first)
    assert repair_projections.run() == [tables[1].evening.season_id]
    monkeypatch.undo()
    assert repair_projections.run() == [first_season]
    assert repair_projections.run() == []
    for table in tables:
        state = ProjectionState.objects.get(season_id=table.evening.season_id)
        assert (state.runs, state.games) == (1, 1)


def test_an_append_whose_ledger_write_dies_writes_no_event_and_no_cent(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = table.record(41)
    game = table.start(record)

    def die(**kwargs: Any) -> None:
        raise Boom("killed between the ledger entries and the version bump")

    monkeypatch.setattr(booking, "projection_version_bump", die)
    with pytest.raises(Boom):
        services.game_events_append(
            game=game, user=None, expected_seq=1, events=record["events"][1:]
        )
    monkeypatch.undo()
    assert GameEvent.objects.filter(game=game).count() == 1
    assert not LedgerEntry.objects.exists()
    game.refresh_from_db()
    assert (game.last_seq, game.status) == (1, Game.Status.IN_PROGRESS)

    # The client retries the same request: it is recorded once, booked once.
    game = services.game_events_append(
        game=game, user=None, expected_seq=1, events=record["events"][1:]
    ).game
    assert stored_events(game) == record["events"]
    assert money_by_player(table.club) == payouts_by_player(table.club)
    assert ledger_services.ledger_repair_season(season_id=table.evening.season_id) == 0


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_rebuild_equals_the_incremental_projections_after_random_recording(
    table: Table, django_capture_on_commit_callbacks: Capture, seed: int
) -> None:
    """Random starts, partial recordings, finishes, undos and annulments through the service."""
    rng = random.Random(seed)
    games: list[tuple[Game, dict[str, Any], list[Any]]] = []  # game, record, effective events

    def append(game: Game, events: list[dict[str, Any]]) -> Game:
        with django_capture_on_commit_callbacks(execute=True):
            return services.game_events_append(
                game=game, user=None, expected_seq=game.last_seq, events=events
            ).game

    for step in range(36):
        roll = rng.random()
        if not games or roll < 0.25:
            record = table.record(seed * 1000 + step)
            with django_capture_on_commit_callbacks(execute=True):
                game = table.start(record)
            games.append((game, record, [record["events"][0]]))
            continue
        i = rng.randrange(len(games))
        game, record, effective = games[i]
        annulled = effective[-1] == {"type": "annul"}
        if roll < 0.45 and len(effective) > 1:
            game = append(game, [{"type": "undo"}])
            effective.pop()
        elif roll < 0.55 and not annulled:
            game = append(game, [{"type": "annul"}])
            effective.append({"type": "annul"})
        elif not annulled and len(effective) < len(record["events"]):
            # Record the rest of the game, or only a few events of it.
            end = len(record["events"]) if roll < 0.8 else len(effective) + rng.randint(1, 5)
            new = record["events"][len(effective) : end]
            game = append(game, new)
            effective.extend(new)
        games[i] = (game, record, effective)

    statuses = {game.status for game, _r, _e in games}
    assert Game.Status.FINISHED in statuses
    season_id = table.evening.season_id
    # Every cent: the books hold exactly the finished games' payouts, and sum to zero.
    assert money_by_player(table.club) == payouts_by_player(table.club)
    assert sum(balance_map(club=table.club).values()) == 0
    assert not seasons_behind().exists()
    incremental = projections_snapshot(season_id)
    assert incremental == rebuilt(season_id)
    # The rebuild found nothing in the ledger to re-sync.
    assert ledger_services.ledger_repair_season(season_id=season_id) == 0
