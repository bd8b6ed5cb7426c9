"""Rule profiles: overrides are checked against the engine's house rules of the game."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubs import services
from clubs.models import Club, GameKind
from tests.conftest import PersonaClient
from tests.factories import ClubFactory, RuleProfileFactory

pytestmark = pytest.mark.django_db


def test_a_valid_override_is_saved_as_given() -> None:
    profile = services.rule_profile_create(
        club=ClubFactory.create(),
        game_kind=GameKind.FUCHSEN,
        name="Wirtshaus",
        overrides={"game_cost": 10, "level_values": {"kontra": 20}},
    )
    assert profile.overrides == {"game_cost": 10, "level_values": {"kontra": 20}}


def test_an_unknown_key_is_refused_naming_the_key() -> None:
    with pytest.raises(ValidationError) as excinfo:
        services.rule_profile_create(
            club=ClubFactory.create(),
            game_kind=GameKind.KOENIGRUFEN,
            name="x",
            overrides={"game_cost": 5},  # a Fuchsen rule, not a Königrufen one
        )
    assert "game_cost" in excinfo.value.message_dict["overrides"][0]


def test_every_bad_key_is_reported_not_only_the_first() -> None:
    with pytest.raises(ValidationError) as excinfo:
        services.rule_profile_create(
            club=ClubFactory.create(),
            game_kind=GameKind.FUCHSEN,
            name="x",
            overrides={"game_cost": True, "sit_out": "nobody", "call_own_card": False},
        )
    messages = " ".join(excinfo.value.message_dict["overrides"])
    assert "game_cost" in messages
    assert "sit_out" in messages
    assert "call_own_card" not in messages


def test_an_update_is_validated_too() -> None:
    profile = RuleProfileFactory.create(game_kind=GameKind.FUCHSEN)
    with pytest.raises(ValidationError):
        services.rule_profile_update(rule_profile=profile, overrides={"removed_cards": ["EO"]})
    profile.refresh_from_db()
    assert profile.overrides == {}


def test_two_profiles_of_a_game_cannot_share_a_name() -> None:
    profile = RuleProfileFactory.create(name="Standard")
    with pytest.raises(ValidationError) as excinfo:
        services.rule_profile_create(
            club=profile.club, game_kind=profile.game_kind, name="standard"
        )
    assert "name" in excinfo.value.message_dict


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"gamecost": 5}, "gamecost"),
        ({"game_cost": "fünf"}, "game_cost"),
        ({"level_values": {"kontra": 1.5}}, "level_values"),
        ({"removed_cards": ["S7", "S7"]}, "removed_cards"),
        # A "%" in what the message quotes is text, not a placeholder.
        ({"sit_out": "50%Ã"}, "50%Ã"),
        ({"game_cost": "10 %"}, "10 %"),
        ({"%(key)s": 1}, "%(key)s"),
    ],
)
def test_over_the_api_a_bad_rule_is_a_400_naming_what_was_sent(
    club: Club, admin: PersonaClient, overrides: dict[str, object], named: str
) -> None:
    response = admin.post(
        f"/api/clubs/{club.slug}/rule-profiles/create/",
        {"name": "Neu", "game_kind": "fuchsen", "overrides": overrides},
        format="json",
    )
    assert response.status_code == 400
    assert named in response.json()["overrides"][0]


def test_overrides_that_are_not_an_object_are_a_400(club: Club, admin: PersonaClient) -> None:
    response = admin.post(
        f"/api/clubs/{club.slug}/rule-profiles/create/",
        {"name": "Neu", "game_kind": "fuchsen", "overrides": [1, 2]},
        format="json",
    )
    assert response.status_code == 400
    assert "overrides" in response.json()


def test_the_house_rules_of_a_game_are_listed_with_defaults(member: PersonaClient) -> None:
    rules = member.get("/api/house-rules/fuchsen/").json()
    assert {"key": "game_cost", "default": 5}.items() <= next(
        r for r in rules if r["key"] == "game_cost"
    ).items()
    assert member.get("/api/house-rules/schnapsen/").status_code == 404
