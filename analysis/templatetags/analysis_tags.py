"""Includes of the analysis on other apps' pages, so that neither ``games`` nor ``ledger``
imports this app: ``{% evening_turning_points evening %}`` ("Wendepunkte des Abends")
on the evening page and ``{% player_analysis player season %}`` on the player's page."""

from __future__ import annotations

from typing import Any

from django import template

from analysis import presenters, selectors
from clubs.models import Player, Season
from games.access import player_names
from games.models import Evening

register = template.Library()


@register.inclusion_tag("analysis/_evening_turning_points.html")
def evening_turning_points(evening: Evening) -> dict[str, Any]:
    club = evening.club
    analyses = selectors.evening_analyses(evening=evening)
    rows = (
        presenters.evening_turning_points(analyses, player_names(club), club.card_face)
        if analyses
        else []
    )
    return {"rows": rows}


@register.inclusion_tag("analysis/_player_figures.html")
def player_analysis(player: Player, season: Season) -> dict[str, Any]:
    figures = selectors.player_figures(player=player, season=season)
    return {"figures": presenters.player_figures_view(figures, season.game_kind)}
