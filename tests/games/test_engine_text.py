"""The engine's error sentences in German (and English) with the players' names."""

from __future__ import annotations

import copy
import itertools
import json
import string
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from clubs.models import Club, Player
from engine.cards import CODES
from engine.errors import Msg, render
from engine.generate import random_game
from engine.koenigrufen import CONTRACTS
from engine.rules import FUCHSEN_LEVELS
from games.engine_text import TEMPLATES, explain
from games.events import renamed_events
from games.models import Evening, Game, GameEvent
from games.vocabulary import error_titles
from tests.conftest import PersonaClient
from tests.games import records
from tests.reference import CORPUS, EXAMPLES

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.json"))

NAMES = {"3": "Anna", "4": "Bert Huber", "5": "Cäcilie"}


def _german(error: dict[str, Any], names: dict[str, str] | None = None) -> str:
    with translation.override("de"):
        return explain(error, names)


def _english(error: dict[str, Any], names: dict[str, str] | None = None) -> str:
    with translation.override("en"):
        return explain(error, names)


def _error(result: engine.Result) -> dict[str, Any] | None:
    if result.error is None:
        return None
    return result.error.to_dict(detail=True)


def _made(msg: Msg, code: str = "invalid_call", **params: Any) -> dict[str, Any]:
    """The error dict the engine gives for ``msg`` with ``params``."""
    return engine.EngineError(1, code, msg, params).to_dict(detail=True)


def _assert_german_sentence(error: dict[str, Any]) -> None:
    """Rendered from a known template, so the German sentence has no English fallback."""
    assert error["template"] in TEMPLATES, error
    german = _german(error)
    with translation.override("de"):
        fallbacks = {f"{title}: {error['message']}" for title in error_titles().values()}
    assert german not in fallbacks, german
    assert error["message"] not in german, german


def _reference_records() -> Iterator[Any]:
    for path in EXAMPLE_FILES:
        yield json.loads(path.read_text(encoding="utf-8"))["record"]
    for case in json.loads(CORPUS.read_text(encoding="utf-8")):
        yield case["record"]


def _reference_errors() -> dict[str, dict[str, Any]]:
    errors: dict[str, dict[str, Any]] = {}
    for record in _reference_records():
        error = _error(engine.replay(record))
        if error is not None:
            errors.setdefault(error["message"], error)
    return errors


# --- every engine sentence has a German template ------------------------------------------


def test_every_engine_message_of_the_reference_examples_and_corpus_reads_as_a_german_sentence() -> (
    None
):
    errors = _reference_errors()
    assert len(errors) > 300  # the corpus is rich in broken records
    for error in errors.values():
        _assert_german_sentence(error)


def _cases(func: Any) -> Iterator[dict[str, Any]]:
    """The keyword arguments of each case of a (possibly parametrized) test function."""
    axes: list[list[dict[str, Any]]] = []
    for mark in getattr(func, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        argnames, argvalues = mark.args[0], mark.args[1]
        names = [n.strip() for n in argnames.split(",")] if isinstance(argnames, str) else argnames
        axis = []
        for value in argvalues:
            param = isinstance(value, tuple) and hasattr(value, "marks")  # pytest.param(...)
            values = value.values if param else (value,) if len(names) == 1 else value
            axis.append(dict(zip(names, values, strict=True)))
        axes.append(axis)
    for combination in itertools.product(*axes):
        kwargs: dict[str, Any] = {}
        for part in combination:
            kwargs.update(part)
        yield kwargs


def _engine_test_errors(name: str = "test_errors") -> dict[str, dict[str, Any]]:
    """Every error the records of ``tests/engine/<name>.py`` make the engine report
    (its property tests left out)."""
    import importlib

    import tests.engine.records as engine_records

    module = importlib.import_module(f"tests.engine.{name}")

    errors: dict[str, dict[str, Any]] = {}
    original = engine.replay

    def replay(record: Any, *args: Any, **kwargs: Any) -> engine.Result:
        result = original(record, *args, **kwargs)
        error = _error(result)
        if error is not None:
            errors.setdefault(error["message"], error)
        return result

    with (
        mock.patch.object(module, "replay", replay),
        mock.patch.object(engine_records, "replay", replay),
    ):
        for test, func in sorted(vars(module).items()):
            if test.startswith("test_") and callable(func):
                if getattr(func, "is_hypothesis_test", False):
                    continue
                for kwargs in _cases(func):
                    func(**kwargs)
    return errors


def test_every_engine_message_of_the_engines_error_tests_reads_as_a_german_sentence() -> None:
    errors = _engine_test_errors()
    assert len(errors) > 40
    for error in errors.values():
        _assert_german_sentence(error)


def test_every_engine_message_of_the_tally_tests_reads_as_a_german_sentence() -> None:
    errors = _engine_test_errors("test_tally")
    assert sum(error["code"] == "invalid_tally" for error in errors.values()) > 25
    for error in errors.values():
        _assert_german_sentence(error)


def _broken(record: dict[str, Any], draw: st.DataObject) -> dict[str, Any]:
    """``record`` with one event changed, added, dropped or moved."""
    record = copy.deepcopy(record)
    events = record["events"]
    players = events[0]["players"]
    i = draw.draw(st.integers(1, len(events) - 1), label="event")
    event = events[i]
    how = draw.draw(
        st.sampled_from(
            [
                "wrong player",
                "card played twice",
                "card of the other game",
                "any card",
                "raise by anyone",
                "bid out of turn",
                "other move",
                "drop",
                "swap",
                "fuchs",
            ]
        ),
        label="how",
    )
    player = draw.draw(st.sampled_from(players), label="player")
    if how == "wrong player" and "player" in event:
        event["player"] = player
    elif how == "card played twice" and event["type"] == "play":
        earlier = [e["card"] for e in events[1:i] if e["type"] == "play"]
        if earlier:
            event["card"] = draw.draw(st.sampled_from(earlier), label="again")
    elif how == "card of the other game" and event["type"] == "play":
        # Fuchsen at four or six plays without sevens and eights; "XX" is no card at all.
        event["card"] = draw.draw(st.sampled_from(["E7", "G8", "S7", "R8", "XX"]), label="card")
    elif how == "any card" and "card" in event:
        event["card"] = draw.draw(st.sampled_from(CODES), label="card")
    elif how == "raise by anyone":
        level = draw.draw(st.sampled_from(FUCHSEN_LEVELS), label="level")
        events.insert(i, {"type": "raise", "player": player, "level": level})
    elif how == "bid out of turn":
        contract = draw.draw(st.sampled_from(CONTRACTS), label="contract")
        events.insert(i, {"type": "bid", "player": player, "contract": contract})
    elif how == "other move":
        typ = draw.draw(
            st.sampled_from(["pass", "join", "forfeit", "call", "end_raising", "deal"]),
            label="type",
        )
        move: dict[str, Any] = {"type": typ, "player": player}
        if typ == "call":
            move["card"] = draw.draw(st.sampled_from(CODES), label="called")
        events.insert(i, move)
    elif how == "drop":
        del events[i]
    elif how == "swap":
        j = draw.draw(st.integers(1, len(events) - 1), label="other")
        events[i], events[j] = events[j], events[i]
    elif how == "fuchs" and event["type"] == "play":
        event["fuchs"] = True
    return record


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    table=st.sampled_from([("fuchsen", 4), ("fuchsen", 5), ("fuchsen", 6), ("koenigrufen", 4)]),
    data=st.data(),
)
def test_a_generated_game_broken_in_one_event_is_explained_in_german(
    seed: int, table: tuple[str, int], data: st.DataObject
) -> None:
    game, seats = table
    record = _broken(random_game(seed, game, seats), data)
    error = _error(engine.replay(record))
    if error is not None:
        _assert_german_sentence(error)


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_template_has_a_german_translation_with_no_unknown_placeholder() -> None:
    with translation.override("de"):
        for template in TEMPLATES:
            german = translation.gettext(template)
            assert german != template, template
            assert _placeholders(german) <= _placeholders(template), german


SAMPLES = {
    "player": "3",
    "other": "4",
    "card": "GK",
    "card2": "S9",
    "example": "E10",
    "cards": "E9 S7",
    "level": "supp",
    "level2": "re",
    "contract": "bettler",
    "contract2": "durchmarsch",
    "suit": "Grün",
    "type": "play",
    "n": "1000000",
    "n2": "90",
    "n3": "12",
    "rule": "min_value",
}


def test_each_template_reads_in_english_as_the_engines_sentence_and_in_german_without_it() -> None:
    for msg in Msg:
        params = {n: SAMPLES.get(n, "x y") for n in _placeholders(msg.value)}
        error = _made(msg, **params)
        assert error["message"] == render(msg, params)
        assert _english(error) == error["message"]
        _assert_german_sentence(error)


# --- the sentences --------------------------------------------------------------------------


def test_names_replace_the_players_ids_in_german() -> None:
    error = _made(Msg.FOLLOW_SUIT, "must_follow_suit", player="3", example="GK", suit="Eichel")
    assert error["message"] == "3 must follow suit: 3 holds GK and Eichel was led"
    assert _german(error, NAMES) == (
        "Anna muss bedienen (Farbzwang): Eichel ist ausgespielt, und Anna hat Grün-König."
    )
    turn = _made(Msg.NOT_TURN_TO_PLAY, "not_your_turn", player="5", other="4")
    assert turn["message"] == "it is 4's turn to play, not 5's"
    assert _german(turn, NAMES) == "Bert Huber ist mit Spielen an der Reihe, nicht Cäcilie."
    call = _made(Msg.CALLS_OWN_CARD, player="3", card="EA")
    assert _german(call, NAMES) == "Anna darf Eichel-Sau nicht rufen: Anna hat die Karte selbst."
    stranger = _made(Msg.NOT_PLAYING, "unknown_player", rplayer="3")
    assert stranger["message"] == "'3' is not playing in this game"
    assert _german(stranger, NAMES) == "Anna spielt in diesem Spiel nicht mit."
    assert _english(stranger, NAMES) == "'Anna' is not playing in this game"


def test_an_unknown_id_stays_as_it_is() -> None:
    error = _made(Msg.NOT_PLAYING, "unknown_player", rplayer="99")
    assert _german(error, NAMES) == "'99' spielt in diesem Spiel nicht mit."


def test_a_raise_names_the_levels_and_the_side_in_german() -> None:
    error = _made(Msg.RAISE_MACHERS_SIDE, "invalid_raise", player="4", level="supp")
    assert error["message"] == "4 cannot say supp: only the Macher's side may"
    assert _german(error, NAMES) == (
        "Bert Huber kann nicht Supp sagen: Das dürfen nur der Macher und sein Hilfer."
    )


def test_an_unknown_sentence_falls_back_to_the_heading_and_the_engines_words() -> None:
    error = {"index": 3, "code": "must_trump", "message": "3 did something new"}
    assert (
        _german(error, NAMES) == "Trumpfen bzw. übertrumpfen (Trumpfzwang): Anna did something new"
    )
    assert _english(error, NAMES) == "Anna did something new"
    assert _german({"code": "no_such_code", "message": ""}) == "Nicht angenommen"
    assert _german({}) == "Nicht angenommen"


def _with_ids(record: Any) -> tuple[Any, dict[str, str]] | None:
    """``record`` with its seated players' names replaced by ids, and the ids' names."""
    try:
        players = record["events"][0]["players"]
        seated = [p for p in players if isinstance(p, str) and p]
    except (KeyError, IndexError, TypeError):
        return None
    if not seated:
        return None
    ids = {name: str(300 + i) for i, name in enumerate(dict.fromkeys(seated))}
    return {**record, "events": renamed_events(record["events"], ids)}, {
        v: k for k, v in ids.items()
    }


def test_in_english_the_explanation_is_the_engines_sentence_with_names() -> None:
    compared = 0
    for record in _reference_records():
        by_name = _error(engine.replay(record))
        converted = _with_ids(record)
        if by_name is None or converted is None:
            continue
        with_ids, names = converted
        by_id = _error(engine.replay(with_ids))
        assert by_id is not None and by_id["code"] == by_name["code"]
        assert _english(by_id, names) == by_name["message"]
        compared += 1
    assert compared > 300


# --- the API and the import report ----------------------------------------------------------


@pytest.mark.django_db
def test_the_api_explains_a_refused_card_in_german_and_in_english_on_request(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any, players: dict[str, Player]
) -> None:
    url = f"/api/games/{dealt_game.pk}/events/"
    body = {"expected_seq": 1, "events": as_ids(records.ILLEGAL_PLAY)}
    before = list(GameEvent.objects.filter(game=dealt_game).values_list("seq", "payload"))

    german = scorer.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 422
    answer = german.json()
    carl = str(players["carl"].pk)
    assert answer["error"]["code"] == "card_not_in_hand"
    assert answer["error"]["message"].startswith(f"{carl} cannot hold RK")  # the engine's own
    assert answer["detail"].startswith("Carl kann Rot-König nicht haben: ")
    assert carl not in answer["detail"]

    by_default = scorer.post(url, body, format="json")
    assert by_default.json()["detail"] == answer["detail"]  # German first

    english = scorer.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 422
    assert english.json()["error"] == answer["error"]
    expected = answer["error"]["message"]
    for name, player in players.items():
        expected = expected.replace(str(player.pk), name.capitalize())
    assert english.json()["detail"] == expected
    assert english.json()["detail"].startswith("Carl cannot hold RK: ")

    after = list(GameEvent.objects.filter(game=dealt_game).values_list("seq", "payload"))
    assert after == before  # a 422 writes nothing


@pytest.mark.django_db
def test_a_refused_deal_names_the_seated_players_in_german(
    scorer: PersonaClient, evening: Evening, players: dict[str, Player]
) -> None:
    ids = [str(players[n].pk) for n in ("anna", "bert", "carl", "dora", "emil")]
    deal = {"type": "deal", "dealer": ids[0], "players": ids, "hands": {ids[1]: ["EO", "GO"]}}
    response = scorer.post(f"/api/evenings/{evening.pk}/games/", {"deal": deal}, format="json")
    assert response.status_code == 422, response.json()
    assert response.json()["detail"] == "Bert muss sechs verschiedene Karten bekommen."
    assert not Game.objects.filter(evening=evening).exists()


@pytest.mark.django_db
def test_the_import_report_explains_a_rejected_record_in_german(
    scorer: PersonaClient, evening: Evening, club: Club, players: dict[str, Player]
) -> None:
    record = {"game": "fuchsen", "events": [records.DEAL, *records.ILLEGAL_PLAY]}
    response = scorer.post(f"/api/evenings/{evening.pk}/import/", record, format="json")
    assert response.status_code == 422, response.json()
    [row] = response.json()["results"]
    assert row["reason"] == "engine_error"
    assert row["error"]["message"].startswith("carl cannot hold RK")
    assert row["detail"].startswith("carl kann Rot-König nicht haben: ")
    english = scorer.post(
        f"/api/evenings/{evening.pk}/import/", record, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert english.json()["results"][0]["detail"] == row["error"]["message"]
    assert not Game.objects.filter(evening=evening).exists()


@pytest.mark.django_db
def test_the_new_game_page_explains_a_refused_deal_in_german(
    scorer: PersonaClient, evening: Evening, players: dict[str, Player]
) -> None:
    bert = players["bert"].pk
    response = scorer.post(
        f"/evenings/{evening.pk}/new-game/",
        {"dealer": str(players["anna"].pk), f"hand{bert}": "EO GO EU GU SU XX"},
        format="multipart",
        follow=True,
    )
    page = response.content.decode()
    sentence = "&#x27;XX&#x27; im Blatt von Bert gehört nicht zu den Karten dieses Spiels."
    assert f"Diese Karte gibt es in diesem Spiel nicht: {sentence}" in page
    assert not Game.objects.filter(evening=evening).exists()


@pytest.mark.django_db
def test_a_game_whose_stored_record_the_engine_rejects_is_explained_in_german(
    scorer: PersonaClient, dealt_game: Game, as_ids: Any, players: dict[str, Player]
) -> None:
    # Appends never store an invalid record; one stored before a stricter engine
    # judged it (replay_all reports such games) is written here directly.
    for seq, event in enumerate(as_ids(records.ILLEGAL_PLAY), start=2):
        kind = event.pop("type")
        GameEvent.objects.create(game=dealt_game, seq=seq, type=kind, payload=event)
    Game.objects.filter(pk=dealt_game.pk).update(last_seq=4)

    german = scorer.get(f"/api/games/{dealt_game.pk}/", HTTP_ACCEPT_LANGUAGE="de").json()
    assert german["state"]["status"] == "invalid"
    assert german["state"]["result"]["error"]["code"] == "card_not_in_hand"
    assert german["explanation"].startswith("Carl kann Rot-König nicht haben: ")

    english = scorer.get(f"/api/games/{dealt_game.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert english["explanation"].startswith("Carl cannot hold RK: ")

    page = scorer.get(f"/games/{dealt_game.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '"explanation": "Carl kann Rot-K\\u00f6nig nicht haben: ' in page


@pytest.mark.django_db
def test_a_valid_game_has_no_explanation(scorer: PersonaClient, dealt_game: Game) -> None:
    answer = scorer.get(f"/api/games/{dealt_game.pk}/").json()
    assert answer["state"]["status"] == "in_progress"
    assert answer["explanation"] is None
