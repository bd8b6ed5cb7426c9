"""Setting up a tournament, drawing and confirming series, the sheet's close, and
players joining and leaving between series."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Club, Player
from games.models import Evening
from tests.factories import PlayerFactory
from tests.tournaments.conftest import confirm_all, record_tally
from tournaments import services
from tournaments.models import Participant, Tournament
from tournaments.services import TournamentConflict

pytestmark = pytest.mark.django_db


def _tournament(club: Club, players: list[Player], **kwargs: object) -> Tournament:
    options: dict[str, object] = {
        "name": "Preisfuchsen",
        "game_kind": "fuchsen",
        "series_count": 3,
        "deals_per_series": 1,
        "seed": "fix",
    }
    options.update(kwargs)
    return services.tournament_create(
        club=club,
        user=None,
        players=[p.pk for p in players],
        **options,  # type: ignore[arg-type]
    )


def test_start_numbers_follow_the_order_given_and_a_season_is_found(
    club: Club, eight: dict[str, Player]
) -> None:
    tournament = _tournament(club, list(eight.values()))
    numbers = list(tournament.participants.values_list("start_number", "player__display_name"))
    assert numbers[:2] == [(1, "Anna"), (2, "Bert")]
    assert tournament.season.game_kind == "fuchsen" and tournament.season.is_open
    assert len(tournament.seed) > 0


def test_bad_settings_are_refused_naming_the_fields(club: Club) -> None:
    with pytest.raises(ValidationError) as refused:
        services.tournament_create(
            club=club,
            user=None,
            name=" ",
            game_kind="skat",
            series_count=0,
            deals_per_series=1000,
            entry_fee=-5,
        )
    assert set(refused.value.message_dict) == {
        "name",
        "game_kind",
        "series_count",
        "deals_per_series",
        "entry_fee",
    }
    with pytest.raises(ValidationError) as refused:
        services.tournament_create(
            club=club,
            user=None,
            name="T",
            game_kind="fuchsen",
            series_count=1,
            deals_per_series=1,
            entry_fee=500,
        )
    assert "cashier" in refused.value.message_dict


def test_a_confirmed_series_opens_an_ordinary_evening_per_table_with_the_drawn_seats(
    club: Club, eight: dict[str, Player]
) -> None:
    tournament = _tournament(club, list(eight.values()))
    drawn = services.series_draw(tournament=tournament)
    assert not Evening.objects.exists()
    series = services.series_confirm(series=drawn, user=None)
    numbers = dict(tournament.participants.values_list("start_number", "player_id"))
    for table in series.tables.all():
        assert table.evening is not None
        seated = list(table.evening.seats.values_list("player_id", flat=True))
        assert seated == [numbers[n] for n in table.seats]
        assert table.evening.season_id == tournament.season_id


def test_the_draw_is_repeated_alike_from_the_stored_seed(
    club: Club, eight: dict[str, Player]
) -> None:
    tournament = _tournament(club, list(eight.values()))
    first = [t.seats for t in services.series_draw(tournament=tournament).tables.all()]
    again = [t.seats for t in services.series_draw(tournament=tournament).tables.all()]
    assert first == again


def test_the_next_series_waits_until_every_sheet_is_closed(
    club: Club, eight: dict[str, Player]
) -> None:
    tournament = _tournament(club, list(eight.values()))
    series = services.series_confirm(series=services.series_draw(tournament=tournament), user=None)
    with pytest.raises(TournamentConflict):
        services.series_draw(tournament=tournament)
    table = series.tables.first()
    assert table is not None
    first = tournament.participants.get(start_number=table.seats[0])
    with pytest.raises(TournamentConflict, match="noch 1 Spiel zu spielen"):
        services.sheet_confirm(table=table, participant=first, user=None)
    for table in series.tables.all():
        players = {p.start_number: p.player for p in tournament.participants.all()}
        record_tally(table, macher=players[table.seats[1]], partner=players[table.seats[2]])
        confirm_all(table)
        table.refresh_from_db()
        assert table.closed_at is not None
        assert table.evening is not None and table.evening.status == "closed"
    assert services.series_draw(tournament=tournament).number == 2


def test_a_player_leaves_and_joins_between_series_keeping_his_start_number(
    club: Club, eight: dict[str, Player]
) -> None:
    tournament = _tournament(club, list(eight.values()))
    series = services.series_confirm(series=services.series_draw(tournament=tournament), user=None)
    anna = tournament.participants.get(start_number=1)
    with pytest.raises(TournamentConflict):
        services.participant_leave(tournament=tournament, participant=anna)
    players = {p.start_number: p.player for p in tournament.participants.all()}
    for table in series.tables.all():
        record_tally(table, macher=players[table.seats[1]], partner=players[table.seats[2]])
        confirm_all(table)
    services.participant_leave(tournament=tournament, participant=anna)
    newcomer = services.participant_join(
        tournament=tournament, player=PlayerFactory.create(club=club, display_name="Ida")
    )
    assert newcomer.start_number == 9
    second = services.series_draw(tournament=tournament)
    seated = sorted(n for t in second.tables.all() for n in t.seats) + second.byes
    assert sorted(seated) == list(range(2, 10))
    again = services.participant_join(tournament=tournament, player=anna.player)
    assert again.start_number == 1 and again.pk == anna.pk
    # The join made the drawn proposal stale: it is drawn anew, with Anna.
    assert not tournament.series.filter(number=2).exists()
    third = services.series_draw(tournament=tournament)
    assert 1 in [n for t in third.tables.all() for n in t.seats] + third.byes
    assert Participant.objects.filter(tournament=tournament).count() == 9


def test_leftover_players_get_a_bye_or_a_larger_table_as_chosen(club: Club) -> None:
    players = [PlayerFactory.create(club=club) for _ in range(11)]
    tournament = _tournament(club, players)
    bye = services.series_draw(tournament=tournament, leftover="bye")
    assert [len(t.seats) for t in bye.tables.all()] == [4, 4] and len(bye.byes) == 3
    larger = services.series_draw(tournament=tournament, leftover="larger_tables")
    assert [len(t.seats) for t in larger.tables.all()] == [6, 5] and larger.byes == []


def test_a_closed_tournament_takes_no_draw_or_join(club: Club, eight: dict[str, Player]) -> None:
    tournament = _tournament(club, list(eight.values())[:4])
    services.tournament_close(tournament=tournament, user=None)
    with pytest.raises(TournamentConflict):
        services.series_draw(tournament=tournament)
    with pytest.raises(TournamentConflict):
        services.participant_join(tournament=tournament, player=eight["H"])


def test_the_organiser_chooses_the_table_size_within_the_rules(club: Club) -> None:
    players = [PlayerFactory.create(club=club) for _ in range(11)]
    tournament = _tournament(club, players)
    fives = services.series_draw(tournament=tournament, table_size=5)
    assert [len(t.seats) for t in fives.tables.all()] == [5, 5] and len(fives.byes) == 1
    with pytest.raises(ValidationError) as refused:
        services.series_draw(tournament=tournament, table_size=7)
    assert "table_size" in refused.value.message_dict
