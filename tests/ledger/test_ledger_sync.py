"""The recording hook: a game's ledger entries follow its result, append-only and zero-sum."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.listeners import game_lock
from games.models import Game
from ledger import services as ledger_services
from ledger.models import LedgerEntry, ProjectionState
from ledger.selectors import balance_map, game_entry_totals
from ledger.services import LedgerError, booking, ledger_sync_game, ledger_sync_locked_game
from stichbuch.append_only import AppendOnlyError
from tests.ledger.factories import Table, annul, finish, fuchsen_result, make_table, reopen

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> Table:
    return make_table(players=4)


def payouts(table: Table, *amounts: int) -> dict[str, int]:
    return {table.pk(i): amount for i, amount in enumerate(amounts)}


def by_player(table: Table, *amounts: int) -> dict[int, int]:
    return {table.players[i].pk: a for i, a in enumerate(amounts) if a}


def kinds(game: Game) -> list[str]:
    return list(LedgerEntry.objects.filter(game=game).values_list("kind", flat=True))


def test_finishing_a_game_writes_one_result_entry_per_paid_player(table: Table) -> None:
    game = finish(table.new_game(), payouts(table, 40, -20, -20, 0))
    assert kinds(game) == ["result", "result", "result"]
    assert game_entry_totals(game=game) == by_player(table, 40, -20, -20)


def test_syncing_a_finished_game_again_writes_nothing(table: Table) -> None:
    game = finish(table.new_game(), payouts(table, 40, -20, -20, 0))
    ledger_sync_game(game=game)
    ledger_sync_game(game=game)
    assert LedgerEntry.objects.filter(game=game).count() == 3


def test_an_undo_back_into_play_reverses_the_result(table: Table) -> None:
    game = finish(table.new_game(), payouts(table, 40, -20, -20, 0))
    reopen(game)
    assert kinds(game) == ["result"] * 3 + ["reversal"] * 3
    assert game_entry_totals(game=game) == dict.fromkeys(by_player(table, 40, -20, -20), 0)


def test_an_annulled_game_is_reversed_and_stays_reversed(table: Table) -> None:
    game = finish(table.new_game(), payouts(table, 30, -10, -10, -10))
    annul(game)
    ledger_sync_game(game=game)
    assert kinds(game).count("reversal") == 4
    assert all(total == 0 for total in game_entry_totals(game=game).values())


def test_annulling_a_game_that_never_finished_writes_nothing(table: Table) -> None:
    game = annul(table.new_game())
    assert kinds(game) == []


def test_a_game_finished_again_books_its_new_result(table: Table) -> None:
    game = finish(table.new_game(), payouts(table, 40, -20, -20, 0))
    reopen(game)
    finish(game, payouts(table, -60, 20, 20, 20))
    assert kinds(game) == ["result"] * 3 + ["reversal"] * 3 + ["result"] * 4
    assert {k: v for k, v in game_entry_totals(game=game).items() if v} == by_player(
        table, -60, 20, 20, 20
    )


def test_a_changed_result_is_reversed_and_rebooked_in_one_sync(table: Table) -> None:
    game = finish(table.new_game(), payouts(table, 40, -20, -20, 0))
    finish(game, payouts(table, 20, -20, 0, 0))
    assert kinds(game) == ["result"] * 3 + ["reversal"] * 3 + ["result"] * 2
    assert {k: v for k, v in game_entry_totals(game=game).items() if v} == by_player(table, 20, -20)


def test_every_write_of_a_game_sums_to_zero(table: Table) -> None:
    game = table.new_game()
    finish(game, payouts(table, 40, -20, -20, 0))
    reopen(game)
    finish(game, payouts(table, 10, 10, -10, -10))
    finish(game, payouts(table, 0, 0, 30, -30))
    annul(game)
    # Each sync stamps its entries with one time: group by it.
    writes: dict[object, int] = {}
    for created_at, amount in LedgerEntry.objects.filter(game=game).values_list(
        "created_at", "amount"
    ):
        writes[created_at] = writes.get(created_at, 0) + amount
    assert len(writes) == 5  # finish, undo, finish, changed finish, annul
    assert set(writes.values()) == {0}


def test_the_balances_of_evening_season_and_club_sum_to_zero(table: Table) -> None:
    finish(table.new_game(), payouts(table, 40, -20, -20, 0))
    finish(table.new_game(), payouts(table, -30, 10, 10, 10))
    other = table.new_evening()
    finish(table.new_game(other), payouts(table, 0, 50, -25, -25))
    for scope in ({"evening": table.evening}, {"evening": other}, {"season": table.season}, {}):
        balances = balance_map(club=table.club, **scope)
        assert balances and sum(balances.values()) == 0
    assert balance_map(club=table.club) == by_player(table, 10, 40, -35, -15)


def test_a_write_bumps_the_season_version_and_a_no_op_does_not(table: Table) -> None:
    game = finish(table.new_game(), payouts(table, 40, -20, -20, 0))
    state = ProjectionState.objects.get(season=table.season)
    assert state.version == 1
    ledger_sync_game(game=game)
    state.refresh_from_db()
    assert state.version == 1
    reopen(game)
    state.refresh_from_db()
    assert state.version == 2


def test_payouts_that_do_not_sum_to_zero_are_refused(table: Table) -> None:
    with pytest.raises(LedgerError, match="sum"):
        finish(table.new_game(), payouts(table, 40, -20, -10, 0))
    assert not LedgerEntry.objects.exists()


def test_a_payout_that_is_not_an_integer_is_refused(table: Table) -> None:
    bad = {table.pk(0): 10.0, table.pk(1): -10}
    with pytest.raises(LedgerError, match="integer"):
        finish(table.new_game(), bad)  # type: ignore[arg-type]


def test_a_payout_to_a_player_of_another_club_is_refused(table: Table) -> None:
    stranger = make_table(players=1).players[0]
    with pytest.raises(LedgerError, match="not players of club"):
        finish(table.new_game(), {table.pk(0): 10, str(stranger.pk): -10})


def test_a_finished_game_without_payouts_is_refused(table: Table) -> None:
    game = table.new_game()
    game.status = Game.Status.FINISHED
    game.result = {"status": "finished"}
    with pytest.raises(LedgerError, match="no payouts"):
        ledger_sync_game(game=game)


def test_a_stored_entry_can_be_neither_changed_nor_deleted(table: Table) -> None:
    game = finish(table.new_game(), payouts(table, 40, -20, -20, 0))
    entry = LedgerEntry.objects.filter(game=game).first()
    assert entry is not None
    entry.amount = 1000
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        LedgerEntry.objects.filter(game=game).update(amount=0)
    with pytest.raises(AppendOnlyError):
        LedgerEntry.objects.filter(game=game).delete()


STATES = st.one_of(
    st.just("reopen"),
    st.just("annul"),
    st.lists(st.integers(min_value=-50, max_value=50), min_size=3, max_size=3),
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(STATES, min_size=1, max_size=8))
def test_whatever_happens_to_a_game_its_books_hold_its_last_result(
    table: Table, steps: list[str | list[int]]
) -> None:
    game = table.new_game()
    expected: dict[int, int] = {}
    for step in steps:
        if isinstance(step, list):
            amounts = [*step, -sum(step)]
            finish(game, payouts(table, *amounts))
            expected = by_player(table, *amounts)
        else:
            (reopen if step == "reopen" else annul)(game)
            expected = {}
        ledger_sync_game(game=game)  # a retry of the hook changes nothing
    totals = {p: t for p, t in game_entry_totals(game=game).items() if t}
    assert totals == expected
    writes: dict[object, int] = {}
    for created_at, amount in LedgerEntry.objects.filter(game=game).values_list(
        "created_at", "amount"
    ):
        writes[created_at] = writes.get(created_at, 0) + amount
    assert set(writes.values()) <= {0}


def test_players_the_caller_read_as_the_clubs_are_not_looked_up_again(table: Table) -> None:
    game = table.new_game()
    game.status = Game.Status.FINISHED
    game.result = fuchsen_result(payouts(table, 40, -20, -20, 0))
    known = {player.pk for player in table.players}
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        ledger_sync_locked_game(locked=game_lock(game=game), club_players=known)
    assert not [q for q in queries if 'FROM "clubs_player"' in q["sql"]]
    assert game_entry_totals(game=game) == by_player(table, 40, -20, -20)


def test_a_stranger_among_known_players_is_still_refused(table: Table) -> None:
    stranger = make_table(players=1).players[0]
    game = table.new_game()
    game.status = Game.Status.FINISHED
    game.result = fuchsen_result({table.pk(0): 10, str(stranger.pk): -10})
    known = {player.pk for player in table.players}
    with pytest.raises(LedgerError, match="not players of club"), transaction.atomic():
        ledger_sync_locked_game(locked=game_lock(game=game), club_players=known)
    assert not LedgerEntry.objects.filter(game=game).exists()


def test_a_reopened_game_finished_anew_holds_its_new_result_only(table: Table) -> None:
    game = finish(table.new_game(), payouts(table, 40, -20, -20, 0))
    reopen(game)
    finish(game, payouts(table, -30, 10, 10, 10))
    stored = list(LedgerEntry.objects.filter(game=game).order_by("id"))
    assert [(e.player_id, e.amount, e.kind) for e in stored] == [
        (table.players[0].pk, 40, "result"),
        (table.players[1].pk, -20, "result"),
        (table.players[2].pk, -20, "result"),
        (table.players[0].pk, -40, "reversal"),
        (table.players[1].pk, 20, "reversal"),
        (table.players[2].pk, 20, "reversal"),
        *[(table.players[i].pk, a, "result") for i, a in enumerate((-30, 10, 10, 10))],
    ]
    for entry in stored:
        assert (entry.club_id, entry.season_id, entry.evening_id) == (
            table.club.pk,
            table.season.pk,
            table.evening.pk,
        )
        assert entry.created_at is not None and entry.created_at.tzinfo is not None
    by_orm = {
        row["player_id"]: row["total"]
        for row in LedgerEntry.objects.filter(game=game)
        .values("player_id")
        .annotate(total=Sum("amount"))
        if row["total"]
    }
    assert booking._booked_amounts(game_id=game.pk) == by_orm
    assert by_orm == by_player(table, -30, 10, 10, 10)


def test_a_version_bump_creates_the_seasons_projection_state_once(table: Table) -> None:
    assert not ProjectionState.objects.filter(season=table.season).exists()
    with transaction.atomic():
        ledger_services.projection_version_bump(season_id=table.season.pk)
        ledger_services.projection_version_bump(season_id=table.season.pk)
    assert ProjectionState.objects.get(season=table.season).version == 2
