"""Every tournament endpoint × every persona gets exactly the status it should.

Members read; organisers (admins and the owner) set up, draw, confirm and close; a
participant (here the ``member`` persona, seated at table 1) confirms his own sheet,
a scorer who does not sit there may not; the ranking link answers anyone holding it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from clubs.models import Club, Player
from tests.conftest import PERSONAS, PersonaClient
from tests.factories import PlayerFactory
from tests.permission_matrix import Endpoint, admins_write, cases, check, members_read
from tests.tournaments.conftest import record_tally
from tournaments import services
from tournaments.models import Tournament


@dataclass
class World:
    club: Club
    new: Tournament  # nothing drawn: join, leave, draw, close
    drawn: Tournament  # series 1 drawn: confirm it
    playing: Tournament  # series 1 confirmed and its deals played: the sheets
    member_number: int
    member_table: int
    newcomer: Player
    link_key: str


@pytest.fixture
def world(club: Club, member: PersonaClient) -> World:
    players = [PlayerFactory.create(club=club, user=member.user)] + [
        PlayerFactory.create(club=club) for _ in range(7)
    ]
    ids = [p.pk for p in players]

    def make(name: str) -> Tournament:
        return services.tournament_create(
            club=club,
            user=None,
            name=name,
            game_kind="fuchsen",
            series_count=2,
            deals_per_series=1,
            players=ids,
            seed=name,
        )

    new, drawn, playing = make("Neu"), make("Gezogen"), make("Läuft")
    services.series_draw(tournament=drawn)
    series = services.series_confirm(series=services.series_draw(tournament=playing), user=None)
    by_number = {p.start_number: p.player for p in playing.participants.all()}
    for table in series.tables.all():
        record_tally(table, macher=by_number[table.seats[1]], partner=by_number[table.seats[2]])
    member_table = next(t for t in series.tables.all() if 1 in t.seats)
    return World(
        club=club,
        new=new,
        drawn=drawn,
        playing=playing,
        member_number=1,
        member_table=member_table.number,
        newcomer=PlayerFactory.create(club=club),
        link_key=services.ranking_link_create(tournament=new).key,
    )


def t_url(which: str, suffix: str = "") -> Any:
    return lambda w: f"/api/clubs/{w.club.slug}/tournaments/{getattr(w, which).pk}/{suffix}"


ORGANISERS_CONFIRM_OR_SELF = {**admins_write(), "member": 200}

ENDPOINTS = [
    Endpoint(
        "tournament list", "get", lambda w: f"/api/clubs/{w.club.slug}/tournaments/", members_read()
    ),
    Endpoint(
        "tournament create",
        "post",
        lambda w: f"/api/clubs/{w.club.slug}/tournaments/create/",
        admins_write(201),
        data=lambda w: {
            "name": "Cup",
            "game_kind": "fuchsen",
            "series_count": 1,
            "deals_per_series": 2,
        },
    ),
    Endpoint("tournament detail", "get", t_url("new"), members_read()),
    Endpoint(
        "participant join",
        "post",
        t_url("new", "participants/"),
        admins_write(201),
        data=lambda w: {"player": w.newcomer.pk},
    ),
    Endpoint("participant leave", "post", t_url("new", "participants/2/leave/"), admins_write()),
    Endpoint(
        "series draw",
        "post",
        t_url("new", "draw/"),
        admins_write(201),
        data=lambda w: {"leftover": "larger_tables"},
    ),
    Endpoint("series confirm", "post", t_url("drawn", "series/1/confirm/"), admins_write()),
    Endpoint("sheet", "get", t_url("playing", "series/1/tables/1/"), members_read()),
    Endpoint(
        "sheet confirm (participant)",
        "post",
        lambda w: t_url("playing", f"series/1/tables/{w.member_table}/confirm/")(w),
        ORGANISERS_CONFIRM_OR_SELF,
        data=lambda w: {"start_number": w.member_number},
    ),
    Endpoint("ranking", "get", t_url("playing", "ranking/"), members_read()),
    Endpoint("ranking csv", "get", t_url("playing", "ranking/csv/"), members_read()),
    Endpoint("settlement", "get", t_url("playing", "settlement/"), members_read()),
    Endpoint("close", "post", t_url("new", "close/"), admins_write()),
    Endpoint("ranking links", "get", t_url("new", "links/"), admins_write()),
    Endpoint("ranking link create", "post", t_url("new", "links/"), admins_write(201)),
    Endpoint(
        "ranking by link (anonymous screen)",
        "get",
        lambda w: f"/api/tournament-links/{w.link_key}/",
        dict.fromkeys(PERSONAS, 200),
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("endpoint", "persona"), cases(ENDPOINTS))
def test_permission(endpoint: Endpoint, persona: str, persona_client: Any, world: World) -> None:
    check(endpoint, persona_client(persona), world, persona)


@pytest.mark.django_db
def test_a_revoked_ranking_link_gets_404(world: World, admin: PersonaClient) -> None:
    link = world.new.links.get()
    revoke = admin.post(
        f"/api/clubs/{world.club.slug}/tournaments/{world.new.pk}/links/{link.pk}/revoke/"
    )
    assert revoke.status_code == 204
    assert admin.get(f"/api/tournament-links/{world.link_key}/").status_code == 404
