"""The season table says what its words mean, and only what applies: "Wertung" is
explained, "Ohne Platz (–)" only where someone has no place."""

from __future__ import annotations

from clubs.models import Club
from ledger import services
from ledger.models import StandingsConfig
from tests.conftest import PersonaClient
from tests.e2e.tables import open_evening, players_of, record_game
from tests.games.records import RE_PLAYED_OUT


def _table(club: Club, member: PersonaClient) -> str:
    players = players_of(club)
    evening = open_evening(club, players)
    record_game(evening, players, RE_PLAYED_OUT)
    services.season_projections_recompute(season_id=evening.season_id, force=True)
    url = f"/clubs/{club.slug}/seasons/{evening.season_id}/table/"
    return str(member.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode())


def test_the_rating_is_explained_and_no_place_is_not_when_everyone_has_one(
    club: Club, member: PersonaClient
) -> None:
    page = _table(club, member)
    assert "Wertung: die Spielstärke" in page
    assert "Ohne Platz" not in page


def test_no_place_is_explained_when_someone_has_none(club: Club, member: PersonaClient) -> None:
    StandingsConfig.objects.update_or_create(club=club, defaults={"min_games": 2})
    page = _table(club, member)
    assert page.count("Ohne Platz (–)") == 1
