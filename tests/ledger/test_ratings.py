"""Ratings: openskill Plackett-Luce over the sides as they played, game by game."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime, timedelta

import pytest
from openskill.models import PlackettLuce

from ledger.ratings import rate_games, rating_teams
from ledger.standings import GameOutcome

SEASON_START = datetime(2026, 9, 1, 19, 0)
DEFAULT = PlackettLuce().rating()


def game(
    game_id: int,
    payouts: Mapping[str, int],
    declarers: tuple[str, ...] = (),
    *,
    active: tuple[str, ...] | None = None,
    won: bool | None = None,
    kind: str = "fuchsen",
) -> GameOutcome:
    return GameOutcome(
        game_id=game_id,
        played_at=SEASON_START + timedelta(minutes=game_id),
        kind=kind,
        payouts=payouts,
        active=active if active is not None else tuple(payouts),
        declarers=declarers,
        won=won,
        contract="schurln" if not declarers else "partner",
    )


def a_season() -> list[GameOutcome]:
    return [
        game(
            1,
            {"anna": 40, "bert": 20, "carl": -20, "dora": -20, "emil": -20},
            ("anna", "bert"),
            won=True,
        ),
        game(2, {"anna": -30, "bert": 10, "carl": 10, "dora": 10}, ("anna",), won=False),
        game(3, {"anna": -10, "bert": -10, "carl": 10, "dora": 10}, kind="koenigrufen"),
        game(
            4,
            {"anna": 0, "bert": 60, "carl": -20, "dora": -20, "emil": -20},
            ("bert",),
            active=("bert", "carl", "dora", "emil"),
            won=True,
        ),
    ]


def test_the_winning_side_gains_mu_and_the_losing_side_loses_it() -> None:
    result = rate_games(
        [game(1, {"anna": 20, "bert": 20, "carl": -20, "dora": -20}, ("anna", "bert"), won=True)]
    )
    assert result.ratings["anna"].mu > DEFAULT.mu
    assert result.ratings["bert"].mu > DEFAULT.mu
    assert result.ratings["carl"].mu < DEFAULT.mu
    assert result.ratings["dora"].mu < DEFAULT.mu
    assert all(r.sigma < DEFAULT.sigma for r in result.ratings.values())


def test_a_lost_solo_lowers_the_declarer_and_raises_every_opponent() -> None:
    result = rate_games(
        [game(1, {"anna": -30, "bert": 10, "carl": 10, "dora": 10}, ("anna",), won=False)]
    )
    assert result.ratings["anna"].mu < DEFAULT.mu
    assert all(result.ratings[p].mu > DEFAULT.mu for p in ("bert", "carl", "dora"))


def test_the_same_games_give_the_same_ratings_in_any_input_order() -> None:
    season = a_season()
    shuffled = season[:]
    random.Random(1).shuffle(shuffled)
    assert rate_games(season) == rate_games(shuffled) == rate_games(season)


def test_a_player_who_sat_out_keeps_his_rating() -> None:
    result = rate_games(a_season())
    anna = result.history["anna"]
    assert [point.game_id for point in anna] == [1, 2, 3]
    assert result.ratings["anna"] == anna[-1][1:]


def test_a_seated_player_who_never_played_is_not_rated() -> None:
    result = rate_games(
        [
            game(
                1,
                {"anna": 20, "bert": 20, "carl": -20, "dora": -20, "emil": 0},
                ("anna", "bert"),
                active=("anna", "bert", "carl", "dora"),
                won=True,
            )
        ]
    )
    assert "emil" not in result.ratings
    assert "emil" not in result.history


def test_the_history_ends_at_the_final_rating_for_everyone() -> None:
    result = rate_games(a_season())
    for player, rating in result.ratings.items():
        last = result.history[player][-1]
        assert (last.mu, last.sigma, last.ordinal) == rating
        assert rating.ordinal == pytest.approx(rating.mu - 3 * rating.sigma)


def test_games_are_rated_in_game_order() -> None:
    season = a_season()
    assert [p.game_id for p in rate_games(reversed(season)).history["bert"]] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("payouts", "declarers", "active", "shape"),
    [
        ({"a": 40, "b": 20, "c": -20, "d": -20, "e": -20}, ("a", "b"), None, (2, 3)),
        ({"a": 20, "b": 20, "c": -20, "d": -20}, ("a", "b"), None, (2, 2)),
        ({"a": 80, "b": -20, "c": -20, "d": -20, "e": -20}, ("a",), None, (1, 4)),
        ({"a": 60, "b": -20, "c": -20, "d": -20, "f": 0}, ("a",), ("a", "b", "c", "d"), (1, 3)),
    ],
)
def test_the_declaring_side_plays_against_every_other_active_player(
    payouts: dict[str, int],
    declarers: tuple[str, ...],
    active: tuple[str, ...] | None,
    shape: tuple[int, int],
) -> None:
    teams, ranks = rating_teams(game(1, payouts, declarers, active=active, won=True))
    assert tuple(len(team) for team in teams) == shape
    assert teams[0] == declarers
    assert ranks == [1.0, 2.0]


def test_schurln_ranks_the_four_players_by_payout_and_ties_share_a_rank() -> None:
    outcome = game(1, {"dora": -30, "carl": 10, "bert": 10, "anna": 10}, kind="koenigrufen")
    teams, ranks = rating_teams(outcome)
    assert teams == [("anna",), ("bert",), ("carl",), ("dora",)]
    assert ranks == [1.0, 1.0, 1.0, 4.0]
    two_losers = game(2, {"anna": 10, "bert": -10, "carl": 10, "dora": -10}, kind="koenigrufen")
    assert rating_teams(two_losers)[1] == [1.0, 3.0, 1.0, 3.0]


def test_in_schurln_the_loser_drops_and_the_tied_winners_move_alike() -> None:
    result = rate_games(
        [game(1, {"anna": 10, "bert": 10, "carl": 10, "dora": -30}, kind="koenigrufen")]
    )
    assert result.ratings["dora"].mu < DEFAULT.mu
    assert result.ratings["anna"] == result.ratings["bert"] == result.ratings["carl"]
    assert result.ratings["anna"].mu > DEFAULT.mu


def test_without_a_result_flag_the_declarers_payout_decides() -> None:
    outcome = game(1, {"anna": -20, "bert": -20, "carl": 20, "dora": 20}, ("anna", "bert"))
    assert rating_teams(outcome)[1] == [2.0, 1.0]


def test_declarers_without_opponents_cannot_be_rated() -> None:
    with pytest.raises(ValueError, match="no opponents"):
        rating_teams(game(1, {"anna": 0, "bert": 0}, ("anna", "bert"), won=True))


def test_the_result_is_json_ready() -> None:
    data = rate_games(a_season()).as_dict()
    assert set(data["ratings"]["anna"]) == {"mu", "sigma", "ordinal"}
    assert data["history"]["anna"][0][0] == 1
