"""Reversing a payment booked by mistake ("Storno"): the same amount back, so every
balance is as before it; both stay in the book, and each payment is reversed once."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Club, Player
from games.models import Evening
from ledger import selectors, services
from ledger.models import LedgerEntry, Payment, SettlementTransfer
from tests.conftest import PersonaClient
from tests.factories import ClubFactory, PlayerFactory


def _players(evening: Evening) -> tuple[Player, Player]:
    seats = list(evening.seats.select_related("player").order_by("position"))
    return seats[0].player, seats[1].player


def _pay(evening: Evening, amount: int = 30) -> Payment:
    payer, payee = _players(evening)
    return services.payment_record(
        club=evening.club,
        payer=payer,
        payee=payee,
        amount=amount,
        recorded_by=None,
        evening=evening,
    )


def test_a_reversal_puts_every_balance_back_and_keeps_both_payments(evening: Evening) -> None:
    club = evening.club
    before = selectors.balance_map(club=club, evening=evening)
    payment = _pay(evening)
    assert selectors.balance_map(club=club, evening=evening) != before
    reversal = services.payment_reverse(payment=payment, recorded_by=None)
    assert selectors.balance_map(club=club, evening=evening) == before
    assert (reversal.payer_id, reversal.payee_id) == (payment.payee_id, payment.payer_id)
    assert reversal.amount == payment.amount and reversal.reverses_id == payment.pk
    assert (reversal.evening_id, reversal.season_id) == (payment.evening_id, payment.season_id)
    assert LedgerEntry.objects.filter(payment__in=[payment, reversal]).count() == 4
    listed = {
        p.pk: getattr(p, "is_reversed", None)
        for p in selectors.payment_list(club=club, evening=evening)
    }
    assert listed == {payment.pk: True, reversal.pk: False}


def test_a_payment_is_reversed_once_and_a_reversal_not_at_all(evening: Evening) -> None:
    payment = _pay(evening)
    reversal = services.payment_reverse(payment=payment, recorded_by=None)
    with pytest.raises(ValidationError):
        services.payment_reverse(payment=payment, recorded_by=None)
    with pytest.raises(ValidationError):
        services.payment_reverse(payment=reversal, recorded_by=None)
    assert Payment.objects.count() == 2


def test_reversing_a_transfers_payment_opens_the_transfer_again(evening: Evening) -> None:
    plan = services.settlement_plan_create(club=evening.club, created_by=None, evening=evening)
    transfer = plan.transfers.first()
    assert transfer is not None
    services.settlement_transfer_mark_paid(transfer=transfer, paid_by=None)
    transfer.refresh_from_db()
    assert transfer.is_paid and transfer.payment is not None
    services.payment_reverse(payment=transfer.payment, recorded_by=None)
    transfer.refresh_from_db()
    assert not transfer.is_paid and transfer.payment is None
    services.settlement_transfer_mark_paid(transfer=transfer, paid_by=None)
    transfer.refresh_from_db()
    assert transfer.is_paid
    # Booked, reversed, booked again: the money changed hands once.
    assert Payment.objects.filter(reverses__isnull=True).count() == 2
    assert Payment.objects.filter(reverses__isnull=False).count() == 1
    assert SettlementTransfer.objects.filter(payment__isnull=False).count() == 1


def test_the_api_lets_scorers_reverse_their_clubs_payments(
    evening: Evening, scorer: PersonaClient, member: PersonaClient
) -> None:
    club = evening.club
    payment = _pay(evening)
    url = f"/api/clubs/{club.slug}/payments/{payment.pk}/reverse/"
    assert member.post(url).status_code == 403
    answer = scorer.post(url)
    assert answer.status_code == 201
    body = answer.json()
    assert body["reverses"] == payment.pk and body["reversed"] is False
    assert body["amount"] == payment.amount and body["payer"] == payment.payee_id
    again = scorer.post(url)
    assert again.status_code == 400 and again.json()
    listed = scorer.get(f"/api/clubs/{club.slug}/payments/?evening={evening.pk}").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert {row["id"]: row["reversed"] for row in rows}[payment.pk] is True


def test_a_payment_of_another_club_is_not_found(evening: Evening, scorer: PersonaClient) -> None:
    other = ClubFactory.create()
    foreign = Payment.objects.create(
        club=other,
        payer=PlayerFactory.create(club=other),
        payee=PlayerFactory.create(club=other),
        amount=5,
    )
    url = f"/api/clubs/{evening.club.slug}/payments/{foreign.pk}/reverse/"
    assert scorer.post(url).status_code == 404
    assert not Payment.objects.filter(reverses=foreign).exists()


def test_the_evening_page_lists_payments_and_reverses_one(
    evening: Evening, scorer: PersonaClient, member: PersonaClient
) -> None:
    payment = _pay(evening)
    page = f"/evenings/{evening.pk}/"
    html = scorer.get(page).content.decode()
    assert f'data-payment="{payment.pk}"' in html and "Stornieren" in html
    assert "Stornieren" not in member.get(page).content.decode()
    url = f"/clubs/{evening.club.slug}/payments/{payment.pk}/reverse/"
    answer = scorer.post(url, {}, format="multipart", follow=True)
    assert answer.redirect_chain[-1][0] == f"/evenings/{evening.pk}/#payments"
    assert "Zahlung storniert" in answer.content.decode()
    assert "storniert" in answer.content.decode()
    again = scorer.post(url, {}, format="multipart", follow=True)
    assert "schon storniert" in again.content.decode()


def test_the_season_table_lists_the_seasons_payments(
    club: Club, evening: Evening, member: PersonaClient
) -> None:
    payment = _pay(evening)
    html = member.get(f"/clubs/{club.slug}/seasons/{evening.season_id}/table/").content.decode()
    assert f'data-payment="{payment.pk}"' in html


def test_a_reversed_season_payment_no_longer_keeps_an_evening_from_being_settled(
    club: Club, evening: Evening
) -> None:
    payer, payee = _players(evening)
    season_payment = services.payment_record(
        club=club, payer=payer, payee=payee, amount=10, recorded_by=None, season=evening.season
    )
    with pytest.raises(ValidationError):
        services.settlement_plan_create(club=club, created_by=None, evening=evening)
    services.payment_reverse(payment=season_payment, recorded_by=None)
    plan = services.settlement_plan_create(club=club, created_by=None, evening=evening)
    assert plan.evening_id == evening.pk
