"""The live ranking: for members, and behind a link for a screen in the room."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from clubs.models import Club
from tournaments import access, presenters, selectors, stream
from tournaments.models import Tournament
from tournaments.pages.common import ranking_rows


def _ranking_context(tournament: Tournament, state_url: str, stream_url: str) -> dict[str, Any]:
    data = presenters.ranking_data(tournament)
    return {
        "club": tournament.club,
        "tournament": tournament,
        "ranking": data,
        "rows": ranking_rows(tournament, data),
        "ranking_config": {
            "state": state_url,
            "stream": stream_url,
            "unit": "pt" if tournament.club.currency_unit == Club.CurrencyUnit.POINTS else "ct",
        },
    }


@login_required
@require_GET
def ranking_page(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    tournament, _role = access.tournament_for(request.user, slug, tournament_id)
    base = reverse("tournament-page", args=[slug, tournament_id])
    return render(
        request,
        "tournaments/ranking.html",
        _ranking_context(tournament, base + "ranking/state/", base + "ranking/events/"),
    )


@login_required
@require_GET
def ranking_state(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    tournament, _role = access.tournament_for(request.user, slug, tournament_id)
    return HttpResponse(stream.state_json(tournament.pk), content_type="application/json")


@require_GET
async def ranking_events(
    request: HttpRequest, slug: str, tournament_id: int
) -> StreamingHttpResponse:
    user = await request.auser()
    if not user.is_authenticated:
        raise Http404
    return await stream.stream_response(
        request, lambda: access.tournament_for(user, slug, tournament_id)[0]
    )


def _link_tournament(key: str) -> Tournament:
    tournament = selectors.link_tournament(key=key)
    if tournament is None:
        raise Http404
    return tournament


@require_GET
def link_page(request: HttpRequest, key: str) -> HttpResponse:
    """The live ranking for a screen in the room: anyone holding the link, no login."""
    tournament = _link_tournament(key)
    base = reverse("tournament-link-page", args=[key])
    response = render(
        request,
        "tournaments/ranking.html",
        {**_ranking_context(tournament, base + "state/", base + "events/"), "screen": True},
    )
    response["Referrer-Policy"] = "no-referrer"
    return response


@require_GET
def link_state(request: HttpRequest, key: str) -> HttpResponse:
    tournament = _link_tournament(key)
    return HttpResponse(stream.state_json(tournament.pk), content_type="application/json")


@require_GET
async def link_events(request: HttpRequest, key: str) -> StreamingHttpResponse:
    return await stream.stream_response(request, lambda: _link_tournament(key))
