"""Deals recorded by a tally are booked, projected, rebuilt and exported like any other.

The shared tally examples (Fuchsen, five players) are recorded through the real
services; the books, the standings, the ratings, the all-time table and a rebuild
of the projections must agree with the payouts the examples state.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command

from games import selectors as game_selectors
from games import services as games
from games.models import Game
from ledger.selectors import (
    all_time_table,
    balance_map,
    game_entry_totals,
    rating_list,
    standing_list,
)
from tests.ledger.factories import Table, make_table
from tests.ledger.test_recording_integration import NAMES, renamed
from tests.reference import TALLY_EXAMPLES

pytestmark = pytest.mark.django_db

# The five-player Fuchsen examples: a pure tally at re, a Stilles Spiel at supp, a
# forgotten Fuchs shown after the tally.
FIVE = [
    "61-tally-fuchsen-pure-re-won-augen.json",
    "62-tally-fuchsen-pure-silent.json",
    "66-tally-fuchsen-forgotten-fuchs-shown-after.json",
]


def _example(name: str) -> dict[str, Any]:
    path = TALLY_EXAMPLES / name
    example: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return example


def _record(table: Table, example: dict[str, Any]) -> tuple[Game, dict[int, int]]:
    ids = {name: table.pk(i) for i, name in enumerate(NAMES)}
    evening = table.evening
    events = renamed(example["record"]["events"], ids)
    # The start takes the whole deal in one request, as the evening page sends it.
    started = games.game_started(evening=evening, user=None, events=events)
    payouts = {int(ids[name]): amount for name, amount in example["expected"]["payouts"].items()}
    return started.game, payouts


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


def test_tally_games_are_booked_projected_and_rebuilt_as_their_payouts_say(
    table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    expected: dict[int, int] = {}
    with django_capture_on_commit_callbacks(execute=True):
        for name in FIVE:
            game, payouts = _record(table, _example(name))
            assert game.status == Game.Status.FINISHED
            assert game_entry_totals(game=game) == payouts
            for pid, amount in payouts.items():
                expected[pid] = expected.get(pid, 0) + amount
    assert balance_map(club=table.club, evening=table.evening) == expected
    nets = {row.player_id: row.net for row in standing_list(season=table.season)}
    assert nets == expected
    assert rating_list(season=table.season).count() == 5
    all_time = {
        row["player_id"]: row for row in all_time_table(club=table.club, game_kind="fuchsen")
    }
    assert set(all_time) == set(expected)
    with django_capture_on_commit_callbacks(execute=True):
        call_command("rebuild_projections", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert {row.player_id: row.net for row in standing_list(season=table.season)} == nets
    call_command("replay_all", stdout=open("/dev/null", "w"))  # noqa: SIM115


def test_a_tally_game_is_exported_and_imported_again_with_the_same_result(table: Table) -> None:
    game, _payouts = _record(table, _example(FIVE[0]))
    exported = game_selectors.game_export(game=game)
    assert exported["record"]["events"][-1]["type"] == "tally"
    other = games.evening_create(
        club=table.club,
        user=None,
        season=table.season,
        players=[player.pk for player in table.players],
    )
    outcomes = games.games_import(
        evening=other,
        user=None,
        records=[exported["record"]],
        players={pid: int(pid) for pid in exported["players"]},
    )
    assert outcomes[0].imported, outcomes[0]
    imported = outcomes[0].game
    assert imported is not None and imported.result == game.result


def test_the_replay_page_shows_what_the_tally_said(table: Table, client: Any) -> None:
    from tests.factories import MembershipFactory, UserFactory

    game, _payouts = _record(table, _example(FIVE[1]))
    user = UserFactory.create(username="viewer")
    MembershipFactory.create(club=table.club, user=user, role="member")
    client.force_login(user)
    page = client.get(f"/games/{game.pk}/replay/", HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="replay-tally"' in text
    assert "Stilles Spiel" in text and "gewonnen" in text
