"""Every season already projected is projected again once, so that its ``PlayerGame``
rows get the new columns (the reason, Stilles Spiel, raises per chance): the season
is marked behind with a change of the whole season, which the next projection run
(or the beat's repair) takes as a rebuild, replaying each game's events once for
its facts."""

from __future__ import annotations

from typing import Any

from django.db import migrations
from django.db.models import F


def mark_seasons_behind(apps: Any, schema_editor: Any) -> None:
    ProjectionState = apps.get_model("ledger", "ProjectionState")
    ProjectionChange = apps.get_model("ledger", "ProjectionChange")
    PlayerGame = apps.get_model("ledger", "PlayerGame")
    seasons = set(PlayerGame.objects.values_list("season_id", flat=True).distinct())
    if not seasons:
        return
    ProjectionState.objects.filter(season_id__in=seasons).update(version=F("version") + 1)
    ProjectionChange.objects.bulk_create(
        [ProjectionChange(season_id=season_id, game_id=None) for season_id in sorted(seasons)]
    )


class Migration(migrations.Migration):
    dependencies = [("ledger", "0007_game_facts")]

    operations = [migrations.RunPython(mark_seasons_behind, migrations.RunPython.noop)]
