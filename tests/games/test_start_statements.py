"""A game start's hand-written statements (``games.sql``) read and write as the ORM does.

Every evening request reads the evening with the caller's role, and every game
start locks the evening, names its seated players and inserts the game: written
once in SQL, each must give exactly what the ORM-built query gave, on SQLite and
on PostgreSQL alike.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import transaction
from django.db.models import Model, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Club, Membership, Role
from games import selectors, services, sql
from games.errors import EveningClosed
from games.models import Evening, EveningSeat, Game
from tests.conftest import PersonaClient
from tests.factories import MembershipFactory, RuleProfileFactory, UserFactory
from tests.games.factories import NAMES, open_season, seated_evening

pytestmark = pytest.mark.django_db


def _fields(instance: Model | None) -> dict[str, Any]:
    """Every concrete field's value, as the instance holds it (by attname)."""
    if instance is None:
        return {}
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def _by_orm(evening_id: int, user: Any) -> Evening:
    role = Membership.objects.filter(club_id=OuterRef("club_id"), user=user).values("role")[:1]
    return (
        Evening.objects.select_related("club", "season", "rule_profile")
        .annotate(member_role=Subquery(role))
        .get(pk=evening_id)
    )


@pytest.mark.parametrize("with_profile", [False, True], ids=["no rule profile", "rule profile"])
def test_the_evening_with_the_role_is_read_as_the_orm_reads_it(
    club: Club, with_profile: bool
) -> None:
    season = open_season(club, end=datetime.date(2027, 6, 30))
    profile = (
        RuleProfileFactory.create(club=club, overrides={"fuchs_penalty": 20, "x": [1, "ä"]})
        if with_profile
        else None
    )
    evening = seated_evening(club, NAMES[:5], rule_profile=profile)
    scorer = UserFactory.create()
    MembershipFactory.create(club=club, user=scorer, role=Role.SCORER)
    got = sql.evening_with_role(evening_id=evening.pk, user_id=scorer.pk)
    want = _by_orm(evening.pk, scorer)
    assert got is not None
    assert _fields(got) == _fields(want)
    assert _fields(got.club) == _fields(want.club)
    assert _fields(got.season) == _fields(want.season)
    assert _fields(got.rule_profile) == _fields(want.rule_profile)
    assert got.member_role == want.member_role == Role.SCORER  # type: ignore[attr-defined]
    # Read with their kinds: a date, an aware datetime, JSON decoded.
    assert isinstance(got.date, datetime.date) and got.season.end == datetime.date(2027, 6, 30)
    assert got.created_at.tzinfo is not None and got.club.created_at.tzinfo is not None
    if with_profile:
        assert got.rule_profile is not None
        assert got.rule_profile.overrides == {"fuchs_penalty": 20, "x": [1, "ä"]}
    assert got.season.pk == season.pk


def test_a_stranger_reads_the_evening_without_a_role_and_an_unknown_one_is_none(
    club: Club,
) -> None:
    evening = seated_evening(club, NAMES[:4])
    stranger = UserFactory.create()
    got = sql.evening_with_role(evening_id=evening.pk, user_id=stranger.pk)
    assert got is not None and got.member_role is None  # type: ignore[attr-defined]
    for unknown in (evening.pk + 1000, 0, -1, 2**63, 10**30):
        assert sql.evening_with_role(evening_id=unknown, user_id=stranger.pk) is None
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
        locked = sql.evening_lock(evening_id=evening.pk)
        want = Evening.objects.select_related("club", "season").get(pk=evening.pk)
    assert locked is not None and locked.place == "Gasthaus Krone"
    assert _fields(locked) == _fields(want)
    assert _fields(locked.club) == _fields(want.club)
    assert _fields(locked.season) == _fields(want.season)
    with transaction.atomic():
        assert sql.evening_lock(evening_id=evening.pk + 1000) is None


@pytest.mark.django_db(transaction=True)
def test_the_lock_needs_the_callers_transaction(club: Club) -> None:
    evening = seated_evening(club, NAMES[:4])
    with pytest.raises(RuntimeError, match="inside the caller's transaction"):
        sql.evening_lock(evening_id=evening.pk)


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
    names = sql.seated_names(evening_id=evening.pk)
    seats = selectors.evening_seats(evening=evening)
    assert list(names.items()) == [(str(s.player_id), s.player.display_name) for s in seats]
    assert list(names.values()) == ["Dora", "Anna", "Bert", "Carl", "Franz"]


def test_new_games_are_numbered_in_turn_and_stored_as_a_save_stores_them(club: Club) -> None:
    evening = seated_evening(club, NAMES[:5])
    user = UserFactory.create()
    made = []
    for _ in range(3):
        game = Game(
            evening=evening,
            game_kind=evening.game_kind,
            house_rules={"fuchs_penalty": 30},
            result={"status": "in_progress", "x": ["ü"]},
            last_seq=1,
            created_by=user,
            finished_at=timezone.now(),
        )
        with transaction.atomic():
            sql.game_insert(game=game)
        made.append(game)
    assert [game.number for game in made] == [1, 2, 3]
    for game in made:
        stored = Game.objects.get(pk=game.pk)
        assert _fields(stored) == _fields(game)
        assert not game._state.adding
    with pytest.raises(ValueError, match="new game"), transaction.atomic():
        sql.game_insert(game=made[0])


def test_a_started_game_takes_the_evenings_next_number_and_current_rules(club: Club) -> None:
    profile = RuleProfileFactory.create(club=club, overrides={"fuchs_penalty": 20})
    evening = seated_evening(club, NAMES[:5], rule_profile=profile)
    first = services.game_start(evening=evening, user=None)
    profile.overrides = {"fuchs_penalty": 40}
    profile.save()
    second = services.game_start(evening=evening, user=None)
    assert (first.number, second.number) == (1, 2)
    assert (first.house_rules, second.house_rules) == ({"fuchs_penalty": 20}, {"fuchs_penalty": 40})
