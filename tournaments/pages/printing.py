"""Paper and files: the Aushang, the Spielliste, the ranking for the wall, the CSV."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.vocabulary import money
from tournaments import access, presenters
from tournaments.pages.common import ranking_rows


@login_required
@require_GET
def print_seating(request: HttpRequest, slug: str, tournament_id: int, series: int) -> HttpResponse:
    """Aushang: the tables, seats and start numbers of a series, for the wall."""
    tournament, _role = access.tournament_for(request.user, slug, tournament_id)
    found = access.series_of(tournament, series)
    names = {p["start_number"]: p["name"] for p in presenters.participants_data(tournament)}
    return render(
        request,
        "tournaments/print_seating.html",
        {
            "club": tournament.club,
            "tournament": tournament,
            "series": presenters.series_data(found, names),
            "by_number": sorted(
                (
                    (seat["start_number"], seat["name"], table["number"], seat["seat"])
                    for table in presenters.series_data(found, names)["tables"]
                    for seat in table["seats"]
                ),
            ),
        },
    )


@login_required
@require_GET
def print_sheet(
    request: HttpRequest, slug: str, tournament_id: int, series: int, table: int
) -> HttpResponse:
    """Spielliste: a table's sheet of a series to fill in by hand if a phone dies."""
    tournament, _role = access.tournament_for(request.user, slug, tournament_id)
    found = access.table_of(tournament, series, table)
    sheet = presenters.sheet_data(found)
    return render(
        request,
        "tournaments/print_sheet.html",
        {
            "club": tournament.club,
            "tournament": tournament,
            "sheet": sheet,
            "deals": range(1, tournament.deals_per_series + 1),
        },
    )


@login_required
@require_GET
def print_ranking(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    """The final ranking with the prizes (or the ranking as it stands), for the wall."""
    tournament, _role = access.tournament_for(request.user, slug, tournament_id)
    data = presenters.ranking_data(tournament)
    return render(
        request,
        "tournaments/print_ranking.html",
        {
            "club": tournament.club,
            "tournament": tournament,
            "ranking": data,
            "rows": ranking_rows(tournament, data),
            "pot": money(data["pot"], tournament.club),
        },
    )


@login_required
@require_GET
def ranking_csv_page(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    tournament, _role = access.tournament_for(request.user, slug, tournament_id)
    response = HttpResponse(
        presenters.ranking_csv(tournament), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="turnier-{tournament.pk}.csv"'
    return response
