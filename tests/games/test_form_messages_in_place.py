"""A form's message stands next to the form: a refused post draws the page again with
the form open, its input kept and the reason beside it (not at the top of the page);
a post that is done comes back to the form with its message there."""

from __future__ import annotations

import re
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile

from clubs.models import Club, Player
from games.models import Evening
from ledger.models import Payment
from tests.conftest import PersonaClient


def _block(html: str, start: str, end: str) -> str:
    """The part of ``html`` from ``start`` to the next ``end`` (the form's own block)."""
    i = html.index(start)
    return html[i : html.index(end, i)]


def _top_messages(html: str) -> str:
    found = re.search(r'<ul class="messages">(.*?)</ul>', html, re.S)
    return found.group(1) if found else ""


def _pay_oneself(scorer: PersonaClient, evening: Evening, player: int, amount: str) -> Any:
    """Post the payment form with the same player paying and receiving: refused."""
    data = {"payer": player, "payee": player, "amount": amount}
    return scorer.post(f"/evenings/{evening.pk}/payments/new/", data, format="multipart")


def test_a_refused_payment_keeps_the_form_open_filled_and_says_why_beside_it(
    evening: Evening, scorer: PersonaClient, players: dict[str, Player]
) -> None:
    anna = players["anna"].pk
    response = _pay_oneself(scorer, evening, anna, "37")
    assert response.status_code == 422
    html = response.content.decode()
    form = _block(html, '<div id="payment"', "</details>")
    assert "Ein Spieler kann sich nicht selbst bezahlen." in form
    assert '<details class="panel" open>' in form
    assert f'<option value="{anna}" selected>' in _block(form, 'id="payer"', "</select>")
    assert f'<option value="{anna}" selected>' in _block(form, 'id="payee"', "</select>")
    assert 'value="37"' in form
    assert "selbst bezahlen" not in _top_messages(html)
    assert not Payment.objects.exists()


def test_a_refused_payment_page_still_refreshes_from_the_evening_address(
    evening: Evening, scorer: PersonaClient, players: dict[str, Player]
) -> None:
    html = _pay_oneself(scorer, evening, players["anna"].pk, "5").content.decode()
    assert f'hx-get="/evenings/{evening.pk}/"' in html
    assert f'name="next" type="hidden" value="/evenings/{evening.pk}/"' in html


def test_a_booked_payment_comes_back_to_the_form_with_its_message_beside_it(
    evening: Evening, scorer: PersonaClient, players: dict[str, Player]
) -> None:
    data = {"payer": players["anna"].pk, "payee": players["bert"].pk, "amount": "15"}
    response = scorer.post(f"/evenings/{evening.pk}/payments/new/", data, format="multipart")
    assert response.status_code == 302
    assert response["Location"].endswith("#payment")
    html = scorer.get(response["Location"]).content.decode()
    form = _block(html, '<div id="payment"', "</details>")
    assert "Zahlung gebucht: Anna hat Bert 15" in form
    assert '<details class="panel">' in form  # done: folded again, and empty
    assert "Zahlung gebucht" not in _top_messages(html)


def test_a_refused_seat_change_keeps_the_seat_form_open_with_the_reason_beside_it(
    evening: Evening, scorer: PersonaClient, players: dict[str, Player]
) -> None:
    seated = evening.seats.count()
    response = scorer.post(
        f"/evenings/{evening.pk}/seats/add/",
        {"player": players["anna"].pk, "position": "2"},
        format="multipart",
    )
    assert response.status_code == 422
    html = response.content.decode()
    seats = _block(html, '<section aria-labelledby="h-seats"', "</section>")
    assert "Dieser Spieler sitzt schon am Tisch." in seats
    assert '<details class="panel" open>' in seats
    assert '<option value="2" selected>' in seats
    assert "form-message" not in _top_messages(html)
    assert evening.seats.count() == seated


def test_a_player_added_on_the_club_page_is_announced_at_the_players(
    club: Club, scorer: PersonaClient
) -> None:
    response = scorer.post(
        f"/clubs/{club.slug}/players/new/", {"display_name": "Toni"}, format="multipart"
    )
    assert response["Location"].endswith("#players")
    html = scorer.get(response["Location"]).content.decode()
    players = _block(html, '<section id="players"', "</section>")
    assert "Toni spielt jetzt im Verein mit." in players
    assert "Toni" not in _top_messages(html)


def test_an_import_that_is_not_json_is_refused_beside_the_import_form(
    evening: Evening, scorer: PersonaClient
) -> None:
    upload = SimpleUploadedFile("records.json", b"not json", content_type="application/json")
    response = scorer.post(
        f"/evenings/{evening.pk}/import/", {"records": upload}, format="multipart"
    )
    assert response["Location"].endswith("#records")
    html = scorer.get(response["Location"]).content.decode()
    records = _block(html, '<section aria-labelledby="h-records"', "</section>")
    assert "Diese Datei ist kein JSON." in records
    assert "kein JSON" not in _top_messages(html)
