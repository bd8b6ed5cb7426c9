"""The "Regeln" page in Chromium, on a phone in German, for both games under a club's
changed profile: reached from the evening ("Was gilt bei uns?"), showing the changed
figures, fitting the screen and free of serious or critical axe violations."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import GameKind, Role
from engine.rules_table import rules_table
from tests.e2e.conftest import no_horizontal_scroll, shoot
from tests.e2e.pages import log_in
from tests.e2e.tables import open_evening, players_of
from tests.e2e.test_accessibility import SERIOUS, _violations, axe_phone
from tests.factories import ClubFactory, MembershipFactory, RuleProfileFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

__all__ = ["axe_phone"]

CHANGES: dict[str, dict[str, Any]] = {
    GameKind.FUCHSEN: {"level_values": {"re": 25}, "removed_cards": ["E7", "S7"]},
    GameKind.KOENIGRUFEN: {"values": {"bettler": 35, "koenigmord": 90}},
}


@pytest.mark.parametrize("kind", [GameKind.FUCHSEN, GameKind.KOENIGRUFEN])
def test_the_rules_page_of_a_changed_profile_is_reached_from_the_evening_and_axe_clean(
    live_server: Any, axe_phone: Any, kind: str
) -> None:
    club = ClubFactory.create(name="Stammtisch Gasthaus Post", slug="post")
    user = UserFactory.create(username="schreiber")
    MembershipFactory.create(club=club, user=user, role=Role.MEMBER)
    players = players_of(club)
    seated = tuple(players)[:5] if kind == GameKind.FUCHSEN else tuple(players)[:4]
    evening = open_evening(club, players, kind=kind, seated=seated)
    profile = RuleProfileFactory.create(
        club=club, game_kind=kind, name="Hausregeln Post", overrides=CHANGES[kind]
    )
    evening.season.rule_profile = profile
    evening.season.save(update_fields=["rule_profile"])
    page = axe_phone
    log_in(page, live_server.url, "schreiber", f"/evenings/{evening.pk}/")
    page.click("#rules-link")
    page.wait_for_load_state("networkidle")
    assert page.url.endswith(f"/evenings/{evening.pk}/rules/")
    assert "Hausregeln Post" in page.inner_text("#rules-source")
    table = rules_table(kind, CHANGES[kind])
    if kind == GameKind.FUCHSEN:
        re_row = next(row for row in table["levels"] if row["level"] == "re")
        assert f"{re_row['value']} ct" in page.inner_text("#level-re")  # 25 + 5
        assert page.locator("#removed [data-card]").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        ) == ["E7", "S7"]
    else:
        assert "35 ct" in page.inner_text("#contract-bettler")
        assert "+270 ct" in page.inner_text("#contract-koenigmord")
    assert no_horizontal_scroll(page)
    bad = [v for v in _violations(page) if v["impact"] in SERIOUS]
    if bad:
        shoot(page, f"axe-rules-{kind}")
    assert not bad, bad
