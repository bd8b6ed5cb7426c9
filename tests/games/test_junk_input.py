"""Random junk into the recording and import endpoints: always a 400 or a 422, nothing written."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Evening, Game, GameEvent, IdempotencyRecord
from tests.conftest import PersonaClient

pytestmark = pytest.mark.django_db

HYPOTHESIS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

json_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=12)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
names = st.text(max_size=6) | st.integers() | st.none()
cards = st.sampled_from(["EO", "GO", "RA", "S7", "X9", "", "eo"]) | json_scalars
# Event types that are never legal right after a deal with nothing else (so a
# junk event built from them can never be accepted): no annul, undo or show.
junk_types = (
    st.sampled_from(
        ["deal", "call", "bid", "pass", "join", "play", "raise", "end_raising", "forfeit", "jump"]
    )
    | json_scalars
)
junk_events = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"type": junk_types},
        optional={
            "player": names,
            "card": cards,
            "level": st.sampled_from(["kontra", "re", "end", "x"]) | json_scalars,
            "contract": st.sampled_from(["bettler", "schurln", "x"]) | json_scalars,
            "players": st.lists(names, max_size=6),
            "dealer": names,
            "fuchs": json_scalars,
            "extra": json_values,
        },
    ),
)
junk_records = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {
            "game": st.sampled_from(["fuchsen", "koenigrufen", "skat"]) | json_scalars,
            "events": st.lists(junk_events, min_size=1, max_size=6) | json_values,
        },
        optional={"rules": json_values},
    ),
)


def _snapshot() -> tuple[int, int, int]:
    return (Game.objects.count(), GameEvent.objects.count(), IdempotencyRecord.objects.count())


@HYPOTHESIS
@given(
    body=st.one_of(
        json_values,
        st.fixed_dictionaries(
            # A well-formed but stale expected_seq is rightly a 409: keep it 1 or non-numeric.
            {
                "expected_seq": st.just(1) | st.none() | st.booleans() | st.lists(json_scalars),
                "events": st.lists(junk_events, max_size=5),
            }
        ),
        st.fixed_dictionaries({"expected_seq": st.just(1), "events": json_values}),
    ),
    key=st.none() | st.text(min_size=1, max_size=20),
)
def test_junk_appended_to_a_game_is_a_400_or_422_and_writes_nothing(
    scorer: PersonaClient, dealt_game: Game, body: Any, key: str | None
) -> None:
    before = _snapshot()
    headers: dict[str, Any] = {}
    if key is not None and key.strip() and "\n" not in key:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    response = scorer.post(f"/api/games/{dealt_game.pk}/events/", body, format="json", **headers)
    assert response.status_code in (400, 422), (body, response.content)
    assert _snapshot() == before
    dealt_game.refresh_from_db()
    assert dealt_game.last_seq == 1


@HYPOTHESIS
@given(body=st.one_of(junk_records, st.lists(junk_records, min_size=1, max_size=4)))
def test_junk_imported_into_an_evening_is_a_400_or_422_and_writes_nothing(
    scorer: PersonaClient, evening: Evening, body: Any
) -> None:
    before = _snapshot()
    response = scorer.post(f"/api/evenings/{evening.pk}/import/", body, format="json")
    assert response.status_code in (400, 422), (body, response.content)
    assert _snapshot() == before


BIG = 10**30


def test_ids_and_seqs_too_large_for_the_database_are_refused_not_a_500(
    scorer: PersonaClient, evening: Evening, dealt_game: Game, players: dict[str, Any]
) -> None:
    club = evening.club
    season = evening.season_id
    game = dealt_game.pk
    requests: list[tuple[str, str, Any]] = [
        ("post", f"/api/evenings/{evening.pk}/seats/", {"player": BIG}),
        ("post", f"/api/evenings/{evening.pk}/seats/", {"player": 1, "position": BIG}),
        ("delete", f"/api/evenings/{evening.pk}/seats/{BIG}/", None),
        ("get", f"/api/evenings/{BIG}/", None),
        ("get", f"/api/games/{BIG}/", None),
        ("post", f"/api/clubs/{club.slug}/evenings/", {"season": BIG, "players": [1, 2, 3, 4]}),
        ("post", f"/api/clubs/{club.slug}/evenings/", {"season": season, "players": [BIG] * 4}),
        ("get", f"/api/clubs/{club.slug}/evenings/?season={BIG}", None),
        ("get", f"/api/clubs/{club.slug}/seasons/{BIG}/records/", None),
        ("post", f"/api/evenings/{evening.pk}/import/", {"records": [{}], "players": {"a": BIG}}),
        ("post", f"/api/games/{game}/events/", {"expected_seq": BIG, "events": [{"type": "undo"}]}),
        (
            "post",
            f"/api/games/{game}/events/",
            {
                "expected_seq": 1,
                "events": [
                    {"type": "undo"},
                    {"type": "deal", "dealer": str(BIG), "players": [str(BIG), "²", "012", "7"]},
                ],
            },
        ),
        ("post", f"/api/evenings/{evening.pk}/games/", {"deal": {"dealer": str(BIG)}}),
    ]
    before = _snapshot()
    for method, url, body in requests:
        response = getattr(scorer, method)(url, body, format="json")
        assert response.status_code in (400, 404), (method, url, response.content)
    assert _snapshot() == before
