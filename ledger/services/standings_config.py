"""A club's ranking rules for its standings."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from clubs.models import Club
from ledger.models import (
    ProjectionChange,
    ProjectionState,
    StandingsConfig,
)
from ledger.services.projection_requests import projection_request, projection_version_bump
from ledger.standings import StandingsConfig as StandingsRules

# --- Standings configuration ------------------------------------------------------------------


@transaction.atomic
def standings_config_update(
    *, club: Club, min_games: int | None = None, tie_break: list[str] | None = None
) -> StandingsConfig:
    """Change how the club ranks its tables; every season's projections follow.

    Raises ``ValidationError`` naming the field for a negative minimum or a
    tie-break order that is empty, repeats a key or names an unknown one.
    """
    config, _created = StandingsConfig.objects.select_for_update().get_or_create(club=club)
    if min_games is not None:
        config.min_games = min_games
    if tie_break is not None:
        config.tie_break = list(tie_break)
    try:
        StandingsRules(int(config.min_games), tuple(config.tie_break))
    except (ValueError, TypeError) as error:
        field = "min_games" if "min_games" in str(error) else "tie_break"
        raise ValidationError({field: str(error)}) from None
    config.save()
    # In season order: two writers locking several state rows never wait on each other in a ring.
    for season_id in (
        ProjectionState.objects.filter(season__club=club)
        .order_by("season_id")
        .values_list("season_id", flat=True)
    ):
        projection_version_bump(season_id=season_id)
        ProjectionChange.objects.create(season_id=season_id, game_id=None)
        projection_request(season_id=season_id)
    return config
