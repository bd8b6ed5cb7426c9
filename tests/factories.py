"""factory_boy factories for the models every app's tests need.

Each factory builds a valid object with the fewest arguments: a club gets a
unique slug, a membership a user and a club, an invitation an unguessable token
and an expiry a week ahead. Pass what the test is about, leave the rest.

Call ``XFactory.create(...)`` rather than ``XFactory(...)``: ``create`` is typed to
return the model, so mypy knows what a test holds.
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from clubs.models import (
    Club,
    GameKind,
    Invitation,
    Membership,
    Player,
    Role,
    RuleProfile,
    Season,
)

User = get_user_model()

PASSWORD = "kartenspiel-123"  # every UserFactory user has this password


class UserFactory(factory.django.DjangoModelFactory[Any]):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"spieler{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.org")
    first_name = factory.Faker("first_name", locale="de_AT")

    @factory.post_generation
    def password(self: Any, create: bool, extracted: str | None, **kwargs: Any) -> None:
        self.set_password(extracted or PASSWORD)
        if create:
            self.save(update_fields=["password"])


class ClubFactory(factory.django.DjangoModelFactory[Club]):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Stammtisch {n}")
    slug = factory.Sequence(lambda n: f"stammtisch-{n}")
    time_zone = "Europe/Vienna"
    currency_unit = Club.CurrencyUnit.CENT
    card_face = Club.CardFace.GERMAN


class MembershipFactory(factory.django.DjangoModelFactory[Membership]):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    club = factory.SubFactory(ClubFactory)
    role = Role.MEMBER


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    """A guest player by default; pass ``user=`` for a member's player."""

    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    display_name = factory.Sequence(lambda n: f"Spieler {n}")
    user = None
    is_active = True


class InvitationFactory(factory.django.DjangoModelFactory[Invitation]):
    class Meta:
        model = Invitation

    club = factory.SubFactory(ClubFactory)
    role = Role.MEMBER
    token = factory.LazyFunction(lambda: secrets.token_urlsafe(32))
    expires_at = factory.LazyFunction(lambda: timezone.now() + datetime.timedelta(days=7))
    # Made by an admin of the club (an owner for an owner's link): an invitation grants
    # only what its maker may grant when it is accepted.
    created_by = factory.LazyAttribute(
        lambda o: (
            MembershipFactory.create(
                club=o.club, role=Role.OWNER if o.role == Role.OWNER else Role.ADMIN
            ).user
        )
    )
    player = None


class RuleProfileFactory(factory.django.DjangoModelFactory[RuleProfile]):
    class Meta:
        model = RuleProfile

    club = factory.SubFactory(ClubFactory)
    game_kind = GameKind.FUCHSEN
    name = factory.Sequence(lambda n: f"Hausregeln {n}")
    overrides = factory.LazyFunction(dict)


class SeasonFactory(factory.django.DjangoModelFactory[Season]):
    """An open season; pass ``status=Season.Status.CLOSED`` for a past one."""

    class Meta:
        model = Season

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Saison {n}")
    game_kind = GameKind.FUCHSEN
    start = factory.LazyFunction(lambda: timezone.localdate().replace(month=1, day=1))
    end = None
    status = Season.Status.OPEN
    rule_profile = None
