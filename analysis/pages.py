"""The page "Analyse" of a game: members read it, non-members get a 404."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from analysis import presenters, selectors
from games.access import game_for, player_names


@login_required
def game_analysis_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's analysis: the value after every card, where it was lost, best cards."""
    game, _membership = game_for(request, game_id)
    club = game.evening.club
    analysis = selectors.game_analysis(game=game)
    context = presenters.analysis_context(game, analysis, player_names(club), club.card_face)
    return render(
        request,
        "analysis/analysis.html",
        {"club": club, "game": game, "evening": game.evening, **context},
    )
