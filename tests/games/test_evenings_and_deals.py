"""Evenings, seats and the proposed next deal."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Club, GameKind, Player, Season
from games import selectors, services
from games.errors import EngineRejected, EveningClosed
from games.models import Evening, EveningSeat, Game
from tests.factories import PlayerFactory, RuleProfileFactory, SeasonFactory
from tests.games.factories import NAMES, open_season, seated_evening

pytestmark = pytest.mark.django_db


def _dealer_name(game: Game) -> str:
    assert game.dealer is not None
    return game.dealer.display_name


def test_an_evening_seats_its_players_clockwise_in_the_order_given(evening: Evening) -> None:
    seats = selectors.evening_seats(evening=evening)
    assert [seat.player.display_name for seat in seats] == list(NAMES[:5])
    assert [seat.position for seat in seats] == [1, 2, 3, 4, 5]


def test_koenigrufen_needs_exactly_four_players(club: Club, players: dict[str, Player]) -> None:
    with pytest.raises(ValidationError) as caught:
        seated_evening(club, NAMES[:5], GameKind.KOENIGRUFEN)
    assert "players" in caught.value.message_dict


def test_fuchsen_needs_four_to_six_players(club: Club, players: dict[str, Player]) -> None:
    with pytest.raises(ValidationError):
        seated_evening(club, NAMES[:3])


def test_an_evening_belongs_to_a_season_of_its_game(club: Club, players: dict[str, Player]) -> None:
    koenig_season = SeasonFactory.create(club=club, game_kind=GameKind.KOENIGRUFEN)
    with pytest.raises(ValidationError) as caught:
        seated_evening(club, NAMES[:5], GameKind.FUCHSEN, season=koenig_season)
    assert "game_kind" in caught.value.message_dict


def test_an_evening_cannot_open_in_a_closed_season(club: Club, players: dict[str, Player]) -> None:
    closed = SeasonFactory.create(club=club, status=Season.Status.CLOSED)
    with pytest.raises(ValidationError) as caught:
        seated_evening(club, NAMES[:5], season=closed)
    assert "season" in caught.value.message_dict


def test_the_first_seat_deals_first_and_the_deal_goes_round_clockwise(evening: Evening) -> None:
    dealers = []
    for _ in range(6):
        game = services.game_start(evening=evening, user=None)
        dealers.append(_dealer_name(game))
    assert dealers == ["Anna", "Bert", "Carl", "Dora", "Emil", "Anna"]
    assert [g.number for g in evening.games.all()] == [1, 2, 3, 4, 5, 6]


def test_an_abandoned_game_does_not_stop_the_next_one(evening: Evening) -> None:
    first = services.game_start(evening=evening, user=None)
    second = services.game_start(evening=evening, user=None)
    assert first.status == second.status == Game.Status.IN_PROGRESS
    assert second.number == 2


def test_with_six_seated_the_dealer_sits_out_by_default(club: Club) -> None:
    evening = seated_evening(club, NAMES)
    proposal = selectors.next_deal(evening=evening)
    assert proposal.dealer is not None and proposal.dealer.display_name == "Anna"
    assert proposal.sitting_out == proposal.dealer
    assert proposal.event is not None and "sitting_out" not in proposal.event
    game = services.game_start(evening=evening, user=None)
    assert game.result["status"] == "in_progress"


def test_with_six_seated_and_named_sit_out_the_player_after_the_dealer_sits_out(
    club: Club,
) -> None:
    profile = RuleProfileFactory.create(club=club, overrides={"sit_out": "named"})
    evening = seated_evening(club, NAMES, rule_profile=profile)
    proposal = selectors.next_deal(evening=evening)
    assert proposal.sitting_out is not None and proposal.sitting_out.display_name == "Bert"
    game = services.game_start(evening=evening, user=None)
    deal = game.events.get().as_event()
    assert deal["sitting_out"] == str(proposal.sitting_out.pk)
    assert game.house_rules == {"sit_out": "named"}


def test_a_game_keeps_the_house_rules_it_started_with(club: Club) -> None:
    profile = RuleProfileFactory.create(club=club, overrides={"fuchs_penalty": 20})
    season = open_season(club)
    season.rule_profile = profile
    season.save()
    evening = seated_evening(club, NAMES[:5])
    game = services.game_start(evening=evening, user=None)
    profile.overrides = {"fuchs_penalty": 30}
    profile.save()
    game.refresh_from_db()
    assert game.house_rules == {"fuchs_penalty": 20}
    later = services.game_start(evening=evening, user=None)
    assert later.house_rules == {"fuchs_penalty": 30}


def test_the_evenings_own_rule_profile_wins_over_the_seasons(club: Club) -> None:
    season = open_season(club)
    season.rule_profile = RuleProfileFactory.create(club=club, overrides={"fuchs_penalty": 20})
    season.save()
    evening_profile = RuleProfileFactory.create(club=club, overrides={"silent_bonus": 0})
    evening = seated_evening(club, NAMES[:5], rule_profile=evening_profile)
    game = services.game_start(evening=evening, user=None)
    assert game.house_rules == {"silent_bonus": 0}


def test_a_given_deal_is_judged_by_the_engine(evening: Evening) -> None:
    seats = [str(s.player_id) for s in selectors.evening_seats(evening=evening)]
    with pytest.raises(EngineRejected) as caught:
        services.game_start(
            evening=evening, user=None, deal={"dealer": seats[0], "players": seats[:3]}
        )
    assert caught.value.error["code"] == "invalid_deal"
    assert caught.value.error["index"] == 0
    assert not Game.objects.filter(evening=evening).exists()


def test_a_given_deal_may_seat_only_the_evenings_players(club: Club, evening: Evening) -> None:
    stranger = PlayerFactory.create(club=club, display_name="Xaver")
    seats = [str(s.player_id) for s in selectors.evening_seats(evening=evening)]
    with pytest.raises(ValidationError):
        services.game_start(
            evening=evening,
            user=None,
            deal={"dealer": seats[0], "players": [*seats[:4], str(stranger.pk)]},
        )


def test_a_player_leaves_and_the_deal_skips_his_seat(club: Club) -> None:
    evening = seated_evening(club, NAMES)
    services.game_start(evening=evening, user=None)  # Anna deals
    bert = evening.seats.get(position=2).player
    services.evening_seat_remove(evening=evening, player=bert)
    services.game_start(evening=evening, user=None)  # Carl: Bert is gone
    carl = evening.seats.get(position=3).player
    services.evening_seat_remove(evening=evening, player=carl)
    game = services.game_start(evening=evening, user=None)
    assert _dealer_name(game) == "Dora"  # the seat after the one Carl held
    assert EveningSeat.objects.filter(evening=evening, left_at__isnull=False).count() == 2


def test_a_player_joins_at_a_position_and_the_others_move_on(
    evening: Evening, players: dict[str, Player]
) -> None:
    franz = players["franz"]
    services.evening_seat_add(evening=evening, player=franz, position=2)
    names = [s.player.display_name for s in selectors.evening_seats(evening=evening)]
    assert names == ["Anna", "Franz", "Bert", "Carl", "Dora", "Emil"]
    assert [s.position for s in selectors.evening_seats(evening=evening)] == [1, 2, 3, 4, 5, 6]


def test_a_player_who_left_can_come_back(evening: Evening) -> None:
    bert = evening.seats.get(position=2).player
    services.evening_seat_remove(evening=evening, player=bert)
    services.evening_seat_add(evening=evening, player=bert)
    assert evening.seats.filter(player=bert).count() == 2
    assert selectors.evening_seats(evening=evening)[-1].player == bert


def test_a_full_table_takes_nobody_else(club: Club) -> None:
    evening = seated_evening(club, NAMES)
    with pytest.raises(ValidationError):
        services.evening_seat_add(
            evening=evening, player=PlayerFactory.create(club=club, display_name="Gerda")
        )


def test_a_closed_evening_starts_no_game_and_changes_no_seat(evening: Evening) -> None:
    services.evening_close(evening=evening)
    with pytest.raises(EveningClosed):
        services.game_start(evening=evening, user=None)
    with pytest.raises(EveningClosed):
        services.evening_seat_remove(evening=evening, player=evening.seats.all()[0].player)
    with pytest.raises(EveningClosed):
        services.evening_close(evening=evening)


def test_too_few_seated_players_give_no_proposed_deal(evening: Evening) -> None:
    for seat in list(evening.seats.filter(position__gte=4)):
        services.evening_seat_remove(evening=evening, player=seat.player)
    proposal = selectors.next_deal(evening=evening)
    assert proposal.event is None and proposal.problem
    with pytest.raises(ValidationError):
        services.game_start(evening=evening, user=None)
