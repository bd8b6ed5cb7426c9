"""Factories and builders for evenings and games.

``EveningFactory`` builds a bare evening (no seats) in an open season of its
club; ``seated_evening`` builds one through the service with named players
seated in order, which is what most tests want. ``GameFactory`` builds a game
row without events (for read and permission tests that need only a row).
"""

from __future__ import annotations

from typing import Any

import factory
from django.utils import timezone

from clubs.models import Club, GameKind, Player, Season
from games import services
from games.models import Evening, EveningSeat, Game
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory

NAMES = ("Anna", "Bert", "Carl", "Dora", "Emil", "Franz")


class EveningFactory(factory.django.DjangoModelFactory[Evening]):
    class Meta:
        model = Evening

    club = factory.SubFactory(ClubFactory)
    game_kind = GameKind.FUCHSEN
    season = factory.LazyAttribute(
        lambda o: SeasonFactory.create(club=o.club, game_kind=o.game_kind)
    )
    date = factory.LazyFunction(timezone.localdate)
    place = "Gasthaus Post"
    status = Evening.Status.OPEN


class EveningSeatFactory(factory.django.DjangoModelFactory[EveningSeat]):
    class Meta:
        model = EveningSeat

    evening = factory.SubFactory(EveningFactory)
    player = factory.LazyAttribute(lambda o: PlayerFactory.create(club=o.evening.club))
    position = factory.Sequence(lambda n: n + 1)


class GameFactory(factory.django.DjangoModelFactory[Game]):
    class Meta:
        model = Game

    evening = factory.SubFactory(EveningFactory)
    number = factory.Sequence(lambda n: n + 1)
    game_kind = factory.LazyAttribute(lambda o: o.evening.game_kind)
    house_rules = factory.LazyFunction(dict)
    status = Game.Status.IN_PROGRESS
    result = factory.LazyFunction(lambda: {"status": "in_progress", "awaiting": "deal"})


def club_players(club: Club, names: tuple[str, ...] = NAMES) -> dict[str, Player]:
    """Players of ``club`` with these display names (created if missing), by lower-case name."""
    players = {}
    for name in names:
        player = Player.objects.filter(club=club, display_name__iexact=name).first()
        if player is None:
            player = PlayerFactory.create(club=club, display_name=name)
        players[name.lower()] = player
    return players


def open_season(club: Club, game_kind: str = GameKind.FUCHSEN, **kwargs: Any) -> Season:
    season = Season.objects.filter(club=club, game_kind=game_kind, status="open").first()
    return season or SeasonFactory.create(club=club, game_kind=game_kind, **kwargs)


def seated_evening(
    club: Club,
    names: tuple[str, ...] = NAMES[:5],
    game_kind: str = GameKind.FUCHSEN,
    **kwargs: Any,
) -> Evening:
    """An open evening of ``club`` with players of these names seated in this order."""
    players = club_players(club, names)
    return services.evening_create(
        club=club,
        user=None,
        season=kwargs.pop("season", None) or open_season(club, game_kind),
        players=[players[name.lower()].pk for name in names],
        game_kind=game_kind,
        **kwargs,
    )


def ids(record: dict[str, Any], players: dict[str, Player]) -> dict[str, Any]:
    """A record with lower-case names replaced by the players' ids (as the service stores)."""
    names = {name: str(player.pk) for name, player in players.items()}
    return services._renamed_record(record, names)
