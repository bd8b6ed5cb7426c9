"""A game start: the evening read with the caller's role, locked afresh, its seated
players named in order, and the new game numbered the evening's next."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.db.transaction import TransactionManagementError
from django.utils.translation import gettext

from clubs.models import Club, Role
from games import selectors, services
from games.errors import EveningClosed
from games.models import Evening, EveningSeat, Game
from tests.conftest import PersonaClient
from tests.factories import MembershipFactory, RuleProfileFactory, UserFactory
from tests.games.factories import NAMES, seated_evening

pytestmark = pytest.mark.django_db


def test_a_member_reads_the_evening_with_his_role_in_one_statement(club: Club) -> None:
    evening = seated_evening(club, NAMES[:5])
    scorer = UserFactory.create()
    MembershipFactory.create(club=club, user=scorer, role=Role.SCORER)
    got = selectors.evening_get_with_role(evening_id=evening.pk, user=scorer)
    assert got.member_role == Role.SCORER  # type: ignore[attr-defined]
    assert got.club == club and got.season == evening.season


def test_a_stranger_reads_the_evening_without_a_role_and_an_unknown_one_is_none(
    club: Club,
) -> None:
    evening = seated_evening(club, NAMES[:4])
    stranger = UserFactory.create()
    got = selectors.evening_get_with_role(evening_id=evening.pk, user=stranger)
    assert got.member_role is None  # type: ignore[attr-defined]
    for unknown in (evening.pk + 1000, 0, -1, 2**63, 10**30):
        with pytest.raises(Evening.DoesNotExist):
            selectors.evening_get_with_role(evening_id=unknown, user=stranger)


def test_an_evening_with_an_id_beyond_any_row_is_not_found_through_the_api(
    scorer: PersonaClient,
) -> None:
    for evening_id in (2**63, 10**30):
        assert scorer.get(f"/api/evenings/{evening_id}/").status_code == 404
        assert scorer.post(f"/api/evenings/{evening_id}/games/", {}).status_code == 404


def test_the_locked_evening_is_read_afresh_with_its_club_and_season(club: Club) -> None:
    evening = seated_evening(club, NAMES[:5])
    Evening.objects.filter(pk=evening.pk).update(place="Gasthaus Krone")
    with transaction.atomic():
        locked = selectors.evening_for_update(evening_id=evening.pk)
        assert selectors.evening_for_update(evening_id=evening.pk + 1000) is None
    assert locked is not None and locked.place == "Gasthaus Krone"
    assert locked.club == club and locked.season == evening.season


@pytest.mark.postgres  # SQLite takes no row locks, so Django does not ask for a transaction
@pytest.mark.django_db(transaction=True)
def test_the_lock_needs_the_callers_transaction(club: Club) -> None:
    evening = seated_evening(club, NAMES[:4])
    with pytest.raises(TransactionManagementError):
        selectors.evening_for_update(evening_id=evening.pk)


def test_a_closed_or_deleted_evening_starts_no_game(club: Club) -> None:
    closed = services.evening_close(evening=seated_evening(club, NAMES[:5]))
    with pytest.raises(EveningClosed):
        services.game_start(evening=closed, user=None)
    gone = seated_evening(club, NAMES[:5])
    stale = Evening.objects.get(pk=gone.pk)
    services.evening_delete(evening=gone)
    with pytest.raises(EveningClosed) as deleted:
        services.game_start(evening=stale, user=None)
    assert str(deleted.value) == gettext("This evening has been deleted.")
    assert not Game.objects.filter(evening_id=gone.pk).exists()


def test_the_seated_names_come_in_the_seats_order_without_those_who_left(club: Club) -> None:
    evening = seated_evening(club, ("Dora", "Anna", "Emil", "Bert", "Carl", "Franz"))
    left = EveningSeat.objects.get(evening=evening, player__display_name="Emil")
    services.evening_seat_remove(evening=evening, player=left.player)
    names = selectors.seated_names(evening_id=evening.pk)
    seats = selectors.evening_seats(evening=evening)
    assert list(names.items()) == [(str(s.player_id), s.player.display_name) for s in seats]
    assert list(names.values()) == ["Dora", "Anna", "Bert", "Carl", "Franz"]


def test_new_games_are_numbered_in_turn(club: Club) -> None:
    evening = seated_evening(club, NAMES[:5])
    games = [services.game_start(evening=evening, user=None) for _ in range(3)]
    assert [game.number for game in games] == [1, 2, 3]
    stored = Game.objects.filter(evening=evening).order_by("number")
    assert [game.pk for game in stored] == [game.pk for game in games]


def test_a_started_game_takes_the_evenings_next_number_and_current_rules(club: Club) -> None:
    profile = RuleProfileFactory.create(club=club, overrides={"fuchs_penalty": 20})
    evening = seated_evening(club, NAMES[:5], rule_profile=profile)
    first = services.game_start(evening=evening, user=None)
    profile.overrides = {"fuchs_penalty": 40}
    profile.save()
    second = services.game_start(evening=evening, user=None)
    assert (first.number, second.number) == (1, 2)
    assert (first.house_rules, second.house_rules) == ({"fuchs_penalty": 20}, {"fuchs_penalty": 40})
