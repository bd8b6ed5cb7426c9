"""Evenings over the API: open, list, show with the next deal, seats, start, close."""

from __future__ import annotations

import pytest

from clubs.models import Club, GameKind, Player
from games.models import Evening, Game
from tests.conftest import PersonaClient
from tests.factories import RuleProfileFactory, SeasonFactory
from tests.games import records
from tests.games.factories import open_season

pytestmark = pytest.mark.django_db


def test_a_scorer_opens_an_evening_with_players_in_seat_order(
    scorer: PersonaClient, club: Club, players: dict[str, Player]
) -> None:
    season = open_season(club)
    order = [players[n].pk for n in ("dora", "anna", "carl", "bert", "emil")]
    response = scorer.post(
        f"/api/clubs/{club.slug}/evenings/",
        {"season": season.pk, "date": "2026-11-27", "place": "Post", "players": order},
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["game_kind"] == "fuchsen"
    assert body["date"] == "2026-11-27"
    assert [seat["player"] for seat in body["seats"]] == order
    assert body["next_deal"]["dealer"]["display_name"] == "Dora"
    assert body["next_deal"]["event"]["players"] == [str(pk) for pk in order]
    assert body["games"] == [] and body["in_progress"] == []


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"players": []}, "players"),
        ({"players": [1, 2, 3]}, "players"),
        ({"season": 987654}, "season"),
        ({"game_kind": "skat"}, "game_kind"),
        ({"game_kind": "koenigrufen"}, "game_kind"),
        ({"date": "gestern"}, "date"),
        ({"rule_profile": 987654}, "rule_profile"),
        ({"place": 5}, "place"),
        # 101 characters as sent (the schema's maxLength is 100), 100 once trimmed.
        ({"place": " " + "P" * 100}, "place"),
    ],
)
def test_bad_evening_input_is_a_400_naming_the_field(
    scorer: PersonaClient, club: Club, players: dict[str, Player], change: dict, field: str
) -> None:
    season = open_season(club)
    body = {"season": season.pk, "players": [p.pk for p in list(players.values())[:5]], **change}
    response = scorer.post(f"/api/clubs/{club.slug}/evenings/", body)
    assert response.status_code == 400
    assert field in response.json()
    assert not Evening.objects.exists()


def test_a_player_twice_at_the_table_is_a_400(
    scorer: PersonaClient, club: Club, players: dict[str, Player]
) -> None:
    season = open_season(club)
    anna = players["anna"].pk
    response = scorer.post(
        f"/api/clubs/{club.slug}/evenings/", {"season": season.pk, "players": [anna] * 4}
    )
    assert response.status_code == 400 and "players" in response.json()


def test_a_rule_profile_of_the_other_game_is_refused(
    scorer: PersonaClient, club: Club, players: dict[str, Player]
) -> None:
    season = open_season(club)
    profile = RuleProfileFactory.create(club=club, game_kind=GameKind.KOENIGRUFEN)
    body = {
        "season": season.pk,
        "players": [p.pk for p in list(players.values())[:5]],
        "rule_profile": profile.pk,
    }
    response = scorer.post(f"/api/clubs/{club.slug}/evenings/", body)
    assert response.status_code == 400 and "rule_profile" in response.json()


def test_the_evening_list_is_newest_first_and_filters_by_season(
    member: PersonaClient, club: Club, evening: Evening
) -> None:
    koenig = SeasonFactory.create(club=club, game_kind=GameKind.KOENIGRUFEN)
    body = member.get(f"/api/clubs/{club.slug}/evenings/").json()
    assert [e["id"] for e in body["results"]] == [evening.pk]
    filtered = member.get(f"/api/clubs/{club.slug}/evenings/?season={koenig.pk}").json()
    assert filtered["results"] == []


def test_the_evening_page_lists_games_and_those_still_in_progress(
    scorer: PersonaClient, evening: Evening
) -> None:
    first = scorer.post(f"/api/evenings/{evening.pk}/games/", {}).json()
    annul = {"expected_seq": 1, "events": [{"type": "annul"}]}
    scorer.post(f"/api/games/{first['id']}/events/", annul)
    second = scorer.post(f"/api/evenings/{evening.pk}/games/", {}).json()
    body = scorer.get(f"/api/evenings/{evening.pk}/").json()
    assert [(g["number"], g["status"]) for g in body["games"]] == [
        (1, "annulled"),
        (2, "in_progress"),
    ]
    assert body["in_progress"] == [second["id"]]
    assert body["next_deal"]["dealer"]["display_name"] == "Carl"


def test_a_game_started_with_a_deal_it_cannot_be_is_a_422(
    scorer: PersonaClient, evening: Evening
) -> None:
    seats = [str(s.player_id) for s in evening.seats.all()]
    response = scorer.post(
        f"/api/evenings/{evening.pk}/games/",
        {"deal": {"dealer": seats[0], "players": seats, "hands": {seats[0]: ["EO"]}}},
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_deal"
    assert response.json()["event_offset"] == 0
    assert not Game.objects.exists()


def test_a_retried_start_with_the_same_key_starts_one_game(
    scorer: PersonaClient, evening: Evening
) -> None:
    url = f"/api/evenings/{evening.pk}/games/"
    first = scorer.post(url, {}, HTTP_IDEMPOTENCY_KEY="start-1")
    again = scorer.post(url, {}, HTTP_IDEMPOTENCY_KEY="start-1")
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    assert Game.objects.filter(evening=evening).count() == 1


def test_a_closed_evening_answers_409_to_anything_that_would_change_it(
    scorer: PersonaClient, evening: Evening, players: dict[str, Player]
) -> None:
    game = scorer.post(f"/api/evenings/{evening.pk}/games/", {}).json()
    closed = scorer.post(f"/api/evenings/{evening.pk}/close/")
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    assert scorer.post(f"/api/evenings/{evening.pk}/close/").status_code == 409
    assert scorer.post(f"/api/evenings/{evening.pk}/games/", {}).status_code == 409
    seat = scorer.post(f"/api/evenings/{evening.pk}/seats/", {"player": players["franz"].pk})
    assert seat.status_code == 409
    append = scorer.post(
        f"/api/games/{game['id']}/events/", {"expected_seq": 1, "events": [{"type": "annul"}]}
    )
    assert append.status_code == 409
    imported = scorer.post(f"/api/evenings/{evening.pk}/import/", [records.record([])])
    assert imported.status_code == 409


def test_seats_change_between_games(
    scorer: PersonaClient, evening: Evening, players: dict[str, Player]
) -> None:
    url = f"/api/evenings/{evening.pk}/seats/"
    added = scorer.post(url, {"player": players["franz"].pk, "position": 1})
    assert added.status_code == 201
    assert [s["display_name"] for s in added.json()["seats"]][:2] == ["Franz", "Anna"]
    assert scorer.post(url, {"player": players["franz"].pk}).status_code == 400
    removed = scorer.delete(f"{url}{players['bert'].pk}/")
    assert removed.status_code == 204
    assert scorer.delete(f"{url}{players['bert'].pk}/").status_code == 400
    seats = scorer.get(f"/api/evenings/{evening.pk}/").json()["seats"]
    assert [s["display_name"] for s in seats] == ["Franz", "Anna", "Carl", "Dora", "Emil"]


def test_a_koenigrufen_evening_starts_with_the_auction_and_vorhand_to_speak(
    scorer: PersonaClient, club: Club, players: dict[str, Player]
) -> None:
    season = open_season(club, GameKind.KOENIGRUFEN)
    order = [players[n].pk for n in ("anna", "bert", "carl", "dora")]
    evening = scorer.post(
        f"/api/clubs/{club.slug}/evenings/", {"season": season.pk, "players": order}
    ).json()
    assert evening["game_kind"] == "koenigrufen"
    game = scorer.post(f"/api/evenings/{evening['id']}/games/", {}).json()
    assert game["state"]["awaiting"] == "bid"
    assert game["state"]["to_act"] == str(players["bert"].pk)  # Anna deals, Bert speaks first
    assert game["state"]["legal"]["can_pass"] is True


def test_the_api_schema_describes_the_games_endpoints(member: PersonaClient) -> None:
    response = member.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/clubs/{slug}/evenings/",
        "/api/evenings/{evening_id}/games/",
        "/api/evenings/{evening_id}/import/",
        "/api/games/{game_id}/",
        "/api/games/{game_id}/events/",
        "/api/games/{game_id}/record/",
    ):
        assert path in paths
