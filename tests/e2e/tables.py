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

# shared/examples/04: kontra (dora) and re (carl), played out; bert's side wins 96 : 25.
RE_PLAYED_OUT: dict[str, Any] = {
    "game": "fuchsen",
    "events": [
        {
            "type": "deal",
            "dealer": "anna",
            "players": ["anna", "bert", "carl", "dora", "emil"],
            "hands": {
                "bert": ["EO", "GO", "EU", "GU", "SU", "E7"],
                "carl": ["RU", "RA", "E10", "GA", "G10", "GK"],
                "dora": ["R10", "RK", "EK", "SA", "S10", "SK"],
                "emil": ["RO", "R9", "E9", "G9", "G8", "SO"],
                "anna": ["R8", "R7", "E8", "EA", "S9", "S8"],
            },
        },
        {"type": "call", "player": "bert", "card": "E10"},
        {"type": "play", "player": "bert", "card": "EO"},
        {"type": "play", "player": "carl", "card": "RA"},
        {"type": "play", "player": "dora", "card": "R10"},
        {"type": "raise", "player": "dora", "level": "kontra"},
        {"type": "raise", "player": "carl", "level": "re"},
        {"type": "play", "player": "emil", "card": "R9"},
        {"type": "play", "player": "anna", "card": "R7"},
        {"type": "end_raising"},
        *[
            {"type": "play", "player": p, "card": c}
            for p, c in [
                ("bert", "GO"),
                ("carl", "RU"),
                ("dora", "RK"),
                ("emil", "RO"),
                ("anna", "R8"),
                ("bert", "EU"),
                ("carl", "GK"),
                ("dora", "SK"),
                ("emil", "G8"),
                ("anna", "S8"),
                ("bert", "GU"),
                ("carl", "G10"),
                ("dora", "S10"),
                ("emil", "G9"),
                ("anna", "S9"),
                ("bert", "SU"),
                ("carl", "GA"),
                ("dora", "SA"),
                ("emil", "SO"),
                ("anna", "E8"),
                ("bert", "E7"),
                ("carl", "E10"),
                ("dora", "EK"),
                ("emil", "E9"),
                ("anna", "EA"),
            ]
        ],
    ],
}
RE_PLAYED_OUT_PAYOUTS = {"anna": -20, "bert": 40, "carl": 20, "dora": -20, "emil": -20}


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
        )
    return game
