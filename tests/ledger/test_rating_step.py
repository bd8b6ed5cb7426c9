"""The rating step gives exactly openskill's ``PlackettLuce.rate``, float for float."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from ledger.ratings import RatingStep

PLAYERS = [str(p) for p in range(1, 9)]


@st.composite
def games(draw: st.DrawFn) -> tuple[list[tuple[str, ...]], list[float]]:
    """A game as ``rating_teams`` gives it: two sides ranked 1/2, 2/1 or drawn, or
    every player alone, ranked in competition style."""
    players = draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=5, unique=True))
    if draw(st.booleans()):
        cut = draw(st.integers(1, len(players) - 1))
        ranks = draw(st.sampled_from([[1.0, 2.0], [2.0, 1.0], [1.0, 1.0]]))
        return [tuple(players[:cut]), tuple(players[cut:])], ranks
    payouts = draw(st.lists(st.integers(-3, 3), min_size=len(players), max_size=len(players)))
    ranks = [1.0 + sum(other > mine for other in payouts) for mine in payouts]
    return [(p,) for p in players], ranks


def by_rate(
    model: PlackettLuce,
    teams: list[tuple[str, ...]],
    ranks: list[float],
    current: dict[str, tuple[float, float]],
) -> list[list[tuple[float, float, float]]]:
    before = [
        [model.rating(*current[p]) if p in current else model.rating() for p in team]
        for team in teams
    ]
    after = model.rate(before, ranks=ranks)
    return [[(r.mu, r.sigma, r.ordinal()) for r in team] for team in after]


@settings(max_examples=200, deadline=None)
@given(st.lists(games(), min_size=1, max_size=40))
def test_a_run_of_games_rates_exactly_as_openskill_rate(
    season: list[tuple[list[tuple[str, ...]], list[float]]],
) -> None:
    model = PlackettLuce()
    step = RatingStep(model)
    theirs: dict[str, tuple[float, float]] = {}
    ours: dict[str, tuple[float, float]] = {}
    for teams, ranks in season:
        expected = by_rate(model, teams, ranks, theirs)
        got = step(teams, ranks, ours)
        assert got == expected
        for team, rated in zip(teams, got, strict=True):
            for player, (mu, sigma, _ordinal) in zip(team, rated, strict=True):
                ours[player] = theirs[player] = (mu, sigma)


def test_a_model_that_limits_sigma_is_rated_by_rate_itself() -> None:
    model = PlackettLuce(limit_sigma=True)
    teams, ranks = [("1", "2"), ("3", "4", "5")], [2.0, 1.0]
    current = {"1": (30.0, 2.0), "3": (20.0, 7.0)}
    assert RatingStep(model)(teams, ranks, current) == by_rate(model, teams, ranks, current)
