"""Every page answers members, hides from outsiders and sends anonymous visitors to log in.

Plain pytest-django (no browser): each page view is requested as a member of the
club, as the owner of another club and as nobody.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import Club, GameKind
from games.models import Evening, Game
from ledger import services as ledger_services
from tests.conftest import PersonaClient
from tests.e2e.tables import open_evening, players_of, record_game
from tests.factories import PlayerFactory
from tests.games.records import RE_PLAYED_OUT


@pytest.fixture
def book(club: Club) -> dict[str, Any]:
    """A Fuchsen evening of five with one finished game (raised to Re) and a settlement plan."""
    players = players_of(club)
    evening = open_evening(club, players)
    game = record_game(evening, players, RE_PLAYED_OUT)
    plan = ledger_services.settlement_plan_create(club=club, created_by=None, evening=evening)
    return {
        "players": players,
        "evening": evening,
        "game": game,
        "plan": plan,
        "season": evening.season,
    }


def page_urls(club: Club, book: dict[str, Any]) -> dict[str, str]:
    evening, game, season = book["evening"], book["game"], book["season"]
    return {
        "club book": reverse("club-book", args=[club.slug]),
        "new evening": reverse("evening-new", args=[club.slug]),
        "evening": reverse("evening-page", args=[evening.pk]),
        "new game": reverse("game-new", args=[evening.pk]),
        "recording": reverse("game-page", args=[game.pk]),
        "replay": reverse("game-replay", args=[game.pk]),
        "current table": reverse("season-current", args=[club.slug]),
        "season table": reverse("standings-page", args=[club.slug, season.pk]),
        "player": reverse("player-page", args=[club.slug, book["players"]["bert"].pk]),
    }


PAGES = (
    "club book",
    "new evening",
    "evening",
    "new game",
    "recording",
    "replay",
    "current table",
    "season table",
    "player",
)
SCORER_ONLY = {"new evening", "new game"}


@pytest.mark.parametrize("page", PAGES)
def test_a_member_sees_the_page(
    page: str, club: Club, book: dict[str, Any], scorer: PersonaClient
) -> None:
    response = scorer.get(page_urls(club, book)[page], follow=True)
    assert response.status_code == 200


@pytest.mark.parametrize("page", sorted(set(PAGES) - SCORER_ONLY))
def test_a_plain_member_reads_the_page(
    page: str, club: Club, book: dict[str, Any], member: PersonaClient
) -> None:
    response = member.get(page_urls(club, book)[page], follow=True)
    assert response.status_code == 200


@pytest.mark.parametrize("page", sorted(SCORER_ONLY))
def test_a_plain_member_may_not_record(
    page: str, club: Club, book: dict[str, Any], member: PersonaClient
) -> None:
    assert member.get(page_urls(club, book)[page]).status_code == 403


@pytest.mark.parametrize("page", PAGES)
def test_an_outsider_gets_a_404(
    page: str, club: Club, book: dict[str, Any], outsider: PersonaClient
) -> None:
    assert outsider.get(page_urls(club, book)[page]).status_code == 404


@pytest.mark.parametrize("page", PAGES)
def test_an_anonymous_visitor_is_sent_to_log_in(
    page: str, club: Club, book: dict[str, Any], anonymous: PersonaClient
) -> None:
    url = page_urls(club, book)[page]
    response = anonymous.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_evening_shows_the_result_balances_and_settlement(
    club: Club, book: dict[str, Any], scorer: PersonaClient
) -> None:
    html = scorer.get(reverse("evening-page", args=[book["evening"].pk])).content.decode()
    assert "Bert" in html and "+40" in html
    assert 'id="transfers"' in html
    assert html.count('data-transfer="') == book["plan"].transfers.count()


def test_the_replay_shows_every_trick_and_the_raises(
    club: Club, book: dict[str, Any], member: PersonaClient
) -> None:
    html = member.get(reverse("game-replay", args=[book["game"].pk])).content.decode()
    assert html.count('data-trick="') == 6
    assert "Kontra" in html and "Re" in html
    assert "96" in html  # the Macher's side's Augen


def test_marking_a_transfer_paid_books_it_once(
    club: Club, book: dict[str, Any], scorer: PersonaClient
) -> None:
    transfer = book["plan"].transfers.first()
    url = reverse("transfer-paid", args=[book["evening"].pk, transfer.pk])
    assert scorer.post(url).status_code == 302
    assert scorer.post(url).status_code == 302
    transfer.refresh_from_db()
    assert transfer.is_paid
    assert transfer.payment is not None


def test_the_quick_new_game_deals_to_the_next_player(
    club: Club, book: dict[str, Any], scorer: PersonaClient
) -> None:
    response = scorer.post(
        reverse("game-new", args=[book["evening"].pk]), {"quick": "1"}, format="multipart"
    )
    assert response.status_code == 302
    game = book["evening"].games.order_by("-number").first()
    assert response["Location"] == reverse("game-page", args=[game.pk])
    assert game.dealer == book["players"]["bert"]  # Anna dealt game 1


def test_opening_an_evening_seats_the_players_clockwise(
    club: Club, book: dict[str, Any], scorer: PersonaClient
) -> None:
    players = book["players"]
    order = ["dora", "anna", "emil", "bert"]
    data = {
        "season": book["season"].pk,
        **{f"seat{i}": players[n].pk for i, n in enumerate(order, 1)},
    }
    response = scorer.post(reverse("evening-new", args=[club.slug]), data, format="multipart")
    assert response.status_code == 302
    evening = Evening.objects.filter(club=club).order_by("-id").first()
    assert evening is not None
    assert [s.player_id for s in evening.seats.order_by("position")] == [
        players[n].pk for n in order
    ]
    assert evening.game_kind == GameKind.FUCHSEN


def test_the_page_is_german_first_and_english_on_request(
    club: Club, book: dict[str, Any], scorer: PersonaClient
) -> None:
    url = reverse("evening-page", args=[book["evening"].pk])
    assert "Neues Spiel" in scorer.get(url).content.decode()
    scorer.cookies["django_language"] = "en"
    assert "New game" in scorer.get(url).content.decode()


def test_a_player_gets_up_and_another_sits_down_between_games(
    club: Club, book: dict[str, Any], scorer: PersonaClient
) -> None:
    evening, players = book["evening"], book["players"]
    franz = PlayerFactory.create(club=club, display_name="Franz")
    leave = reverse("seat-leave-page", args=[evening.pk, players["carl"].pk])
    assert scorer.post(leave).status_code == 302
    add = reverse("seat-add-page", args=[evening.pk])
    data = {"player": franz.pk, "position": "1"}
    assert scorer.post(add, data, format="multipart").status_code == 302
    seated = [
        s.player.display_name
        for s in evening.seats.filter(left_at__isnull=True).order_by("position")
    ]
    assert seated == ["Franz", "Anna", "Bert", "Dora", "Emil"]


def test_a_plain_member_cannot_change_the_seats(
    club: Club, book: dict[str, Any], member: PersonaClient
) -> None:
    url = reverse("seat-leave-page", args=[book["evening"].pk, book["players"]["carl"].pk])
    assert member.post(url).status_code == 403


def test_an_evening_imports_the_records_it_exported(
    club: Club, book: dict[str, Any], scorer: PersonaClient
) -> None:
    evening = book["evening"]
    exported = scorer.get(reverse("evening-records", args=[evening.pk])).content
    upload = SimpleUploadedFile("abend.json", exported, content_type="application/json")
    response = scorer.post(
        reverse("evening-import-page", args=[evening.pk]), {"records": upload}, format="multipart"
    )
    assert response.status_code == 302
    imported = Game.objects.filter(evening=evening).order_by("number").last()
    assert imported is not None and imported.number == 2
    assert imported.result["payouts"] == book["game"].result["payouts"]


def test_a_file_that_is_not_json_is_refused_with_a_message(
    club: Club, book: dict[str, Any], scorer: PersonaClient
) -> None:
    upload = SimpleUploadedFile("abend.json", b"\\x00 nope", content_type="application/json")
    url = reverse("evening-import-page", args=[book["evening"].pk])
    response = scorer.post(url, {"records": upload}, format="multipart", follow=True)
    assert "JSON" in response.content.decode()
    assert Game.objects.filter(evening=book["evening"]).count() == 1


def test_closing_the_evening_ends_the_recording(
    club: Club, book: dict[str, Any], scorer: PersonaClient
) -> None:
    evening = book["evening"]
    assert scorer.post(reverse("evening-close-page", args=[evening.pk])).status_code == 302
    evening.refresh_from_db()
    assert not evening.is_open
    html = scorer.get(reverse("evening-page", args=[evening.pk])).content.decode()
    assert 'id="new-game"' not in html and 'id="close-evening"' not in html
