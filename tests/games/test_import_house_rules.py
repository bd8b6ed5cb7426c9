"""Imported records play under the evening's house rules, never their own.

House rules are an admin's to set (a rule profile); a scorer who imports a record
must not set them through it. A record whose ``rules`` come to other settings than
the evening's is refused with the reason, and nothing of it is booked; a record
without rules, or with the evening's, imports and is judged under the evening's.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Player
from games import services
from games.models import Evening, Game
from ledger.models import LedgerEntry
from tests.conftest import PersonaClient
from tests.factories import RuleProfileFactory
from tests.games import records

pytestmark = pytest.mark.django_db

ATTACKS = [
    {"min_value": 1_000_000},
    {"min_value": 1_000_000, "game_cost": 1_000_000},
    {"level_values": {"kontra": -1_000_000, "re": -1_000_000}, "fuchs_penalty": -1_000_000},
]


def _with_rules(rules: Any) -> dict[str, Any]:
    return {**records.record(records.NO_KONTRA), "rules": rules}


def _profile(evening: Evening, overrides: dict[str, Any]) -> None:
    evening.rule_profile = RuleProfileFactory.create(club=evening.club, overrides=overrides)
    evening.save(update_fields=["rule_profile"])


@pytest.mark.parametrize("rules", ATTACKS)
def test_a_scorer_cannot_set_house_rules_through_an_import(
    scorer: PersonaClient, evening: Evening, rules: dict[str, Any]
) -> None:
    response = scorer.post(
        f"/api/evenings/{evening.pk}/import/", _with_rules(rules), HTTP_ACCEPT_LANGUAGE="en"
    )

    assert response.status_code == 422, response.json()
    [result] = response.json()["results"]
    assert result["status"] == "rejected"
    assert result["reason"] == "house_rules_differ"
    assert "house rules differ from the evening's" in result["detail"]
    assert "an admin sets them" in result["detail"]
    assert not Game.objects.filter(evening=evening).exists()
    assert not LedgerEntry.objects.exists()


def test_a_record_with_other_rules_is_refused_next_to_one_that_imports(
    scorer: PersonaClient, evening: Evening
) -> None:
    body = [_with_rules({"min_value": 1_000_000}), records.record(records.NO_KONTRA)]
    response = scorer.post(f"/api/evenings/{evening.pk}/import/", body)
    assert response.status_code == 200
    first, second = response.json()["results"]
    assert (first["index"], first["reason"]) == (0, "house_rules_differ")
    assert second["status"] == "imported"
    assert max(abs(e.amount) for e in LedgerEntry.objects.all()) <= 20


def test_a_record_without_rules_plays_under_the_evenings(
    evening: Evening, players: dict[str, Player]
) -> None:
    _profile(evening, {"min_value": 20})
    for rules in (None, "missing"):
        record = records.record(records.NO_KONTRA)
        if rules is None:
            record["rules"] = None
        [outcome] = services.games_import(evening=evening, user=None, records=[record])
        assert outcome.imported and outcome.game is not None
        assert outcome.game.house_rules == {"min_value": 20}
        # Judged under the evening's rules: the minimum value of 20 doubles the payouts.
        assert outcome.game.result["payouts"][str(players["bert"].pk)] == 40


def test_a_record_with_the_evenings_rules_or_spelt_out_defaults_imports(
    evening: Evening,
) -> None:
    [default] = services.games_import(
        evening=evening, user=None, records=[_with_rules({"min_value": 10, "game_cost": 5})]
    )
    assert default.imported and default.game is not None
    assert default.game.house_rules == {}
    _profile(evening, {"min_value": 20})
    [same] = services.games_import(
        evening=evening, user=None, records=[_with_rules({"min_value": 20})]
    )
    assert same.imported
    [other] = services.games_import(
        evening=evening, user=None, records=[_with_rules({"min_value": 10})]
    )
    assert (other.imported, other.reason) == (False, "house_rules_differ")


def test_the_page_import_refuses_other_rules_in_german(
    scorer: PersonaClient, evening: Evening
) -> None:
    upload = io.BytesIO(json.dumps([_with_rules({"min_value": 1_000_000})]).encode())
    upload.name = "records.json"
    response = scorer.post(
        f"/evenings/{evening.pk}/import/",
        {"records": upload},
        format="multipart",
        follow=True,
        HTTP_ACCEPT_LANGUAGE="de",
    )
    page = response.content.decode()
    assert "Aufzeichnung 1 abgelehnt" in page
    assert "weichen von denen des Abends ab" in page
    assert not Game.objects.filter(evening=evening).exists()


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    min_value=st.integers(min_value=-1_000_000, max_value=1_000_000).filter(lambda v: v != 10),
    fuchs_penalty=st.integers(min_value=-1_000_000, max_value=1_000_000),
)
def test_no_valid_rules_other_than_the_evenings_book_anything(
    evening: Evening, min_value: int, fuchs_penalty: int
) -> None:
    rules = {"min_value": min_value, "fuchs_penalty": fuchs_penalty}
    [outcome] = services.games_import(evening=evening, user=None, records=[_with_rules(rules)])
    assert not outcome.imported
    assert outcome.reason == "house_rules_differ"
    assert not LedgerEntry.objects.filter(game__evening=evening).exists()
