"""Tables, evenings and games for the page tests, built through the services.

Records are written with lower-case names (as in shared/examples); ``to_ids``
turns them into the player ids the services store.
"""

from __future__ import annotations

from typing import Any

from clubs.models import Club, GameKind, Player, Season
from games import services
from games.models import Evening, Game
from tests.factories import PlayerFactory, SeasonFactory

NAMES = ("Anna", "Bert", "Carl", "Dora", "Emil")


def players_of(club: Club, names: tuple[str, ...] = NAMES) -> dict[str, Player]:
    return {name.lower(): PlayerFactory.create(club=club, display_name=name) for name in names}


def to_ids(value: Any, players: dict[str, Player], key: str | None = None) -> Any:
    """Names → ``str(player.pk)`` in player fields, seat lists and hand keys."""
    if isinstance(value, list):
        return [to_ids(v, players, key) for v in value]
    if isinstance(value, dict):
        return {
            (str(players[k].pk) if key == "hands" and k in players else k): to_ids(v, players, k)
            for k, v in value.items()
        }
    if key in ("player", "dealer", "players", "sitting_out") and isinstance(value, str):
        return str(players[value].pk) if value in players else value
    return value


def open_evening(
    club: Club,
    players: dict[str, Player],
    *,
    kind: str = GameKind.FUCHSEN,
    seated: tuple[str, ...] | None = None,
) -> Evening:
    season = Season.objects.filter(club=club, game_kind=kind, status=Season.Status.OPEN).first()
    if season is None:
        season = SeasonFactory.create(club=club, game_kind=kind, name=f"Saison {kind}")
    order = seated or tuple(players)
    return services.evening_create(
        club=club, user=None, season=season, players=[players[n].pk for n in order]
    )


def start(evening: Evening, players: dict[str, Player], deal: dict[str, Any] | None) -> Game:
    return services.game_start(
        evening=evening, user=None, deal=to_ids(deal, players) if deal else None
    )


def record_game(evening: Evening, players: dict[str, Player], record: dict[str, Any]) -> Game:
    """Start a game with the record's deal and append the rest in one go."""
    events = to_ids(record["events"], players)
    game = services.game_start(evening=evening, user=None, deal=events[0])
    if len(events) > 1:
        game = services.game_events_append(
            game=game, user=None, expected_seq=game.last_seq, events=events[1:]
        ).game
    return game
