"""``manage.py replay_all`` checks the cached results; the demo evening records real deals."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from clubs.models import Club, Player
from games import services
from games.demo import DEMO_SEEDS, DEMO_TALLIES, record_demo_evening
from games.models import Evening, Game
from tests.games import records

pytestmark = pytest.mark.django_db


def test_replay_all_passes_when_every_stored_result_replays_the_same(
    dealt_game: Game, as_ids: Any
) -> None:
    services.game_events_append(
        game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA)
    )
    out = StringIO()
    call_command("replay_all", stdout=out)
    assert "1 games replayed, 0 differ." in out.getvalue()


def test_replay_all_reports_a_game_whose_stored_result_differs_and_fails(
    dealt_game: Game, as_ids: Any
) -> None:
    services.game_events_append(
        game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA)
    )
    Game.objects.filter(pk=dealt_game.pk).update(result={"status": "finished", "payouts": {}})
    out = StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("replay_all", stdout=out)
    assert caught.value.returncode == 1
    assert f"game {dealt_game.pk} " in out.getvalue()
    assert "1 differ" in str(caught.value)


def test_the_demo_evening_is_several_finished_deals_with_raises(
    club: Club, players: dict[str, Player]
) -> None:
    evening = record_demo_evening(club)
    games = list(evening.games.all())
    assert len(games) == len(DEMO_SEEDS) + len(DEMO_TALLIES)
    assert all(game.status == Game.Status.FINISHED for game in games)
    assert any(game.result.get("level") not in (None, "kontra") for game in games)
    dealers = [game.dealer for game in games]
    seats = [seat.player for seat in evening.seats.order_by("position")]
    assert dealers == [seats[i % 5] for i in range(len(games))]
    call_command("replay_all", stdout=StringIO())


def test_the_demo_evening_keeps_some_deals_by_tally_and_books_them(
    club: Club, players: dict[str, Player]
) -> None:
    from ledger.models import LedgerEntry

    evening = record_demo_evening(club)
    tallied = [game for game in evening.games.all() if game.events.filter(type="tally").exists()]
    assert len(tallied) == len(DEMO_TALLIES)
    assert {game.result["reason"] for game in tallied} >= {"tally", "no_re"}
    assert any(game.result["tricks"] == 1 for game in tallied)  # the late one
    for game in tallied:
        booked = LedgerEntry.objects.filter(game=game)
        assert sum(entry.amount for entry in booked) == 0
        assert booked.exists()


def test_the_demo_evening_is_recorded_once(club: Club, players: dict[str, Player]) -> None:
    first = record_demo_evening(club)
    again = record_demo_evening(club)
    assert first == again
    assert Evening.objects.filter(club=club).count() == 1
    assert Game.objects.filter(evening__club=club).count() == len(DEMO_SEEDS) + len(DEMO_TALLIES)


def test_replay_all_reports_a_last_seq_that_does_not_match_the_events(dealt_game: Game) -> None:
    Game.objects.filter(pk=dealt_game.pk).update(last_seq=5)
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("replay_all", stdout=out)
    assert "last_seq is 5" in out.getvalue()
