"""Settling a whole season on its table page: the open amounts over every evening,
a plan of the fewest transfers, and transfers marked paid once."""

from __future__ import annotations

from games.models import Evening
from ledger.models import Payment, SettlementPlan
from tests.conftest import PersonaClient
from tests.factories import ClubFactory, SeasonFactory


def _table(evening: Evening) -> str:
    return f"/clubs/{evening.club.slug}/seasons/{evening.season_id}/table/"


def test_the_table_shows_the_seasons_open_amounts_summing_to_zero(
    evening: Evening, member: PersonaClient
) -> None:
    page = member.get(_table(evening))
    balances = page.context["season_balances"]
    assert balances and sum(row["balance"] for row in balances) == 0
    html = page.content.decode()
    assert "Offene Beträge der Saison" in html
    assert 'id="settle"' not in html  # a plain member reads, a scorer settles


def test_a_scorer_settles_the_season_and_marks_a_transfer_paid_once(
    evening: Evening, scorer: PersonaClient
) -> None:
    url = f"/clubs/{evening.club.slug}/seasons/{evening.season_id}/settle/"
    response = scorer.post(url, {}, format="multipart", follow=True)
    plan = SettlementPlan.objects.get(season=evening.season, evening__isnull=True)
    transfers = list(plan.transfers.all())
    assert transfers
    assert response.context["plan"] == plan
    first = transfers[0]
    before = {r["player_id"]: r["balance"] for r in response.context["season_balances"]}
    paid = f"/clubs/{evening.club.slug}/seasons/{evening.season_id}/transfers/{first.pk}/paid/"
    for _ in range(2):  # a double tap books once
        scorer.post(paid, {}, format="multipart")
    first.refresh_from_db()
    assert first.is_paid
    assert Payment.objects.filter(payer=first.payer, payee=first.payee).count() == 1
    page = scorer.get(_table(evening))
    after = {r["player_id"]: r["balance"] for r in page.context["season_balances"]}
    assert after[first.payer_id] == before[first.payer_id] + first.amount
    assert after[first.payee_id] == before[first.payee_id] - first.amount


def test_an_evenings_plan_is_not_the_seasons(evening: Evening, scorer: PersonaClient) -> None:
    scorer.post(f"/evenings/{evening.pk}/settle/", {}, format="multipart")
    assert scorer.get(_table(evening)).context["plan"] is None


def test_members_cannot_settle_and_strangers_reach_nothing(
    evening: Evening, member: PersonaClient, outsider: PersonaClient
) -> None:
    slug, season = evening.club.slug, evening.season_id
    assert member.post(f"/clubs/{slug}/seasons/{season}/settle/", {}).status_code == 403
    assert outsider.post(f"/clubs/{slug}/seasons/{season}/settle/", {}).status_code == 404
    other = SeasonFactory.create(club=ClubFactory.create())
    owner_of_other = outsider
    assert owner_of_other.post(f"/clubs/{slug}/seasons/{other.pk}/settle/", {}).status_code == 404
    assert not SettlementPlan.objects.exists()


def test_a_scorer_books_a_payment_for_the_season_and_its_open_amounts_move(
    evening: Evening, scorer: PersonaClient
) -> None:
    page = scorer.get(_table(evening))
    assert 'id="payment-form"' in page.content.decode()
    before = {r["player_id"]: r["balance"] for r in page.context["season_balances"]}
    payer, payee = sorted(before, key=lambda p: before[p])[:2]
    url = f"/clubs/{evening.club.slug}/seasons/{evening.season_id}/payments/new/"
    response = scorer.post(
        url, {"payer": payer, "payee": payee, "amount": "30"}, format="multipart", follow=True
    )
    assert "Zahlung gebucht" in response.content.decode()
    payment = Payment.objects.get(season=evening.season, evening__isnull=True)
    assert (payment.payer_id, payment.payee_id, payment.amount) == (payer, payee, 30)
    after = {r["player_id"]: r["balance"] for r in response.context["season_balances"]}
    assert after[payer] == before[payer] + 30
    assert after[payee] == before[payee] - 30


def test_a_wrong_season_payment_is_refused_and_members_cannot_book_one(
    evening: Evening, scorer: PersonaClient, member: PersonaClient, outsider: PersonaClient
) -> None:
    url = f"/clubs/{evening.club.slug}/seasons/{evening.season_id}/payments/new/"
    players = [r["player_id"] for r in scorer.get(_table(evening)).context["season_balances"]]
    data = {"payer": players[0], "payee": players[1]}
    refused = scorer.post(url, {**data, "amount": "0"}, format="multipart", follow=True)
    assert "ganze Zahl von 1 bis" in refused.content.decode()
    assert 'id="payment-form"' not in member.get(_table(evening)).content.decode()
    assert member.post(url, {**data, "amount": "5"}, format="multipart").status_code == 403
    assert outsider.post(url, {**data, "amount": "5"}, format="multipart").status_code == 404
    assert not Payment.objects.filter(season=evening.season).exists()
