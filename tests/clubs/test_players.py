"""Players: guests are normal, names are unique within a club (whatever the case)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from clubs import services
from clubs.models import Club, Player
from tests.conftest import PersonaClient
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_guest_player_needs_no_account() -> None:
    player = services.player_create(club=ClubFactory.create(), display_name="  Vroni ")
    assert player.display_name == "Vroni"
    assert player.is_guest


def test_two_players_of_one_club_cannot_share_a_name_in_any_case() -> None:
    club = ClubFactory.create()
    services.player_create(club=club, display_name="Hansi")
    with pytest.raises(ValidationError) as excinfo:
        services.player_create(club=club, display_name="hansi")
    assert "display_name" in excinfo.value.message_dict


def test_the_database_also_refuses_a_duplicate_name() -> None:
    club = ClubFactory.create()
    PlayerFactory.create(club=club, display_name="Resi")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, display_name="RESI")


def test_players_of_different_clubs_may_share_a_name() -> None:
    first, second = ClubFactory.create(), ClubFactory.create()
    services.player_create(club=first, display_name="Franz")
    services.player_create(club=second, display_name="Franz")
    franz = Player.objects.filter(display_name="Franz")
    assert sorted(franz.values_list("club_id", flat=True)) == sorted([first.pk, second.pk])


def test_only_a_member_of_the_club_can_be_linked_to_a_player() -> None:
    club = ClubFactory.create()
    with pytest.raises(ValidationError) as excinfo:
        services.player_create(club=club, display_name="X", user=UserFactory.create())
    assert "user" in excinfo.value.message_dict


def test_a_member_has_at_most_one_player_per_club() -> None:
    membership = MembershipFactory.create()
    services.player_create(club=membership.club, display_name="A", user=membership.user)
    with pytest.raises(ValidationError):
        services.player_create(club=membership.club, display_name="B", user=membership.user)


def test_a_deactivated_player_leaves_the_active_list(club: Club, admin: PersonaClient) -> None:
    player = PlayerFactory.create(club=club, display_name="Gretl")
    response = admin.post(
        f"/api/clubs/{club.slug}/players/{player.pk}/update/", {"is_active": False}, format="json"
    )
    assert response.status_code == 200
    active = admin.get(f"/api/clubs/{club.slug}/players/?active=true").json()["results"]
    everyone = admin.get(f"/api/clubs/{club.slug}/players/").json()["results"]
    assert "Gretl" not in [p["display_name"] for p in active]
    assert "Gretl" in [p["display_name"] for p in everyone]


def test_a_scorer_can_add_a_guest_who_turns_up_at_the_table(
    club: Club, scorer: PersonaClient
) -> None:
    response = scorer.post(
        f"/api/clubs/{club.slug}/players/create/", {"display_name": "Gast Toni"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["is_guest"] is True
