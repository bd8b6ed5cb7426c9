"""The pages show the figures the engine gives (the game's value under its house rules,
the Augen per trick, the payouts), so a changed house-rule profile changes every page's
figure and no page keeps a second copy of a rule."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from clubs.models import Player
from engine import table_view
from games import selectors, services
from games.models import Evening, Game
from tests.conftest import PersonaClient
from tests.factories import RuleProfileFactory
from tests.games import records
from tests.games.factories import ids

pytestmark = pytest.mark.django_db

CHANGED = {"min_value": 13, "game_cost": 7, "level_values": {"re": 31, "end": 90}}


def _played(evening: Evening, players: dict[str, Player], events: list[dict[str, Any]]) -> Game:
    deal = ids({"events": [records.DEAL]}, players)["events"][0]
    game = services.game_start(evening=evening, user=None, deal=deal)
    return services.game_events_append(
        game=game,
        user=None,
        expected_seq=1,
        events=ids({"events": events}, players)["events"],
    ).game


def _record_config(client: PersonaClient, game: Game) -> dict[str, Any]:
    html = client.get(f"/games/{game.pk}/").content.decode()
    found = re.search(r'<script id="record-config" type="application/json">(.*?)</script>', html)
    assert found is not None
    config: dict[str, Any] = json.loads(found.group(1))
    return config


def test_the_recording_page_lists_the_values_the_engine_gives_under_the_games_rules(
    evening: Evening, players: dict[str, Player], scorer: PersonaClient
) -> None:
    before = _played(evening, players, records.NO_KONTRA[:1])
    evening.rule_profile = RuleProfileFactory.create(club=evening.club, overrides=CHANGED)
    evening.save(update_fields=["rule_profile"])
    after = _played(evening, players, records.NO_KONTRA[:1])

    old, new = _record_config(scorer, before), _record_config(scorer, after)
    assert old["level_values"] == table_view(selectors.game_record(game=before)).values
    assert new["level_values"] == table_view(selectors.game_record(game=after)).values
    assert new["level_values"][""] == 13
    assert new["level_values"]["re"] == 31 + 7
    assert new["level_values"]["end"] != old["level_values"]["end"]


def test_a_changed_profile_changes_the_payouts_every_page_shows(
    evening: Evening, players: dict[str, Player], scorer: PersonaClient
) -> None:
    before = _played(evening, players, records.NO_KONTRA)
    evening.rule_profile = RuleProfileFactory.create(club=evening.club, overrides=CHANGED)
    evening.save(update_fields=["rule_profile"])
    after = _played(evening, players, records.NO_KONTRA)
    # The game without Re is worth min_value: 10 by default, 13 under the profile.
    assert before.result["payouts"] != after.result["payouts"]
    for game in (before, after):
        payouts = game.result["payouts"]
        detail = scorer.get(f"/api/games/{game.pk}/").json()
        assert detail["result"]["payouts"] == payouts
        replay = scorer.get(f"/games/{game.pk}/replay/").content.decode()
        evening_page = scorer.get(f"/evenings/{evening.pk}/").content.decode()
        for amount in {abs(a) for a in payouts.values()}:
            assert re.search(rf"\b{amount}\b", replay), amount
            assert re.search(rf"\b{amount}\b", evening_page), amount


def test_the_replay_counts_each_tricks_augen_as_the_engine_does(
    dealt_game: Game, as_ids: Any, scorer: PersonaClient
) -> None:
    game = services.game_events_append(
        game=dealt_game, user=None, expected_seq=1, events=as_ids(records.NO_KONTRA)
    ).game
    view = table_view(selectors.game_record(game=game))
    assert view.tricks and all(trick.augen is not None for trick in view.tricks)
    html = scorer.get(f"/games/{game.pk}/replay/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    shown = [int(n) for n in re.findall(r"(\d+) Augen in this trick", html)]
    assert shown == [trick.augen for trick in view.tricks]
