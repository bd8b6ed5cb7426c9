"""An import judges every record, then writes the accepted games together: the same
rows as recording each game on its own, nothing of a refused record, nothing at all
when the writing fails, and a number of statements that does not grow per record."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from clubs.models import Club, GameKind, Player
from engine.generate import random_game
from games import listeners, services
from games.models import Evening, Game, GameEvent
from ledger.models import LedgerEntry, ProjectionChange, ProjectionState
from tests.conftest import PersonaClient
from tests.games import records
from tests.games.factories import NAMES, club_players, ids, seated_evening

pytestmark = pytest.mark.django_db


def _records() -> list[dict[str, Any]]:
    """Played-out games with every card, one still in progress and one annulled."""
    played = [random_game(seed, "fuchsen", 5) for seed in range(6)]
    unfinished = random_game(7, "fuchsen", 5)
    unfinished["events"] = unfinished["events"][:8]
    annulled = random_game(8, "fuchsen", 5)
    annulled["events"] = [*annulled["events"][:3], {"type": "annul"}]
    return [played[0], played[1], unfinished, played[2], annulled, *played[3:]]


def _stored(evening: Evening) -> dict[str, Any]:
    """What the evening's games wrote, but ids and times, by game number."""
    games = list(Game.objects.filter(evening=evening).order_by("number"))
    number = {game.pk: game.number for game in games}
    return {
        "games": [
            (
                game.number,
                game.game_kind,
                game.house_rules,
                game.status,
                game.result,
                game.last_seq,
                game.dealer_id,
                game.created_by_id,
                game.finished_at is None,
            )
            for game in games
        ],
        "events": [
            (
                number[e.game_id],
                e.seq,
                e.type,
                e.payload,
                e.schema_version,
                e.recorded_by_id,
                e.idempotency_key,
            )
            for e in GameEvent.objects.filter(game__evening=evening).order_by("game__number", "seq")
        ],
        "entries": [
            (number.get(e.game_id or 0), e.player_id, e.amount, e.kind, e.club_id, e.season_id)
            for e in LedgerEntry.objects.filter(evening=evening).order_by("pk")
        ],
        "changes": sorted(
            number[c.game_id]
            for c in ProjectionChange.objects.filter(game_id__in=list(number))
            if c.game_id is not None
        ),
    }


def _times_in_order(evening: Evening) -> bool:
    """Each game created, finished, its events recorded and its entries booked, in that
    order, before the next game: the order in which one-by-one recording stamps them."""
    stamps = []
    for game in Game.objects.filter(evening=evening).order_by("number"):
        stamps.append(game.created_at)
        if game.finished_at is not None:
            stamps.append(game.finished_at)
        stamps += [e.recorded_at for e in game.events.order_by("seq")]
        stamps += [e.created_at for e in LedgerEntry.objects.filter(game=game).order_by("pk")]
    return all(a <= b for a, b in itertools.pairwise(stamps))


def _version(evening: Evening) -> int:
    state = ProjectionState.objects.filter(season_id=evening.season_id).first()
    return state.version if state is not None else 0


def test_an_import_stores_the_same_rows_as_recording_each_game_on_its_own(
    club: Club, scorer: PersonaClient
) -> None:
    players = club_players(club, NAMES)
    imported_into = seated_evening(club, NAMES[:5])
    recorded_into = seated_evening(club, NAMES[:5])
    chosen = _records()

    before = _version(imported_into)
    outcomes = services.games_import(evening=imported_into, user=scorer.user, records=chosen)
    imported_changes = _version(imported_into) - before
    before = _version(recorded_into)
    for record in chosen:
        services.game_started(
            evening=recorded_into, user=scorer.user, events=ids(record, players)["events"]
        )
    recorded_changes = _version(recorded_into) - before

    assert all(outcome.imported for outcome in outcomes)
    stored = _stored(imported_into)
    assert {status for _n, _k, _r, status, *_ in stored["games"]} == {
        "finished",
        "in_progress",
        "annulled",
    }
    assert stored == _stored(recorded_into)
    assert imported_changes == recorded_changes == len(set(stored["changes"]))
    assert _times_in_order(imported_into) and _times_in_order(recorded_into)
    assert [o.game.pk for o in outcomes if o.game is not None] == list(
        Game.objects.filter(evening=imported_into).order_by("number").values_list("pk", flat=True)
    )


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(bad_at=st.integers(min_value=0, max_value=4), earlier_games=st.integers(0, 2))
def test_a_refused_record_anywhere_writes_nothing_and_the_others_are_numbered_on(
    evening: Evening, players: dict[str, Player], bad_at: int, earlier_games: int
) -> None:
    good = [random_game(seed, "fuchsen", 5) for seed in range(4)]
    bad = records.record(records.ILLEGAL_PLAY)
    chosen = [*good[:bad_at], bad, *good[bad_at:]]
    with transaction.atomic():
        for record in good[:earlier_games]:
            services.game_started(evening=evening, user=None, events=ids(record, players)["events"])
        outcomes = services.games_import(evening=evening, user=None, records=chosen)

        assert [o.imported for o in outcomes] == [i != bad_at for i in range(len(chosen))]
        refused = outcomes[bad_at]
        assert refused.reason == "engine_error" and refused.error is not None
        verdict = engine.replay(bad).error
        assert verdict is not None
        assert (refused.error["index"], refused.error["code"]) == (verdict.index, verdict.code)
        games = list(Game.objects.filter(evening=evening).order_by("number"))
        assert [g.number for g in games] == list(range(1, earlier_games + len(good) + 1))
        assert [o.game for o in outcomes if o.imported] == games[earlier_games:]
        assert GameEvent.objects.filter(game__evening=evening).count() == sum(
            len(r["events"]) for r in [*good[:earlier_games], *good]
        )
        assert set(LedgerEntry.objects.filter(evening=evening).values_list("game", flat=True)) == {
            g.pk for g in games
        }
        transaction.set_rollback(True)


class FailsOnAdding(listeners.GamesListener):
    """A listener whose write dies after the games and their events were written."""

    def games_added(self, **kwargs: Any) -> None:
        raise RuntimeError("the listener failed")


def test_an_import_whose_writing_fails_writes_nothing(evening: Evening) -> None:
    with listeners.only(*listeners.registered(), FailsOnAdding()), pytest.raises(RuntimeError):
        services.games_import(
            evening=evening,
            user=None,
            records=[random_game(seed, "fuchsen", 5) for seed in range(3)],
        )
    assert not Game.objects.filter(evening=evening).exists()
    assert not GameEvent.objects.filter(game__evening=evening).exists()
    assert not LedgerEntry.objects.filter(evening=evening).exists()


# PostgreSQL: SQLite takes at most 999 parameters a statement, so Django splits its
# inserts into batches of about a hundred rows there.
@pytest.mark.postgres
@pytest.mark.parametrize("count", [10, 50])
@pytest.mark.parametrize("game_kind", [GameKind.FUCHSEN, GameKind.KOENIGRUFEN])
def test_the_statements_of_an_import_do_not_grow_with_its_records(
    club: Club, count: int, game_kind: str
) -> None:
    seats = 5 if game_kind == GameKind.FUCHSEN else 4
    evening = seated_evening(club, NAMES[:seats], game_kind=game_kind)
    chosen = [random_game(seed, game_kind, seats) for seed in range(count)]
    with CaptureQueriesContext(connection) as queries:
        outcomes = services.games_import(evening=evening, user=None, records=chosen)
    assert all(outcome.imported for outcome in outcomes)
    # Reads of the evening, its players and rules, the lock, the numbering, one insert
    # each of games, events, entries and projection changes, the version, savepoints.
    assert len(queries) <= 20, [q["sql"][:80] for q in queries]
