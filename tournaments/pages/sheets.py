"""A table's sheet and its confirmations."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubs.models import Role, role_at_least
from games.vocabulary import signed_money
from tournaments import access, presenters, services
from tournaments.pages.common import run


@login_required
def sheet_page(
    request: HttpRequest, slug: str, tournament_id: int, series: int, table: int
) -> HttpResponse:
    """The table's sheet: deals played and to play, each seat's total, the confirmations
    ("Liste abgeschlossen" when all agreed); a participant confirms his own line."""
    tournament, role = access.tournament_for(request.user, slug, tournament_id)
    found = access.table_of(tournament, series, table)
    if request.method == "POST":
        number = request.POST.get("start_number", "")
        participant = (
            tournament.participants.select_related("player")
            .filter(start_number=int(number))
            .first()
            if number.isdigit() and len(number) < 6
            else None
        )
        if participant is None:
            raise Http404
        access.may_confirm(request.user, role, participant)
        run(
            request,
            lambda: services.sheet_confirm(table=found, participant=participant, user=request.user),
            _("Start number %(n)d agrees to the sheet.") % {"n": participant.start_number},
        )
        return redirect(request.path)
    sheet = presenters.sheet_data(found)
    own = set(
        tournament.participants.filter(player__user_id=request.user.pk or 0).values_list(
            "start_number", flat=True
        )
    )
    organiser = role_at_least(role, Role.ADMIN)
    for seat in sheet["seats"]:
        seat["total_text"] = signed_money(seat["total"], tournament.club)
        seat["may_confirm"] = not seat["confirmed"] and (organiser or seat["start_number"] in own)
    games = []
    if found.evening_id is not None:
        games = list(found.evening.games.order_by("number")) if found.evening else []
    return render(
        request,
        "tournaments/sheet.html",
        {
            "club": tournament.club,
            "tournament": tournament,
            "table": found,
            "sheet": sheet,
            "games": games,
        },
    )
