""" "ändern" beside any entry: the API replaces it and enters the later entries again in
one request; a later entry that no longer fits is left out (named in the answer) and
the ones before it stand."""

from __future__ import annotations

from typing import Any

import pytest

from engine import table_view
from games import selectors, services
from games.models import Evening, Game, GameEvent
from tests.conftest import PersonaClient

pytestmark = pytest.mark.django_db

DEAL = {"type": "deal", "dealer": "anna", "players": ["anna", "bert", "carl", "dora", "emil"]}
# No hands: Carl's Grün-Sau (position 11) was really his Rot-Unter; nothing proves it.
PLAYED = [
    {"type": "call", "player": "bert", "card": "E10"},
    *[
        {"type": "play", "player": p, "card": c}
        for p, c in (("bert", "EO"), ("carl", "RA"), ("dora", "R10"))
    ],
    {"type": "raise", "player": "dora", "level": "kontra"},
    {"type": "raise", "player": "carl", "level": "re"},
    *[{"type": "play", "player": p, "card": c} for p, c in (("emil", "R9"), ("anna", "R7"))],
    {"type": "end_raising"},
    *[
        {"type": "play", "player": p, "card": c}
        for p, c in (("bert", "GO"), ("carl", "GA"), ("dora", "RK"), ("emil", "RO"))
    ],
]
WRONG = 11  # in the record, the deal first


@pytest.fixture
def game(evening: Evening, as_ids: Any) -> Game:
    started = services.game_start(evening=evening, user=None, deal=as_ids([DEAL])[0])
    return services.game_events_append(
        game=started, user=None, expected_seq=started.last_seq, events=as_ids(PLAYED)
    ).game


def _change(client: PersonaClient, game: Game, event: dict[str, Any], index: int) -> Any:
    return client.post(
        f"/api/games/{game.pk}/events/",
        {
            "expected_seq": game.last_seq,
            "events": [event],
            "correct": index,
            "stop_at_misfit": True,
            "answer": "new",
        },
    )


def _standing(game: Game) -> list[dict[str, Any]]:
    record = selectors.game_record(game=game)
    return [record["events"][i] for i in table_view(record).to_dict()["effective"]]


def test_the_wrong_card_is_replaced_and_every_later_entry_entered_again(
    game: Game, as_ids: Any, scorer: PersonaClient
) -> None:
    assert _standing(game)[WRONG]["card"] == "GA"
    answer = _change(scorer, game, as_ids([{**PLAYED[WRONG - 1], "card": "RU"}])[0], WRONG)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["left_out"] == []
    standing = _standing(game)
    assert [e.get("card") for e in standing[WRONG:]] == ["RU", "RK", "RO"]


def test_a_later_entry_that_no_longer_fits_is_left_out_with_the_ones_after_it(
    game: Game, as_ids: Any, scorer: PersonaClient
) -> None:
    # Carl played the Rot-König: Dora's Rot-König, later, cannot stand.
    answer = _change(scorer, game, as_ids([{**PLAYED[WRONG - 1], "card": "RK"}])[0], WRONG)
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert [e["card"] for e in body["left_out"]] == ["RK", "RO"]
    assert body["misfit"]["index"] > game.last_seq
    assert "Rot-König" in body["misfit_detail"]
    standing = _standing(game)
    assert len(standing) == WRONG + 1 and standing[WRONG]["card"] == "RK"


def test_a_replacement_the_engine_refuses_writes_nothing(
    game: Game, as_ids: Any, scorer: PersonaClient
) -> None:
    before = GameEvent.objects.filter(game=game).count()
    # Carl cannot play the Eichel-Ober: Bert played it in trick 1.
    answer = _change(scorer, game, as_ids([{**PLAYED[WRONG - 1], "card": "EO"}])[0], WRONG)
    assert answer.status_code == 422
    assert GameEvent.objects.filter(game=game).count() == before


def test_a_stale_change_is_a_conflict_and_writes_nothing(
    game: Game, as_ids: Any, scorer: PersonaClient
) -> None:
    before = GameEvent.objects.filter(game=game).count()
    answer = scorer.post(
        f"/api/games/{game.pk}/events/",
        {
            "expected_seq": game.last_seq - 1,
            "events": as_ids([{**PLAYED[WRONG - 1], "card": "RU"}]),
            "correct": WRONG,
            "stop_at_misfit": True,
        },
    )
    assert answer.status_code == 409
    assert GameEvent.objects.filter(game=game).count() == before


def test_a_member_who_does_not_score_cannot_change_an_entry(
    game: Game, as_ids: Any, member: PersonaClient
) -> None:
    answer = _change(member, game, as_ids([{**PLAYED[WRONG - 1], "card": "RU"}])[0], WRONG)
    assert answer.status_code == 403
