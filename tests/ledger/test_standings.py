"""Standings: per-player records and the ranked season table."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from fractions import Fraction

import pytest

from ledger.standings import (
    GameOutcome,
    PlayerStanding,
    StandingsConfig,
    player_standings,
    season_table,
)

SEASON_START = datetime(2026, 9, 1, 19, 0)


def game(
    game_id: int,
    payouts: Mapping[str, int],
    declarers: tuple[str, ...] = (),
    *,
    active: tuple[str, ...] | None = None,
    won: bool | None = None,
) -> GameOutcome:
    return GameOutcome(
        game_id=game_id,
        played_at=SEASON_START + timedelta(minutes=game_id),
        kind="fuchsen",
        payouts=payouts,
        active=active if active is not None else tuple(p for p, a in payouts.items() if a),
        declarers=declarers,
        won=won,
        contract="partner" if len(declarers) > 1 else "alone",
    )


def by_player(outcomes: list[GameOutcome]) -> dict[str, PlayerStanding]:
    return {s.player_id: s for s in player_standings(outcomes)}


def standing(player: str, net: int, games: int, wins: int) -> PlayerStanding:
    return PlayerStanding(player, net=net, games=games, wins=wins)


def test_a_player_wins_a_game_when_his_payout_is_positive() -> None:
    rows = by_player(
        [
            game(
                1, {"anna": 40, "bert": 20, "carl": -20, "dora": -20, "emil": -20}, ("anna", "bert")
            ),
            game(2, {"anna": -30, "bert": 10, "carl": 10, "dora": 10}),
        ]
    )
    assert (rows["anna"].games, rows["anna"].wins, rows["anna"].net) == (2, 1, 10)
    assert (rows["bert"].games, rows["bert"].wins, rows["bert"].net) == (2, 2, 30)
    assert (rows["emil"].games, rows["emil"].wins, rows["emil"].net) == (1, 0, -20)
    assert rows["anna"].win_pct == 50.0


def test_it_counts_games_and_wins_as_macher_and_games_as_partner() -> None:
    rows = by_player(
        [
            game(1, {"anna": 20, "bert": 20, "carl": -20, "dora": -20}, ("anna", "bert"), won=True),
            game(
                2, {"anna": -20, "bert": -20, "carl": 20, "dora": 20}, ("anna", "bert"), won=False
            ),
            game(3, {"anna": -30, "bert": 10, "carl": 10, "dora": 10}, ("bert", "anna"), won=True),
        ]
    )
    assert (rows["anna"].macher_games, rows["anna"].macher_wins, rows["anna"].partner_games) == (
        2,
        1,
        1,
    )
    assert (rows["bert"].macher_games, rows["bert"].macher_wins, rows["bert"].partner_games) == (
        1,
        1,
        2,
    )
    assert (rows["carl"].macher_games, rows["carl"].partner_games) == (0, 0)


def test_a_player_who_sat_out_has_not_played_that_game() -> None:
    outcome = game(
        1,
        {"anna": 20, "bert": 20, "carl": -20, "dora": -20, "emil": 0},
        ("anna", "bert"),
        active=("anna", "bert", "carl", "dora"),
    )
    rows = by_player([outcome])
    assert (rows["emil"].games, rows["emil"].net, rows["emil"].win_pct) == (0, 0, 0.0)


def test_the_nets_of_all_players_sum_to_zero() -> None:
    rows = player_standings(
        [
            game(
                1, {"anna": 40, "bert": 20, "carl": -20, "dora": -20, "emil": -20}, ("anna", "bert")
            ),
            game(2, {"anna": -30, "bert": 10, "carl": 10, "dora": 10}),
            game(3, {"carl": 90, "bert": -30, "dora": -30, "emil": -30}, ("carl",)),
        ]
    )
    assert sum(row.net for row in rows) == 0
    assert [row.player_id for row in rows] == ["anna", "bert", "carl", "dora", "emil"]


def test_the_average_per_game_is_exact_for_ranking_and_rounded_for_display() -> None:
    row = PlayerStanding("anna", net=10, games=3, wins=1)
    assert row.per_game_exact == Fraction(10, 3)
    assert row.per_game == 3.33
    assert row.as_dict()["per_game"] == 3.33
    assert PlayerStanding("bert").per_game == 0.0


def test_full_ties_share_a_rank_and_the_next_rank_skips() -> None:
    table = season_table(
        [
            standing("dora", net=-50, games=5, wins=1),
            standing("carl", net=20, games=4, wins=2),
            standing("bert", net=20, games=4, wins=2),
            standing("anna", net=60, games=5, wins=3),
        ]
    )
    assert [(row.rank, row.standing.player_id) for row in table] == [
        (1, "anna"),
        (2, "bert"),
        (2, "carl"),
        (4, "dora"),
    ]


def test_equal_nets_are_broken_by_the_average_per_game_then_by_wins() -> None:
    table = season_table(
        [
            standing("anna", net=30, games=6, wins=4),
            standing("bert", net=30, games=3, wins=1),
            standing("carl", net=30, games=6, wins=5),
        ]
    )
    assert [(row.rank, row.standing.player_id) for row in table] == [
        (1, "bert"),
        (2, "carl"),
        (3, "anna"),
    ]


def test_a_club_may_rank_by_wins_first() -> None:
    rows = [
        standing("anna", net=90, games=6, wins=2),
        standing("bert", net=-10, games=6, wins=4),
        standing("carl", net=-80, games=6, wins=4),
    ]
    table = season_table(rows, tie_break=("wins", "net"))
    assert [(row.rank, row.standing.player_id) for row in table] == [
        (1, "bert"),
        (2, "carl"),
        (3, "anna"),
    ]


def test_keys_left_out_of_the_tie_break_do_not_separate_players() -> None:
    rows = [standing("anna", net=30, games=6, wins=4), standing("bert", net=30, games=3, wins=1)]
    assert [row.rank for row in season_table(rows, tie_break=("net",))] == [1, 1]


def test_players_under_the_minimum_of_games_follow_unranked() -> None:
    rows = [
        standing("anna", net=500, games=2, wins=2),
        standing("bert", net=10, games=10, wins=5),
        standing("carl", net=-300, games=12, wins=3),
        standing("dora", net=-210, games=1, wins=0),
    ]
    table = season_table(rows, min_games=10)
    assert [(row.rank, row.standing.player_id) for row in table] == [
        (1, "bert"),
        (2, "carl"),
        (None, "anna"),
        (None, "dora"),
    ]
    assert table[2].as_dict()["rank"] is None


@pytest.mark.parametrize(
    ("min_games", "tie_break", "message"),
    [
        (-1, ("net",), "min_games"),
        (0, (), "at least one key"),
        (0, ("net", "points"), "unknown tie-break key 'points'"),
        (0, ("net", "wins", "net"), "twice"),
    ],
)
def test_the_config_rejects_what_it_cannot_rank_by(
    min_games: int, tie_break: tuple[str, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        season_table([], min_games=min_games, tie_break=tie_break)


def test_the_config_defaults_to_net_then_average_then_wins_for_everyone() -> None:
    config = StandingsConfig()
    assert (config.min_games, config.tie_break) == (0, ("net", "per_game", "wins"))


def test_an_outcome_rejects_payouts_that_do_not_sum_to_zero() -> None:
    with pytest.raises(ValueError, match="sum to zero"):
        game(1, {"anna": 20, "bert": -10})


def test_an_outcome_rejects_a_declarer_who_did_not_play() -> None:
    with pytest.raises(ValueError, match="declarer"):
        game(1, {"anna": 20, "bert": -20}, ("carl",))


def test_an_outcome_rejects_money_for_a_player_who_sat_out() -> None:
    with pytest.raises(ValueError, match="did not play"):
        game(1, {"anna": 20, "bert": -10, "carl": -10}, active=("anna", "bert"))


def test_an_outcome_cannot_be_changed_through_the_callers_dict() -> None:
    payouts = {"anna": 20, "bert": -20}
    outcome = game(1, payouts)
    payouts["anna"] = 99
    assert outcome.payout("anna") == 20


def test_the_same_game_passed_twice_is_refused() -> None:
    outcome = game(1, {"anna": 20, "bert": -20})
    with pytest.raises(ValueError, match="twice"):
        player_standings([outcome, outcome])
