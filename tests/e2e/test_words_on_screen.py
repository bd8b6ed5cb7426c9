"""Words on the screen of a phone (390×844): the settlement's share text shows every
transfer, wrapped lines and all, without a cut-off; a Schurln result names who pays
and the count of aces and tens that made him pay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clubs.models import Role
from engine import table_view
from ledger import services as ledger_services
from tests.e2e.conftest import shoot
from tests.e2e.pages import log_in
from tests.e2e.tables import open_evening, players_of, record_game
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.records import RE_PLAYED_OUT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_share_text_shows_every_transfer_without_scrolling(
    live_server: Any, phone: Any
) -> None:
    # A long club name: the heading line wraps on a phone, as it does at real clubs.
    club = ClubFactory.create(name="Stammtisch Gasthaus zur Post am Kirchplatz", slug="post")
    MembershipFactory.create(club=club, user=UserFactory.create(username="sepp"), role=Role.OWNER)
    players = players_of(club)
    evening = open_evening(club, players)
    record_game(evening, players, RE_PLAYED_OUT)
    ledger_services.settlement_plan_create(club=club, created_by=None, evening=evening)
    log_in(phone, live_server.url, "sepp", f"/evenings/{evening.pk}/")
    phone.click("#share summary")
    box = phone.locator("#share-text")
    assert "→" in box.input_value().splitlines()[-1]  # the last line is a transfer
    cut = box.evaluate("e => e.scrollHeight - e.clientHeight")
    assert cut <= 1, f"the share box hides {cut} px of its text"


def test_a_played_out_schurln_names_the_loser_and_his_aces_and_tens(
    live_server: Any, phone: Any
) -> None:
    golden = Path(__file__).resolve().parents[1] / "engine" / "golden" / "koenigrufen-schurln.json"
    record = json.loads(golden.read_text())["record"]
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    MembershipFactory.create(club=club, user=UserFactory.create(username="sepp"), role=Role.OWNER)
    players = players_of(club, ("Anna", "Bert", "Carl", "Dora"))
    evening = open_evening(club, players, kind="koenigrufen")
    game = record_game(evening, players, record)
    assert game.result["payouts"][str(players["dora"].pk)] < 0  # Dora took the most
    log_in(phone, live_server.url, "sepp", f"/games/{game.pk}/")
    phone.wait_for_selector("#record[data-seq]")
    losers = phone.inner_text("#record .panel.result .schurln-losers")
    # The page shows the engine's count, in words.
    count = table_view(record).to_dict()["aces_tens"]["dora"]
    assert losers == f"Verlierer: Dora mit {count} Assen und Zehnern"
    shoot(phone, "phone-schurln-result")
