"""Records in and out: import validates each record with the engine; export gives them back."""

from __future__ import annotations

import json
from typing import Any

import pytest

from clubs.models import Club, GameKind, Player
from games import services
from games.models import Evening, Game, GameEvent
from tests.conftest import PersonaClient
from tests.factories import RuleProfileFactory, SeasonFactory
from tests.games import records
from tests.games.factories import NAMES, seated_evening
from tests.reference import EXAMPLES

pytestmark = pytest.mark.django_db

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.json"))


def _names_back(value: Any, names: dict[str, str]) -> Any:
    """Replace player ids by names anywhere in a result (keys, lists, strings)."""
    if isinstance(value, dict):
        return {names.get(k, k): _names_back(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_names_back(v, names) for v in value]
    if isinstance(value, str):
        return names.get(value, value)
    return value


def _without_message(result: dict[str, Any]) -> dict[str, Any]:
    out = dict(result)
    if "error" in out:
        out["error"] = {k: v for k, v in out["error"].items() if k != "message"}
    return out


@pytest.fixture
def koenig_evening(club: Club, players: dict[str, Player]) -> Evening:
    SeasonFactory.create(club=club, game_kind=GameKind.KOENIGRUFEN)
    return seated_evening(club, NAMES[:4], GameKind.KOENIGRUFEN)


def test_importing_the_reference_examples_reproduces_their_expected_results(
    club: Club, players: dict[str, Player], koenig_evening: Evening
) -> None:
    fuchsen_evening = seated_evening(club, NAMES)
    names = {str(player.pk): name for name, player in players.items()}
    examples = [json.loads(path.read_text(encoding="utf-8")) for path in EXAMPLE_FILES]
    assert len(examples) == 60
    for path, example in zip(EXAMPLE_FILES, examples, strict=True):
        record = example["record"]
        kind = record.get("game") if isinstance(record, dict) else None
        evening = koenig_evening if kind == GameKind.KOENIGRUFEN else fuchsen_evening
        expected = example["expected"]
        # House rules come from the evening's profile: an example with its own plays
        # at an evening whose profile has the same.
        rules = record.get("rules") if isinstance(record, dict) else None
        evening.rule_profile = (
            RuleProfileFactory.create(club=club, game_kind=kind, overrides=rules)
            if rules and expected["status"] != "invalid"
            else None
        )
        evening.save(update_fields=["rule_profile"])
        [outcome] = services.games_import(evening=evening, user=None, records=[record])
        if expected["status"] == "invalid":
            assert not outcome.imported, path.name
            assert outcome.reason == "engine_error"
            assert outcome.error is not None
            assert outcome.error["index"] == expected["error"]["index"], path.name
            assert outcome.error["code"] == expected["error"]["code"], path.name
            assert outcome.error["message"]
        else:
            assert outcome.imported and outcome.game is not None, (path.name, outcome)
            game = outcome.game
            assert _names_back(game.result, names) == _without_message(expected), path.name
            assert game.status == expected["status"]
            assert game.last_seq == len(record["events"])
    assert Game.objects.filter(evening__in=[fuchsen_evening, koenig_evening]).count() == 40


def test_an_imported_game_is_stored_with_player_ids_and_the_evenings_rules(
    evening: Evening, players: dict[str, Player]
) -> None:
    evening.rule_profile = RuleProfileFactory.create(club=evening.club, overrides={"min_value": 20})
    evening.save(update_fields=["rule_profile"])
    record = {**records.record(records.NO_KONTRA), "rules": {"min_value": 20}}
    [outcome] = services.games_import(evening=evening, user=None, records=[record])
    assert outcome.imported and outcome.game is not None
    game = outcome.game
    assert game.house_rules == {"min_value": 20}
    deal = GameEvent.objects.get(game=game, seq=1).as_event()
    assert deal["dealer"] == str(players["anna"].pk)
    seated = ("anna", "bert", "carl", "dora", "emil")
    assert set(deal["hands"]) == {str(players[n].pk) for n in seated}
    assert game.result["payouts"][str(players["bert"].pk)] == 40


def test_a_record_of_the_other_game_is_rejected(evening: Evening, koenig_evening: Evening) -> None:
    [outcome] = services.games_import(
        evening=koenig_evening, user=None, records=[records.record(records.NO_KONTRA)]
    )
    assert not outcome.imported
    assert outcome.reason == "game_kind_mismatch"


def test_unknown_names_are_rejected_and_named(evening: Evening) -> None:
    record = json.loads(json.dumps(records.record(records.NO_KONTRA)).replace("emil", "zacharias"))
    [outcome] = services.games_import(evening=evening, user=None, records=[record])
    assert not outcome.imported
    assert outcome.reason == "unknown_players"
    assert outcome.unknown_players == ["zacharias"]


def test_a_mapping_says_which_player_a_name_stands_for(
    evening: Evening, players: dict[str, Player]
) -> None:
    record = json.loads(json.dumps(records.record(records.NO_KONTRA)).replace("emil", "E."))
    [outcome] = services.games_import(
        evening=evening, user=None, records=[record], players={"E.": players["emil"].pk}
    )
    assert outcome.imported and outcome.game is not None
    assert outcome.game.result["payouts"][str(players["emil"].pk)] == -10


def test_one_bad_record_does_not_stop_the_others(evening: Evening) -> None:
    good = records.record(records.NO_KONTRA)
    bad = records.record(records.ILLEGAL_PLAY)
    outcomes = services.games_import(evening=evening, user=None, records=[good, bad, good])
    assert [o.imported for o in outcomes] == [True, False, True]
    assert [g.number for g in evening.games.all()] == [1, 2]


def test_the_api_reports_each_record(
    scorer: PersonaClient, evening: Evening, players: dict[str, Player]
) -> None:
    body = [records.record(records.NO_KONTRA), records.record(records.ILLEGAL_PLAY), "junk"]
    response = scorer.post(f"/api/evenings/{evening.pk}/import/", body)
    assert response.status_code == 200, response.json()
    report = response.json()
    assert (report["imported"], report["rejected"]) == (1, 2)
    first, second, third = report["results"]
    assert first["status"] == "imported" and first["game_status"] == "finished"
    assert second["status"] == "rejected" and second["error"]["code"] == "card_not_in_hand"
    assert second["error"]["index"] == 3
    assert third["error"]["code"] == "malformed_record"


def test_the_api_takes_one_record_or_a_wrapper_with_a_mapping(
    scorer: PersonaClient, evening: Evening, players: dict[str, Player]
) -> None:
    url = f"/api/evenings/{evening.pk}/import/"
    single = scorer.post(url, records.record(records.NO_KONTRA))
    assert single.json()["imported"] == 1
    renamed = json.loads(json.dumps(records.record(records.NO_KONTRA)).replace("anna", "A"))
    wrapped = scorer.post(url, {"records": [renamed], "players": {"A": players["anna"].pk}})
    assert wrapped.json()["imported"] == 1
    unknown = scorer.post(url, {"records": [renamed], "players": {"A": 999999}})
    assert unknown.status_code == 400 and "players" in unknown.json()


def test_an_export_names_players_by_id_with_a_legend_beside_the_record(
    member: PersonaClient, evening: Evening, players: dict[str, Player]
) -> None:
    [outcome] = services.games_import(
        evening=evening, user=None, records=[records.record(records.NO_KONTRA)]
    )
    assert outcome.game is not None
    response = member.get(f"/api/games/{outcome.game.pk}/record/")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"record", "players", "result"}
    assert body["record"]["game"] == "fuchsen"
    assert body["record"]["events"][0]["dealer"] == str(players["anna"].pk)
    assert body["players"][str(players["anna"].pk)] == "Anna"
    assert body["result"]["status"] == "finished"


def test_exported_records_import_again_into_another_evening(
    scorer: PersonaClient, club: Club, evening: Evening
) -> None:
    services.games_import(
        evening=evening,
        user=None,
        records=[records.record(records.NO_KONTRA), records.record(records.NO_KONTRA[:3])],
    )
    exported = scorer.get(f"/api/evenings/{evening.pk}/records/").json()
    assert len(exported) == 2
    other = seated_evening(club, NAMES[:5])
    report = scorer.post(f"/api/evenings/{other.pk}/import/", exported).json()
    assert report["imported"] == 2
    again = scorer.get(f"/api/evenings/{other.pk}/records/").json()
    assert [e["record"] for e in again] == [e["record"] for e in exported]
    assert [e["result"] for e in again] == [e["result"] for e in exported]


def test_a_seasons_records_are_every_game_of_its_evenings(
    member: PersonaClient, club: Club, evening: Evening
) -> None:
    services.games_import(evening=evening, user=None, records=[records.record(records.NO_KONTRA)])
    services.game_start(evening=evening, user=None)
    response = member.get(f"/api/clubs/{club.slug}/seasons/{evening.season_id}/records/")
    assert response.status_code == 200
    assert [e["result"]["status"] for e in response.json()] == ["finished", "in_progress"]


def test_an_import_where_every_record_is_rejected_is_a_422_with_the_report(
    scorer: PersonaClient, evening: Evening
) -> None:
    response = scorer.post(
        f"/api/evenings/{evening.pk}/import/", [records.record(records.ILLEGAL_PLAY)]
    )
    assert response.status_code == 422
    assert response.json()["results"][0]["error"]["code"] == "card_not_in_hand"
    assert not Game.objects.exists()
