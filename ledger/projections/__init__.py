"""From games' stored results to the rows of the projections — no database access.

Two ways to the same rows, and the tests hold them equal:

- **The rebuild** (:func:`compute_season`): every finished game of the season, read
  by ``ledger.selectors.season_game_rows``, through the pure functions (standings,
  tables, ratings, head-to-head) from nothing.
- **Per game** (``ledger.services.season_projections_recompute``): each finished game
  has one ``PlayerGame`` row per player holding its contribution (payout and role:
  the standings' sums; the running net: the chart's point) and the rating after it.
  A game added after the others costs one rating step (:func:`fold_games`) and the
  sums of its rows (:func:`standing_contribution`, :func:`numerators_of_rows`); a
  game changed out of order folds the games from it on again.

One module per step: ``outcomes`` (a stored game as the standings read it),
``player_games`` (the per-game rows and the rating fold), ``head_to_head`` (its
numerators, summed and stored), ``rebuild`` (a season from nothing).
"""

from ledger.projections.head_to_head import (
    head_to_head_exact,
    head_to_head_of,
    merge_numerators,
    numerators_as_json,
    numerators_from_json,
    numerators_of_rows,
)
from ledger.projections.outcomes import (
    RATING_FIELDS,
    GameKey,
    GameRow,
    game_key,
    outcome_from_result,
    outcome_from_rows,
    ratable_outcome,
    rating_outcome_from_rows,
    readable_outcome,
    role_of,
)
from ledger.projections.player_games import (
    PLAYER_GAME_FIELDS,
    STANDING_FIGURES,
    PlayerState,
    fold_games,
    fold_ratings,
    fresh_state,
    standing_contribution,
)
from ledger.projections.rebuild import (
    SeasonProjections,
    compute_season,
    rating_values,
    standing_row_values,
    standing_values,
)

__all__ = [
    "PLAYER_GAME_FIELDS",
    "RATING_FIELDS",
    "STANDING_FIGURES",
    "GameKey",
    "GameRow",
    "PlayerState",
    "SeasonProjections",
    "compute_season",
    "fold_games",
    "fold_ratings",
    "fresh_state",
    "game_key",
    "head_to_head_exact",
    "head_to_head_of",
    "merge_numerators",
    "numerators_as_json",
    "numerators_from_json",
    "numerators_of_rows",
    "outcome_from_result",
    "outcome_from_rows",
    "ratable_outcome",
    "rating_outcome_from_rows",
    "rating_values",
    "readable_outcome",
    "role_of",
    "standing_contribution",
    "standing_row_values",
    "standing_values",
]
