"""The club's all-time table ("ewige Tabelle"): every season of one game summed from
the season tables, the most won first, on a page and in the API."""

from __future__ import annotations

from itertools import pairwise

from clubs import services as club_services
from clubs.models import Club, GameKind, Season
from ledger import selectors, services
from tests.conftest import PersonaClient
from tests.e2e.tables import open_evening, players_of, record_game
from tests.games.records import RE_PLAYED_OUT


def _two_fuchsen_seasons(club: Club) -> tuple[Season, Season]:
    """The same game played in a closed season and in the open one after it."""
    players = players_of(club)
    first = open_evening(club, players)
    record_game(first, players, RE_PLAYED_OUT)
    club_services.season_close(season=first.season)
    second_season = club_services.season_create(
        club=club, name="Fuchsen 2027", game_kind=GameKind.FUCHSEN, start=first.season.start
    )
    second = open_evening(club, players)
    assert second.season_id == second_season.pk
    record_game(second, players, RE_PLAYED_OUT)
    record_game(second, players, RE_PLAYED_OUT)
    for season in (first.season, second_season):
        services.season_projections_recompute(season_id=season.pk, force=True)
    return first.season, second_season


def test_the_all_time_table_sums_every_season_of_the_game(club: Club) -> None:
    seasons = _two_fuchsen_seasons(club)
    table = selectors.all_time_table(club=club, game_kind=GameKind.FUCHSEN)
    closed_lines = list(selectors.standing_list(season=seasons[0]))
    assert table and sum(row["net"] for row in table) == 0
    for row in table:
        season_rows = [
            r
            for season in seasons
            for r in selectors.standing_list(season=season)
            if r.player_id == row["player_id"]
        ]
        assert row["net"] == sum(r.net for r in season_rows)
        assert row["games"] == sum(r.games for r in season_rows) == 3
        assert row["wins"] == sum(r.wins for r in season_rows)
        assert row["seasons"] == 2
    assert closed_lines  # the closed season counts too
    nets = [row["net"] for row in table]
    assert nets == sorted(nets, reverse=True)
    # Equal net, equal rank; the next rank counts those above.
    for above, below in pairwise(table):
        if above["net"] == below["net"]:
            assert above["rank"] == below["rank"]
        else:
            assert below["rank"] == table.index(below) + 1
    assert selectors.all_time_table(club=club, game_kind=GameKind.KOENIGRUFEN) == []


def test_the_api_answers_the_table_of_the_game_asked_for(club: Club, member: PersonaClient) -> None:
    _two_fuchsen_seasons(club)
    url = f"/api/clubs/{club.slug}/all-time/"
    answer = member.get(url + "?game=fuchsen")
    assert answer.status_code == 200
    body = answer.json()
    assert body["game"] == "fuchsen" and body["unit"] == club.currency_unit
    assert body["rows"] == selectors.all_time_table(club=club, game_kind=GameKind.FUCHSEN)
    assert member.get(url + "?game=koenigrufen").json()["rows"] == []
    assert member.get(url + "?game=skat").status_code == 400


def test_the_page_shows_the_table_and_is_linked_from_the_book(
    club: Club, member: PersonaClient
) -> None:
    _, season = _two_fuchsen_seasons(club)
    page = member.get(f"/clubs/{club.slug}/all-time/").content.decode()
    assert "Ewige Tabelle" in page and 'id="all-time"' in page
    for row in selectors.all_time_table(club=club, game_kind=GameKind.FUCHSEN):
        assert f'data-player="{row["player_id"]}"' in page
    assert member.get(f"/clubs/{club.slug}/all-time/?game=skat").status_code == 404
    book = member.get(f"/clubs/{club.slug}/book/").content.decode()
    assert f"/clubs/{club.slug}/all-time/?game=fuchsen" in book
    table = member.get(f"/clubs/{club.slug}/seasons/{season.pk}/table/").content.decode()
    assert 'id="all-time-link"' in table


def test_a_game_without_finished_games_says_so(club: Club, member: PersonaClient) -> None:
    page = member.get(f"/clubs/{club.slug}/all-time/?game=koenigrufen").content.decode()
    assert "Noch kein Spiel fertig." in page


def test_the_all_time_rating_runs_over_every_season_in_game_order(
    club: Club, member: PersonaClient
) -> None:
    seasons = _two_fuchsen_seasons(club)
    services.all_time_rebuild(club_id=club.pk)
    table = selectors.all_time_table(club=club, game_kind=GameKind.FUCHSEN)
    # Three games, each rating every player who played it: both seasons count.
    assert table and all(row["rated_games"] == 3 for row in table)
    ratings = {
        r.player_id: r.ordinal
        for season in seasons
        for r in selectors.rating_list(season=season)
        if season == seasons[1]
    }
    # Not the last season's rating: the all-time one began a game earlier.
    assert any(row["rating"] != round(ratings[row["player_id"]], 2) for row in table)
    body = member.get(f"/api/clubs/{club.slug}/all-time/?game=fuchsen").json()
    assert [row["rating"] for row in body["rows"]] == [row["rating"] for row in table]
    page = member.get(f"/clubs/{club.slug}/all-time/").content.decode()
    assert page.count("data-rating") == len(table) and "Wertung" in page
