"""A player's statistics per role and per contract, season and all-time, checked
against figures worked out by hand for a small fixed evening of each game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import GameKind, Season
from games.models import Game
from ledger import selectors
from tests.conftest import PersonaClient
from tests.ledger.factories import EveningFactory, Table, _set, finish, make_table

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def koenigrufen_finish(
    table: Table, contract: str, payouts: dict[str, int], declarers: list[str]
) -> Game:
    """Finish a new game of the table with a Königrufen result of this contract."""
    game = table.new_game()
    won = sum(payouts[p] for p in declarers) > 0 if declarers else None
    result = {
        "status": "finished",
        "game": "koenigrufen",
        "contract": contract,
        "declarers": declarers,
        "won": won,
        "value": max(abs(a) for a in payouts.values()) // (3 if not declarers else 1),
        "reason": "played_out",
        "payouts": payouts,
    }
    game.finished_at = timezone.now()
    return _set(game, "finished", result, True)


def test_fuchsen_figures_per_role_match_the_hand_count(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    table = make_table(players=4)
    p = table.pk
    with django_capture_on_commit_callbacks(execute=True):
        # 1. p0 Macher with p1 as Hilfer win 20 each from p2 and p3 (value 20).
        finish(table.new_game(), {p(0): 20, p(1): 20, p(2): -20, p(3): -20}, [p(0), p(1)])
        # 2. p0 plays alone and loses 10 to each (value 30 by the factory: the top payout).
        finish(table.new_game(), {p(0): -30, p(1): 10, p(2): 10, p(3): 10}, [p(0)])
        # 3. p2 Macher with p0 as Hilfer lose 40 each to p1 and p3 (value 40).
        finish(table.new_game(), {p(2): -40, p(0): -40, p(1): 40, p(3): 40}, [p(2), p(0)])
    figures = selectors.player_statistics(player_id=table.players[0].pk, season=table.season)
    assert figures["games"] == 3 and figures["wins"] == 1 and figures["net"] == -50
    assert figures["roles"] == {
        "macher": {"games": 2, "wins": 1, "net": -10},
        "hilfer": {"games": 1, "wins": 0, "net": -40},
        "opponent": {"games": 0, "wins": 0, "net": 0},
    }
    assert figures["alone"] == {"games": 1, "wins": 0, "net": -30}
    assert figures["average_value"] == 30.0
    # The factory's results come without events: no raises to count, no Stilles Spiel.
    assert figures["raises"] == {"said": 0, "chances": 0, "per_cent": None, "games": 0}
    assert figures["silent_game"] == {"for": 0, "against": 0, "games": 0}
    p3 = selectors.player_statistics(player_id=table.players[3].pk, season=table.season)
    assert p3["roles"]["opponent"] == {"games": 3, "wins": 2, "net": 30}


def test_koenigrufen_figures_per_contract_match_the_hand_count(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    table = make_table(players=4, game_kind=GameKind.KOENIGRUFEN)
    p = table.pk
    with django_capture_on_commit_callbacks(execute=True):
        koenigrufen_finish(table, "rufer", {p(0): 10, p(1): 10, p(2): -10, p(3): -10}, [p(0), p(1)])
        koenigrufen_finish(table, "schurln", {p(0): -30, p(1): 10, p(2): 10, p(3): 10}, [])
        koenigrufen_finish(table, "bettler", {p(0): -60, p(1): 20, p(2): 20, p(3): 20}, [p(0)])
        koenigrufen_finish(table, "bettler", {p(1): -60, p(0): 20, p(2): 20, p(3): 20}, [p(1)])
    figures = selectors.player_statistics(player_id=table.players[0].pk, season=table.season)
    assert figures["games"] == 4 and figures["wins"] == 2 and figures["net"] == -60
    assert figures["contracts"] == {
        "bettler": {"games": 1, "won": 0, "net": -60},
        "rufer": {"games": 1, "won": 1, "net": 10},
    }
    assert figures["schurln_lost"] == 1
    # p1 called by p0 in the Rufer: a partner there, so only his own Bettler is a bid.
    p1 = selectors.player_statistics(player_id=table.players[1].pk, season=table.season)
    assert p1["contracts"] == {"bettler": {"games": 1, "won": 0, "net": -60}}
    assert p1["schurln_lost"] == 0


def test_all_time_statistics_add_up_every_season_of_the_game(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    table = make_table(players=4)
    p = table.pk
    Season.objects.filter(pk=table.season.pk).update(status=Season.Status.CLOSED)
    later = make_table(club=table.club, players=0)
    later.players = table.players
    with django_capture_on_commit_callbacks(execute=True):
        finish(table.new_game(), {p(0): 20, p(1): 20, p(2): -20, p(3): -20}, [p(0), p(1)])
        finish(later.new_game(), {p(0): 30, p(1): -10, p(2): -10, p(3): -10}, [p(0)])
    figures = selectors.player_statistics(
        player_id=table.players[0].pk, club=table.club, game_kind=GameKind.FUCHSEN
    )
    assert figures["roles"]["macher"] == {"games": 2, "wins": 2, "net": 50}
    assert figures["alone"] == {"games": 1, "wins": 1, "net": 30}


def test_the_api_serves_season_and_all_time_statistics(
    club: Any, member: PersonaClient, django_capture_on_commit_callbacks: Capture
) -> None:
    table = make_table(club=club, players=4)
    p = table.pk
    with django_capture_on_commit_callbacks(execute=True):
        finish(table.new_game(), {p(0): 20, p(1): 20, p(2): -20, p(3): -20}, [p(0), p(1)])
    player = table.players[1].pk
    season = member.get(
        f"/api/clubs/{club.slug}/seasons/{table.season.pk}/players/{player}/statistics/"
    )
    assert season.status_code == 200
    assert season.json()["statistics"]["roles"]["hilfer"] == {"games": 1, "wins": 1, "net": 20}
    all_time = member.get(f"/api/clubs/{club.slug}/players/{player}/statistics/?game=fuchsen")
    assert all_time.json()["statistics"]["games"] == 1
    assert member.get(f"/api/clubs/{club.slug}/players/999999/statistics/").status_code == 404


def test_an_evening_of_another_season_does_not_count_in_this_one(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    table = make_table(players=4)
    p = table.pk
    other = EveningFactory.create(club=table.club)
    with django_capture_on_commit_callbacks(execute=True):
        finish(table.new_game(other), {p(0): 20, p(1): -20}, [p(0)])
    figures = selectors.player_statistics(player_id=table.players[0].pk, season=table.season)
    assert figures["games"] == 0 and figures["average_value"] is None


def test_the_player_page_shows_his_figures_per_role_for_the_season_and_all_seasons(
    club: Any, member: PersonaClient, django_capture_on_commit_callbacks: Capture
) -> None:
    table = make_table(club=club, players=4)
    p = table.pk
    with django_capture_on_commit_callbacks(execute=True):
        finish(table.new_game(), {p(0): 30, p(1): -10, p(2): -10, p(3): -10}, [p(0)])
    url = reverse("player-page", args=[club.slug, table.players[0].pk])
    page = member.get(f"{url}?season={table.season.pk}").content.decode()
    assert "Als Macher" in page and "Allein (Herausspielen)" in page
    assert page.count("Alle Saisons dieses Spiels") == 1
    assert "Stilles Spiel: 0 für ihn" in page
    assert "aus 0 von 1 Spielen" in page  # no raising recorded
