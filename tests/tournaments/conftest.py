"""Fixtures of the tournament tests: eight Fuchsen players of the persona club, a
cashier, a tournament of eleven drawn, and helpers that record a deal at a table as
a tally (ordinary recording)."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Club, Player
from games import services as games
from games.models import Game
from tests.conftest import PersonaClient
from tests.factories import PlayerFactory
from tournaments import services
from tournaments.models import Series, Tournament, TournamentTable

NAMES = ("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz", "Gerda", "Hans")


@pytest.fixture
def eight(club: Club) -> dict[str, Player]:
    """Anna … Hans of ``club``, by first letter (``"A"`` … ``"H"``)."""
    return {name[0]: PlayerFactory.create(club=club, display_name=name) for name in NAMES}


@pytest.fixture
def cashier(club: Club) -> Player:
    return PlayerFactory.create(club=club, display_name="Kassa")


def record_tally(
    table: TournamentTable,
    *,
    macher: Player,
    partner: Player | None,
    level: str = "re",
    augen: int = 70,
) -> Game:
    """Record one deal at ``table``'s evening: seat 1 deals, ``macher`` calls, and the
    table's tally (the game's payouts are the engine's)."""
    assert table.evening is not None
    seated = [str(pid) for pid in table.evening.seats.values_list("player_id", flat=True)]
    call: dict[str, Any] = {"type": "call", "player": str(macher.pk)}
    tally: dict[str, Any] = {"type": "tally", "level": level, "augen": augen}
    if partner is None:
        call["alone"] = True
    else:
        call["card"] = "E10"
        tally["partner"] = str(partner.pk)
    events = [{"type": "deal", "dealer": seated[0], "players": seated}, call, tally]
    return games.game_started(evening=table.evening, user=None, events=events).game


def fixed_series(tournament: Tournament, tables: list[list[int]], byes: list[int] = ()) -> Series:  # type: ignore[assignment]
    """A drawn series with the tables given (start numbers, seat 1 first): stands for a
    draw where the test must know who sits where. Confirmed by the service."""
    number = tournament.series.count() + 1
    series = Series.objects.create(
        tournament=tournament, number=number, seeding="random", leftover="bye", byes=list(byes)
    )
    for index, seats in enumerate(tables, start=1):
        TournamentTable.objects.create(series=series, number=index, seats=seats)
    return services.series_confirm(series=series, user=None)


def confirm_all(table: TournamentTable) -> None:
    """Every participant at the table agrees to its sheet."""
    for participant in table.series.tournament.participants.filter(start_number__in=table.seats):
        services.sheet_confirm(table=table, participant=participant, user=None)


@pytest.fixture
def drawn(club: Club, member: PersonaClient) -> Tournament:
    """A Fuchsen tournament of eleven (the member among them), its first series drawn."""
    players = [PlayerFactory.create(club=club, user=member.user, display_name="Mitglied")] + [
        PlayerFactory.create(club=club) for _ in range(10)
    ]
    tournament = services.tournament_create(
        club=club,
        user=None,
        name="Preisfuchsen",
        game_kind="fuchsen",
        series_count=2,
        deals_per_series=1,
        players=[p.pk for p in players],
        seed="page",
    )
    services.series_draw(tournament=tournament, leftover="larger_tables")
    return tournament
