"""Chart series: running nets and head-to-head balances."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from ledger.series import as_cents, cumulative_net, head_to_head
from ledger.standings import GameOutcome, player_standings

SEASON_START = datetime(2026, 9, 1, 19, 0)
PLAYERS = ("anna", "bert", "carl", "dora", "emil", "fritz")


def game(
    game_id: int,
    payouts: Mapping[str, int],
    declarers: tuple[str, ...] = (),
    *,
    active: tuple[str, ...] | None = None,
) -> GameOutcome:
    return GameOutcome(
        game_id=game_id,
        played_at=SEASON_START + timedelta(minutes=game_id),
        kind="fuchsen",
        payouts=payouts,
        active=active if active is not None else tuple(payouts),
        declarers=declarers,
        won=None,
        contract="",
    )


@st.composite
def seasons(draw: st.DrawFn) -> list[GameOutcome]:
    """Up to 12 games of 4 or 5 of six players with any zero-sum payouts."""
    outcomes = []
    for game_id in range(draw(st.integers(0, 12))):
        active = draw(st.lists(st.sampled_from(PLAYERS), min_size=4, max_size=5, unique=True))
        amounts = [draw(st.integers(-200, 200)) for _ in active[1:]]
        payouts = dict(zip(active, [-sum(amounts), *amounts], strict=True))
        declarers = tuple(active[: draw(st.integers(0, 2))])
        outcomes.append(game(game_id, payouts, declarers))
    return draw(st.permutations(outcomes))


def test_the_running_net_adds_each_games_payouts_in_game_order() -> None:
    series = cumulative_net(
        [
            game(2, {"anna": -30, "bert": 10, "carl": 10, "dora": 10}),
            game(1, {"anna": 20, "bert": 20, "carl": -20, "dora": -20}, ("anna", "bert")),
            game(3, {"carl": 60, "bert": -20, "dora": -20, "emil": -20}, ("carl",)),
        ]
    )
    assert series.game_ids == [1, 2, 3]
    assert series.values == {
        "anna": [20, -10, -10],
        "bert": [20, 30, 10],
        "carl": [-20, -10, 50],
        "dora": [-20, -10, -30],
        "emil": [0, 0, -20],
    }


def test_a_player_who_sat_out_keeps_his_running_net() -> None:
    series = cumulative_net(
        [
            game(1, {"anna": 20, "bert": -20}),
            game(2, {"anna": 0, "bert": 10, "carl": -10}, active=("bert", "carl")),
        ]
    )
    assert series.values["anna"] == [20, 20]


@given(seasons())
def test_every_point_of_the_running_nets_sums_to_zero_and_ends_at_the_net(
    outcomes: list[GameOutcome],
) -> None:
    series = cumulative_net(outcomes)
    for i in range(len(series.game_ids)):
        assert sum(values[i] for values in series.values.values()) == 0
    for row in player_standings(outcomes):
        assert series.values[row.player_id][-1] == row.net


@given(seasons())
def test_head_to_head_is_antisymmetric(outcomes: list[GameOutcome]) -> None:
    h2h = head_to_head(outcomes)
    for a, row in h2h.items():
        assert a not in row
        for b, amount in row.items():
            assert h2h[b][a] == -amount
    cents = as_cents(h2h)
    for a, rounded in cents.items():
        for b, value in rounded.items():
            assert cents[b][a] == -value


@given(seasons())
def test_each_players_head_to_head_sums_to_his_net(outcomes: list[GameOutcome]) -> None:
    h2h = head_to_head(outcomes)
    for row in player_standings(outcomes):
        assert sum(h2h.get(row.player_id, {}).values(), Fraction(0)) == row.net


def test_a_solo_winner_takes_exactly_the_value_from_each_opponent() -> None:
    h2h = head_to_head([game(1, {"anna": 60, "bert": -20, "carl": -20, "dora": -20}, ("anna",))])
    assert h2h["anna"] == {"bert": 20, "carl": 20, "dora": 20}
    assert h2h["bert"] == {"anna": -20, "carl": 0, "dora": 0}


def test_partners_settle_nothing_between_them_and_split_the_losers() -> None:
    h2h = head_to_head(
        [
            game(
                1,
                {"anna": 40, "bert": 20, "carl": -20, "dora": -20, "emil": -20},
                ("anna", "bert"),
            )
        ]
    )
    assert h2h["anna"]["bert"] == 0
    assert h2h["anna"]["carl"] == Fraction(40, 3)
    assert h2h["bert"]["carl"] == Fraction(20, 3)
    assert as_cents(h2h)["anna"]["carl"] == 13.33


def test_players_who_never_met_have_no_head_to_head() -> None:
    h2h = head_to_head([game(1, {"anna": 20, "bert": -20}), game(2, {"carl": 5, "dora": -5})])
    assert "carl" not in h2h["anna"]


def test_head_to_head_adds_up_over_games() -> None:
    h2h = head_to_head([game(1, {"anna": 20, "bert": -20}), game(2, {"anna": -5, "bert": 5})])
    assert h2h["anna"]["bert"] == 15
    assert h2h["bert"]["anna"] == -15
