"""Builders shared by the reliability tests: a real table, real games, snapshots.

Everything goes through the real services (``games.services``), so the ledger
hook, the on-commit projection request and the engine all run as in
production. Records come from ``engine.generate`` (seeded, legal, complete)
with its names replaced by the players' ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clubs.models import Club, Player, Season
from engine.generate import NAMES, random_game
from games import services
from games.models import Evening, Game, GameEvent
from ledger.models import LedgerEntry, PlayerGame, PlayerRating, StandingRow
from ledger.projections import PLAYER_GAME_FIELDS
from ledger.selectors import rating_get, season_series_get
from tests.factories import ClubFactory, PlayerFactory
from tests.games.factories import seated_evening


@dataclass
class Table:
    club: Club
    evening: Evening
    players: dict[str, Player]  # engine.generate's names -> the club's players

    @property
    def names(self) -> dict[str, str]:
        return {name: str(player.pk) for name, player in self.players.items()}

    def record(self, seed: int) -> dict[str, Any]:
        """A complete legal Fuchsen record of five, players as ids."""
        record = random_game(seed, "fuchsen", 5)
        return services._renamed_record(record, self.names)

    def start(self, record: dict[str, Any], user: Any = None) -> Game:
        """A new game whose first event is ``record``'s deal."""
        deal = {k: v for k, v in record["events"][0].items() if k != "type"}
        return services.game_start(evening=self.evening, user=user, deal=deal)


def make_table(club: Club | None = None) -> Table:
    club = club or ClubFactory.create()
    players = {name: PlayerFactory.create(club=club, display_name=name.title()) for name in NAMES}
    titles = tuple(name.title() for name in NAMES[:5])
    evening = seated_evening(club, titles)
    return Table(club=club, evening=evening, players=players)


def stored_events(game: Game) -> list[dict[str, Any]]:
    return [event.as_event() for event in GameEvent.objects.filter(game=game).order_by("seq")]


def money_by_player(club: Club) -> dict[int, int]:
    totals: dict[int, int] = {}
    for player_id, amount in LedgerEntry.objects.filter(club=club).values_list(
        "player_id", "amount"
    ):
        totals[player_id] = totals.get(player_id, 0) + amount
    return {p: a for p, a in totals.items() if a}


def payouts_by_player(club: Club) -> dict[int, int]:
    """What the finished games' results say each player won or paid, in total."""
    totals: dict[int, int] = {}
    for result in Game.objects.filter(evening__club=club, status=Game.Status.FINISHED).values_list(
        "result", flat=True
    ):
        for player, amount in result["payouts"].items():
            totals[int(player)] = totals.get(int(player), 0) + amount
    return {p: a for p, a in totals.items() if a}


def projections_snapshot(season_id: int) -> dict[str, Any]:
    """Everything projected for one season, comparable with ==: the tables, the
    ratings with their histories, the series (running nets, head-to-head exact and
    rounded) and every ``PlayerGame`` row."""
    season = Season.objects.get(pk=season_id)
    series = season_series_get(season=season)
    return {
        "standings": list(
            StandingRow.objects.filter(season_id=season_id)
            .order_by("evening_id", "position")
            .values_list(
                "evening_id",
                "position",
                "player_id",
                "rank",
                "net",
                "games",
                "wins",
                "win_pct",
                "per_game",
                "macher_games",
                "macher_wins",
                "partner_games",
            )
        ),
        "ratings": [
            (r.player_id, r.mu, r.sigma, r.ordinal, r.games, r.history)
            for r in (
                rating_get(season=season, player_id=pk)
                for pk in PlayerRating.objects.filter(season_id=season_id)
                .order_by("player_id")
                .values_list("player_id", flat=True)
            )
        ],
        "series": (
            (series.cumulative, series.head_to_head, series.h2h_numerators)
            if series is not None
            else None
        ),
        "player_games": list(
            PlayerGame.objects.filter(season_id=season_id)
            .order_by("played_at", "game_id", "player_id")
            .values_list(*PLAYER_GAME_FIELDS)
        ),
    }
