"""factory_boy factories for the ledger's tests, and a helper that plays games.

The games app records games through its event API; the ledger only cares
about a game's ``status`` and ``result``. ``TableFactory`` builds a club with
an open season, an evening and seated players; ``finish``, ``reopen`` and
``annul`` change a game the way the recording service does (set the cached
result, call the hook), so these tests do not depend on the games API.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import factory
from django.db import transaction
from django.utils import timezone

from clubs.models import Club, GameKind, Player, Season
from games.models import Evening, Game
from ledger.models import Payment, StandingsConfig
from ledger.services import ledger_sync_game
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory


class EveningFactory(factory.django.DjangoModelFactory[Evening]):
    class Meta:
        model = Evening

    season = factory.SubFactory(SeasonFactory)
    club = factory.LazyAttribute(lambda evening: evening.season.club)
    game_kind = factory.LazyAttribute(lambda evening: evening.season.game_kind)
    date = factory.LazyFunction(timezone.localdate)


class GameFactory(factory.django.DjangoModelFactory[Game]):
    """A game in progress; use ``finish`` to give it a result."""

    class Meta:
        model = Game

    evening = factory.SubFactory(EveningFactory)
    number = factory.Sequence(lambda n: n + 1)
    game_kind = factory.LazyAttribute(lambda game: game.evening.game_kind)
    status = Game.Status.IN_PROGRESS
    result = factory.LazyFunction(lambda: {"status": "in_progress"})


class PaymentFactory(factory.django.DjangoModelFactory[Payment]):
    """A bare Payment row (no ledger entries): use ``payment_record`` for booked ones."""

    class Meta:
        model = Payment

    club = factory.SubFactory(ClubFactory)
    payer = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..club"))
    payee = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..club"))
    amount = 100


class StandingsConfigFactory(factory.django.DjangoModelFactory[StandingsConfig]):
    class Meta:
        model = StandingsConfig

    club = factory.SubFactory(ClubFactory)
    min_games = 0
    tie_break = factory.LazyFunction(lambda: ["net", "per_game", "wins"])


# --- Playing games without the games API ------------------------------------------------------


@dataclass
class Table:
    """A club's season, one evening and the players at its table."""

    club: Club
    season: Season
    evening: Evening
    players: list[Player]

    def pk(self, index: int) -> str:
        return str(self.players[index].pk)

    def new_evening(self) -> Evening:
        return EveningFactory.create(season=self.season, club=self.club)

    def new_game(self, evening: Evening | None = None) -> Game:
        return GameFactory.create(evening=evening or self.evening)


def make_table(
    club: Club | None = None, players: int = 4, game_kind: str = GameKind.FUCHSEN
) -> Table:
    club = club or ClubFactory.create()
    season = SeasonFactory.create(club=club, game_kind=game_kind)
    evening = EveningFactory.create(season=season, club=club)
    seated = [PlayerFactory.create(club=club) for _ in range(players)]
    return Table(club, season, evening, seated)


def fuchsen_result(
    payouts: Mapping[str, int], declarers: Sequence[str] = (), won: bool | None = None
) -> dict[str, Any]:
    """A finished result in the spec's shape, payouts keyed by ``str(player.pk)``."""
    if won is None and declarers:
        won = sum(payouts[p] for p in declarers) > 0
    return {
        "status": "finished",
        "game": "fuchsen",
        "contract": "partner" if len(declarers) > 1 else "alone",
        "declarers": list(declarers),
        "won": won,
        "value": max(abs(a) for a in payouts.values()),
        "reason": "played_out",
        "tricks": 6,
        "payouts": dict(payouts),
    }


def _set(game: Game, status: str, result: dict[str, Any], finished: bool) -> Game:
    # What the recording service does in its append transaction.
    with transaction.atomic():
        game.status = status
        game.result = result
        if finished:
            game.finished_at = game.finished_at or timezone.now()
        game.save()
        ledger_sync_game(game=game)
    return game


def finish(
    game: Game,
    payouts: Mapping[str, int],
    declarers: Sequence[str] = (),
    *,
    at: datetime.datetime | None = None,
) -> Game:
    if at is not None:
        game.finished_at = at
    return _set(game, Game.Status.FINISHED, fuchsen_result(payouts, declarers), True)


def reopen(game: Game) -> Game:
    """An undo took the finished game back into play."""
    game.finished_at = None
    return _set(game, Game.Status.IN_PROGRESS, {"status": "in_progress", "game": "fuchsen"}, False)


def annul(game: Game) -> Game:
    return _set(game, Game.Status.ANNULLED, {"status": "annulled", "game": "fuchsen"}, False)


def zero_sum(rng: random.Random, table: Table, seated: int = 4) -> tuple[dict[str, int], list[str]]:
    """Payouts of a Fuchsen-like game of ``seated`` of the table's players (a Macher,
    mostly with a partner, against the rest), summing to zero, and its declarers."""
    players = rng.sample(range(len(table.players)), seated)
    declarers = [table.pk(players[0])] + ([table.pk(players[1])] if rng.random() < 0.7 else [])
    value = rng.choice([10, 20, 40, 80])
    sign = 1 if rng.random() < 0.5 else -1
    opponents = [table.pk(i) for i in players if table.pk(i) not in declarers]
    payouts = dict.fromkeys((table.pk(i) for i in players), 0)
    for opponent in opponents:
        payouts[opponent] = -sign * value
    share = sign * value * len(opponents)
    payouts[declarers[0]] = share - (sign * value if len(declarers) > 1 else 0)
    if len(declarers) > 1:
        payouts[declarers[1]] = sign * value
    return payouts, declarers
