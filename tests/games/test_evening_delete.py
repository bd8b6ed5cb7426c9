"""Deleting an evening opened by mistake: only while nothing is recorded in it, and
whoever finds it gone afterwards gets a clear answer, never an error page."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Club, Player
from games import services
from games.errors import EveningClosed, EveningNotEmpty
from games.models import Evening, EveningSeat
from ledger import services as ledger_services
from tests.conftest import PersonaClient
from tests.games.factories import EveningFactory


def _pay(club: Club, players: dict[str, Player], evening: Evening) -> None:
    """Anna pays Bert 50 for ``evening``."""
    ledger_services.payment_record(
        club=club,
        payer=players["anna"],
        payee=players["bert"],
        amount=50,
        evening=evening,
        recorded_by=None,
    )


def test_an_empty_evening_is_deleted_with_its_seats(evening: Evening) -> None:
    assert EveningSeat.objects.filter(evening=evening).exists()
    services.evening_delete(evening=evening)
    assert not Evening.objects.filter(pk=evening.pk).exists()
    assert not EveningSeat.objects.filter(evening_id=evening.pk).exists()
    services.evening_delete(evening=evening)  # a second tap changes nothing


def test_an_evening_with_a_game_or_a_payment_is_kept(
    evening: Evening, players: dict[str, Player]
) -> None:
    services.game_start(evening=evening, user=None)
    with pytest.raises(EveningNotEmpty):
        services.evening_delete(evening=evening)
    assert Evening.objects.filter(pk=evening.pk).exists()


def test_an_evening_with_only_a_payment_is_kept(
    club: Club, evening: Evening, players: dict[str, Player]
) -> None:
    _pay(club, players, evening)
    with pytest.raises(EveningNotEmpty):
        services.evening_delete(evening=evening)


def test_who_finds_the_evening_deleted_is_told_so(
    club: Club, evening: Evening, players: dict[str, Player]
) -> None:
    stale = Evening.objects.get(pk=evening.pk)
    services.evening_delete(evening=evening)
    with pytest.raises(EveningClosed):
        services.game_start(evening=stale, user=None)
    with pytest.raises(ValidationError) as refused:
        _pay(club, players, stale)
    assert "evening" in refused.value.message_dict


def test_the_api_lets_scorers_delete_an_empty_evening_only(
    club: Club, evening: Evening, scorer: PersonaClient, member: PersonaClient
) -> None:
    empty = EveningFactory.create(club=club, season=evening.season)
    url = f"/api/evenings/{empty.pk}/delete/"
    assert member.post(url).status_code == 403
    assert scorer.post(f"/api/evenings/{evening.pk}/games/", {}).status_code == 201
    refused = scorer.post(f"/api/evenings/{evening.pk}/delete/")
    assert refused.status_code == 409 and refused.json()["detail"]
    assert scorer.post(url).status_code == 204
    assert scorer.get(f"/api/evenings/{empty.pk}/").status_code == 404
    assert scorer.get(f"/api/evenings/{evening.pk}/").status_code == 200


def test_the_evening_page_offers_to_delete_only_an_empty_evening(
    evening: Evening, scorer: PersonaClient, member: PersonaClient
) -> None:
    page = f"/evenings/{evening.pk}/"
    assert 'id="delete-evening"' in scorer.get(page).content.decode()
    assert 'id="delete-evening"' not in member.get(page).content.decode()
    answer = scorer.post(f"/evenings/{evening.pk}/delete/", {}, format="multipart", follow=True)
    assert answer.redirect_chain[-1][0] == f"/clubs/{evening.club.slug}/book/"
    assert "Der Spielabend ist gelöscht." in answer.content.decode()


def test_an_evening_with_games_offers_no_delete(evening: Evening, scorer: PersonaClient) -> None:
    services.game_start(evening=evening, user=None)
    assert 'id="delete-evening"' not in scorer.get(f"/evenings/{evening.pk}/").content.decode()
    answer = scorer.post(f"/evenings/{evening.pk}/delete/", {}, format="multipart", follow=True)
    assert "ohne Spiele" in answer.content.decode()
    assert Evening.objects.filter(pk=evening.pk).exists()
