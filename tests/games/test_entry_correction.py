"""Correcting an entry found wrong in hindsight: one request undoes back to it,
appends the correction and the later entries again — all or nothing, every step
on record."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubs.models import Player
from engine import replay
from games import selectors, services
from games.errors import EngineRejected, GamesError, StaleSequence
from games.models import Evening, Game, GameEvent
from tests.conftest import PersonaClient

pytestmark = pytest.mark.django_db

DEAL = {"type": "deal", "dealer": "anna", "players": ["anna", "bert", "carl", "dora", "emil"]}


def _plays(text: str) -> list[dict[str, Any]]:
    return [
        {"type": "play", "player": p, "card": c} for p, c in (pc.split(":") for pc in text.split())
    ]


# Without hands: the first trick with Kontra and Re, then trick 2 where Carl throws his
# Grün-Sau on Bert's trump lead. Nothing proves him wrong yet.
BEFORE = [
    {"type": "call", "player": "bert", "card": "E10"},
    *_plays("bert:EO carl:RA dora:R10"),
    {"type": "raise", "player": "dora", "level": "kontra"},
    {"type": "raise", "player": "carl", "level": "re"},
    *_plays("emil:R9 anna:R7"),
    {"type": "end_raising"},
    *_plays("bert:GO carl:GA dora:RK emil:RO anna:R8 bert:EU"),
]
WRONG = 1 + BEFORE.index({"type": "play", "player": "carl", "card": "GA"})  # in the record


@pytest.fixture
def game(evening: Evening, as_ids: Any) -> Game:
    started = services.game_start(evening=evening, user=None, deal=as_ids([DEAL])[0])
    return services.game_events_append(
        game=started, user=None, expected_seq=started.last_seq, events=as_ids(BEFORE)
    ).game


def test_the_later_card_that_proves_the_mistake_is_refused_naming_the_entry(
    game: Game, as_ids: Any
) -> None:
    with pytest.raises(EngineRejected) as refused:
        services.game_events_append(
            game=game, user=None, expected_seq=game.last_seq, events=as_ids(_plays("carl:RU"))
        )
    assert refused.value.error["index"] == WRONG
    assert refused.value.error["code"] == "must_follow_suit"


def test_the_corrected_record_is_the_deal_as_played(
    game: Game, as_ids: Any, players: dict[str, Player]
) -> None:
    stored_before = GameEvent.objects.filter(game=game).count()
    game = services.game_events_append(
        game=game,
        user=None,
        expected_seq=game.last_seq,
        correct=WRONG,
        events=as_ids(_plays("carl:RU carl:GK")),
    ).game
    record = selectors.game_record(game=game)
    # Every step is on record: the undos, the correction, the later events again.
    later = len(BEFORE) + 1 - WRONG
    assert GameEvent.objects.filter(game=game).count() == stored_before + later + later + 1
    standing = replay(record)
    assert standing.status == "in_progress"
    expected = [DEAL, *BEFORE]
    expected[WRONG] = _plays("carl:RU")[0]
    expected.append(_plays("carl:GK")[0])
    plain = {
        "game": "fuchsen",
        "events": as_ids(expected),
    }
    assert replay(plain) == standing


def test_a_correction_the_rules_refuse_writes_nothing(game: Game, as_ids: Any) -> None:
    stored = GameEvent.objects.filter(game=game).count()
    with pytest.raises(EngineRejected):
        services.game_events_append(
            game=game,
            user=None,
            expected_seq=game.last_seq,
            correct=WRONG,
            # EO: the call and the lead put it in Bert's hand, never in Carl's.
            events=as_ids(_plays("carl:EO")),
        )
    assert GameEvent.objects.filter(game=game).count() == stored


def test_a_stale_sequence_is_refused(game: Game, as_ids: Any) -> None:
    with pytest.raises(StaleSequence):
        services.game_events_append(
            game=game,
            user=None,
            expected_seq=game.last_seq - 1,
            correct=WRONG,
            events=as_ids(_plays("carl:RU")),
        )


@given(index=st.integers(min_value=-5, max_value=60))
def test_corrected_events_refuses_any_position_that_is_no_standing_entry(index: int) -> None:
    stored = [DEAL, *BEFORE, {"type": "undo"}]  # the undo took back Bert's EU
    standing = set(range(1, len(BEFORE)))  # not the deal, not the EU, not the undo
    if index in standing:
        events = services.corrected_events(
            stored=stored, index=index, replacement=_plays("carl:RU")[0]
        )
        undos = [e for e in events if e["type"] == "undo"]
        assert len(undos) == len(BEFORE) - index
        assert events[len(undos)] == _plays("carl:RU")[0]
        assert events[len(undos) + 1 :] == stored[index + 1 : len(BEFORE)]
    else:
        with pytest.raises(GamesError):
            services.corrected_events(stored=stored, index=index, replacement=_plays("carl:RU")[0])


def test_the_append_api_corrects_an_entry_in_one_request(
    scorer: PersonaClient, game: Game, as_ids: Any
) -> None:
    response = scorer.post(
        f"/api/games/{game.pk}/events/",
        {
            "expected_seq": game.last_seq,
            "correct": WRONG,
            "events": as_ids(_plays("carl:RU carl:GK")),
            "answer": "new",
        },
    )
    assert response.status_code == 201, response.json()
    types = [e["type"] for e in response.json()["events"]]
    assert types.count("undo") == len(BEFORE) + 1 - WRONG
    assert response.json()["state"]["to_act"] is not None


def test_the_api_refuses_a_position_that_is_no_entry_with_a_message(
    scorer: PersonaClient, game: Game, as_ids: Any
) -> None:
    stored = GameEvent.objects.filter(game=game).count()
    response = scorer.post(
        f"/api/games/{game.pk}/events/",
        {"expected_seq": game.last_seq, "correct": 999, "events": as_ids(_plays("carl:RU"))},
    )
    # Bad input on a field, like any other: 400 naming ``correct``, nothing written.
    assert response.status_code == 400
    assert response.json()["correct"]
    assert GameEvent.objects.filter(game=game).count() == stored
