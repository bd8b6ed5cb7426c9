"""The ledger's admin shows the books and lets nobody edit them."""

from __future__ import annotations

import pytest
from django.test import Client

from ledger.models import LedgerEntry
from tests.factories import UserFactory
from tests.ledger.factories import finish, make_table

pytestmark = pytest.mark.django_db

PAGES = ["ledgerentry", "payment", "settlementplan", "projectionstate", "standingsconfig"]


@pytest.mark.parametrize("model", PAGES)
def test_a_superuser_sees_the_list_but_no_add_button(model: str) -> None:
    table = make_table(players=2)
    finish(table.new_game(), {table.pk(0): 10, table.pk(1): -10})
    client = Client()
    client.force_login(UserFactory.create(is_staff=True, is_superuser=True))
    response = client.get(f"/admin/ledger/{model}/")
    assert response.status_code == 200
    assert f"/admin/ledger/{model}/add/" not in response.content.decode()
    assert client.get(f"/admin/ledger/{model}/add/").status_code == 403


def test_an_entry_cannot_be_deleted_through_the_admin() -> None:
    table = make_table(players=2)
    finish(table.new_game(), {table.pk(0): 10, table.pk(1): -10})
    entry = LedgerEntry.objects.first()
    assert entry is not None
    client = Client()
    client.force_login(UserFactory.create(is_staff=True, is_superuser=True))
    assert client.post(f"/admin/ledger/ledgerentry/{entry.pk}/delete/").status_code == 403
    assert LedgerEntry.objects.count() == 2
