"""A season's projections go on from the last computation where its games did not change.

``ledger.ratings.rate_games_from`` resumes the ratings after the games that agree
with an earlier run, and ``ledger.projections.compute_season`` remembers each
season's last computation (ratings and evening tables) per process. Both are
shortcuts: whatever changed between two runs, the figures must be exactly those of
a computation from scratch. The service then writes only the rows that changed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db.models import F
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Game
from ledger import projections, selectors, services
from ledger.models import PlayerRating, ProjectionState, StandingRow
from ledger.projections import GameRow, compute_season
from ledger.ratings import rate_games, rate_games_from
from ledger.series import as_cents, head_to_head
from ledger.standings import GameOutcome, StandingsConfig, player_standings, season_table
from tests.ledger.factories import Table, finish, make_table, reopen

SEASON_START = datetime(2026, 9, 1, 19, 0)
PLAYERS = ("1", "2", "3", "4", "5", "6")


def outcome(rng: random.Random, game_id: int, minute: int | None = None) -> GameOutcome:
    """A random zero-sum game of four or five of the six players."""
    active = tuple(sorted(rng.sample(PLAYERS, rng.choice((4, 5)))))
    value = rng.choice((10, 20, 40))
    if rng.random() < 0.15:  # schurln: no declaring side, every man for himself
        losers = rng.sample(active, rng.choice((1, 2)))
        payouts = {p: -value if p in losers else 0 for p in active}
        winners = [p for p in active if p not in losers]
        share, rest = divmod(value * len(losers), len(winners))
        for i, p in enumerate(winners):
            payouts[p] = share + (rest if i == 0 else 0)
        declarers: tuple[str, ...] = ()
        won = None
    else:
        declarers = tuple(rng.sample(active, rng.choice((1, 2))))
        won = rng.random() < 0.5
        sign = 1 if won else -1
        opponents = [p for p in active if p not in declarers]
        payouts = dict.fromkeys(opponents, -sign * value)
        total = sign * value * len(opponents)
        if len(declarers) == 2:
            payouts[declarers[1]] = sign * value
            total -= sign * value
        payouts[declarers[0]] = total
    return GameOutcome(
        game_id=game_id,
        played_at=SEASON_START + timedelta(minutes=game_id if minute is None else minute),
        kind="fuchsen",
        payouts=payouts,
        active=active,
        declarers=declarers,
        won=won,
        contract="schurln" if not declarers else "partner",
    )


def changed(rng: random.Random, games: list[GameOutcome], next_id: int) -> list[GameOutcome]:
    """``games`` after one of the things a club's evening does to them."""
    games = list(games)
    roll = rng.random()
    if roll < 0.4 or not games:  # a game finishes, the usual case
        games.append(outcome(rng, next_id))
    elif roll < 0.55:  # a game is taken back
        games.pop(rng.randrange(len(games)))
    elif roll < 0.7:  # a game taken back and played on to another result
        i = rng.randrange(len(games))
        games[i] = outcome(rng, games[i].game_id)
    elif roll < 0.8:  # a game recorded afterwards, played earlier than the last ones
        games.append(outcome(rng, next_id, minute=rng.randrange(next_id)))
    elif roll < 0.9:  # several games at once (an import)
        games += [outcome(rng, next_id + k) for k in range(1, 4)]
    # else: nothing changed (a run repeated)
    return games


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 8))
def test_ratings_resumed_from_an_earlier_run_equal_ratings_from_scratch(
    seed: int, steps: int
) -> None:
    rng = random.Random(seed)
    games = [outcome(rng, i) for i in range(rng.randrange(0, 30))]
    previous = rate_games_from(games, None)
    next_id = 1000
    for _ in range(steps):
        games = changed(rng, games, next_id)
        next_id += 10
        rng.shuffle(games)  # the order they are read in does not matter
        resumed = rate_games_from(games, previous)
        assert resumed.ratings == rate_games(games)
        assert resumed.outcomes == rate_games_from(games, None).outcomes
        previous = resumed


def test_resuming_leaves_the_earlier_run_as_it_was() -> None:
    rng = random.Random(5)
    games = [outcome(rng, i) for i in range(12)]
    first = rate_games_from(games, None)
    history = {p: list(points) for p, points in first.ratings.history.items()}
    rate_games_from([*games[:6], outcome(rng, 6), *games[7:], outcome(rng, 40)], first)
    assert first.ratings.history == history
    assert first.ratings == rate_games(games)


def rows_of(games: list[GameOutcome], evenings: dict[int, int]) -> list[GameRow]:
    return [
        GameRow(
            game_id=o.game_id,
            evening_id=evenings[o.game_id],
            played_at=o.played_at,
            kind=o.kind,
            result={
                "payouts": dict(o.payouts),
                "declarers": list(o.declarers),
                "active": list(o.active),
                "won": o.won,
                "contract": o.contract,
            },
        )
        for o in games
    ]


@pytest.fixture
def fresh_memo() -> Iterator[None]:
    projections.forget_memo()
    yield
    projections.forget_memo()


@pytest.mark.usefixtures("fresh_memo")
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_season_computed_from_its_memo_equals_one_computed_afresh(seed: int) -> None:
    rng = random.Random(seed)
    key = ("test-season", seed)
    games = [outcome(rng, i) for i in range(rng.randrange(0, 25))]
    evenings = {o.game_id: o.game_id // 8 for o in games}
    rules = StandingsConfig()
    next_id = 1000
    for _ in range(6):
        games = changed(rng, games, next_id)
        next_id += 10
        for o in games:
            evenings.setdefault(o.game_id, rng.choice((0, 1, 2, 50)))
        if rng.random() < 0.2:  # the club changes how its tables rank
            rules = StandingsConfig(rng.choice((0, 3)), rng.choice((("net",), ("wins", "net"))))
        remembered = compute_season(rows=rows_of(games, evenings), rules=rules, memo_key=key)
        afresh = compute_season(rows=rows_of(games, evenings), rules=rules)
        assert remembered == afresh


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_season_figures_summed_from_its_evenings_equal_those_of_all_its_games(
    seed: int,
) -> None:
    # The season's table and head-to-head are sums over its evenings' (kept with
    # each evening); they must be exactly the figures of all the season's games.
    rng = random.Random(seed)
    games = [outcome(rng, i) for i in range(rng.randrange(1, 40))]
    evenings = {o.game_id: rng.randrange(4) for o in games}
    rules = StandingsConfig(rng.choice((0, 2, 5)), rng.choice((("net",), ("wins", "per_game"))))
    computed = compute_season(rows=rows_of(games, evenings), rules=rules)
    assert computed.table == season_table(player_standings(games), rules.min_games, rules.tie_break)
    assert computed.head_to_head == as_cents(head_to_head(games))
    for evening_id, table in computed.evening_tables.items():
        tonight = [o for o in games if evenings[o.game_id] == evening_id]
        assert table == season_table(player_standings(tonight), 0, rules.tie_break)


def test_the_memo_keeps_a_bounded_number_of_seasons(fresh_memo: None) -> None:
    rng = random.Random(1)
    rows = rows_of([outcome(rng, 1)], {1: 1})
    for season in range(projections._MEMO_SEASONS + 10):
        compute_season(rows=rows, rules=StandingsConfig(), memo_key=season)
    assert len(projections._memo) == projections._MEMO_SEASONS
    assert projections._remembered(0) is None  # the least recently used went first
    assert projections._remembered(projections._MEMO_SEASONS + 9) is not None


def test_the_memo_keeps_a_bounded_number_of_games(
    fresh_memo: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(projections, "_MEMO_GAMES", 25)
    rng = random.Random(2)
    big = [outcome(rng, i) for i in range(20)]
    compute_season(
        rows=rows_of(big, {o.game_id: 1 for o in big}), rules=StandingsConfig(), memo_key="a"
    )
    small = [outcome(rng, i) for i in range(100, 110)]
    compute_season(
        rows=rows_of(small, {o.game_id: 2 for o in small}), rules=StandingsConfig(), memo_key="b"
    )
    # 30 games are over the bound: the season projected longest ago goes.
    assert projections._remembered("a") is None
    assert projections._remembered("b") is not None
    # The newest season stays even when it alone is over the bound.
    huge = [outcome(rng, i) for i in range(200, 240)]
    compute_season(
        rows=rows_of(huge, {o.game_id: 3 for o in huge}), rules=StandingsConfig(), memo_key="c"
    )
    assert list(projections._memo) == ["c"]


Capture = Callable[..., Any]


def stored(table: Table) -> dict[str, dict[tuple[Any, ...], int]]:
    """Each stored row's key and id: an id that stays means the row was not rewritten."""
    return {
        "standings": {
            (row.evening_id, row.player_id): row.pk
            for row in StandingRow.objects.filter(season=table.season)
        },
        "ratings": {
            (row.player_id,): row.pk for row in PlayerRating.objects.filter(season=table.season)
        },
    }


@pytest.mark.django_db
def test_a_finishing_game_rewrites_only_the_rows_it_changes(
    fresh_memo: None, django_capture_on_commit_callbacks: Capture
) -> None:
    table = make_table(players=6)
    other = table.new_evening()
    p = table.pk
    with django_capture_on_commit_callbacks(execute=True):
        finish(table.new_game(), {p(0): 40, p(1): -20, p(2): -20}, [p(0)])
        finish(table.new_game(), {p(0): -30, p(1): 10, p(2): 10, p(3): 10}, [p(0)])
        finish(table.new_game(other), {p(3): 20, p(4): -10, p(5): -10}, [p(3)])
    before = stored(table)

    with django_capture_on_commit_callbacks(execute=True):
        finish(table.new_game(other), {p(4): 30, p(5): -30}, [p(4)])
    after = stored(table)

    ids = [player.pk for player in table.players]
    # The first evening and the ratings of those not at the table stay as they were.
    for key in ((table.evening.pk, ids[n]) for n in range(3)):
        assert after["standings"][key] == before["standings"][key]
    for n in (0, 1, 2, 3):
        assert after["ratings"][(ids[n],)] == before["ratings"][(ids[n],)]
    # The two who played are rewritten, in the evening's table, the season's and the ratings.
    for n in (4, 5):
        assert after["standings"][(other.pk, ids[n])] != before["standings"][(other.pk, ids[n])]
        assert after["standings"][(None, ids[n])] != before["standings"][(None, ids[n])]
        assert after["ratings"][(ids[n],)] != before["ratings"][(ids[n],)]
    assert set(after["standings"]) == set(before["standings"])


@pytest.mark.django_db
def test_a_game_taken_back_deletes_the_rows_only_it_made(
    fresh_memo: None, django_capture_on_commit_callbacks: Capture
) -> None:
    table = make_table(players=5)
    later = table.new_evening()
    p = table.pk
    with django_capture_on_commit_callbacks(execute=True):
        finish(table.new_game(), {p(0): 40, p(1): -40}, [p(0)])
        game = finish(table.new_game(later), {p(2): 10, p(3): -10}, [p(2)])
    with django_capture_on_commit_callbacks(execute=True):
        reopen(game)
    a, b = table.players[0].pk, table.players[1].pk
    assert set(stored(table)["standings"]) == {
        (table.evening.pk, a),
        (table.evening.pk, b),
        (None, a),
        (None, b),
    }
    assert set(stored(table)["ratings"]) == {(a,), (b,)}
    # And the memo did not leave anything of the game behind: a forced run agrees.
    services.season_projections_recompute(season_id=table.season.pk, force=True)
    assert set(stored(table)["ratings"]) == {(a,), (b,)}


@pytest.mark.django_db
def test_a_result_changed_without_a_new_event_is_read_again(fresh_memo: None) -> None:
    # The memo knows a game's row by the digest of what is stored, not by its events:
    # a result rewritten in place (say, by a fixed engine) is read again.
    table = make_table(players=4)
    p = table.pk
    game = finish(table.new_game(), {p(0): 40, p(1): -40}, [p(0)])
    finish(table.new_game(), {p(2): 10, p(3): -10}, [p(2)])
    services.season_projections_recompute(season_id=table.season.pk)
    result = dict(game.result, payouts={p(0): -40, p(1): 40}, won=False)
    Game.objects.filter(pk=game.pk).update(result=result)
    ProjectionState.objects.filter(season=table.season).update(version=F("version") + 1)

    services.season_projections_recompute(season_id=table.season.pk)

    nets = {
        row.player_id: row.net
        for row in StandingRow.objects.filter(season=table.season, evening__isnull=True)
    }
    assert nets[table.players[0].pk] == -40 and nets[table.players[1].pk] == 40
    # Every row is known now, with its new digest.
    fingerprints = selectors.season_game_fingerprints(season_id=table.season.pk)
    assert projections.known_rows(table.season.pk, fingerprints)[1] == []


@pytest.mark.django_db
def test_a_game_replaced_by_one_with_the_same_outcome_renames_the_rating_history(
    fresh_memo: None, django_capture_on_commit_callbacks: Capture
) -> None:
    # The ratings end the same, only the game in the history changes: the stored
    # row must still be rewritten (its history's digest differs).
    table = make_table(players=4)
    p = table.pk
    with django_capture_on_commit_callbacks(execute=True):
        first = finish(table.new_game(), {p(0): 40, p(1): -40}, [p(0)])
    with django_capture_on_commit_callbacks(execute=True):
        reopen(first)
        second = finish(table.new_game(), {p(0): 40, p(1): -40}, [p(0)])
    rating = PlayerRating.objects.get(season=table.season, player=table.players[0])
    assert [point[0] for point in rating.history] == [second.pk]
    assert rating.history_digest == projections.history_digest(rating.history)
