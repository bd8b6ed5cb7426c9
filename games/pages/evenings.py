"""The evenings' pages: the club's evenings a page at a time, opening one with its
seats, closing, reopening and deleting it, a player getting up between games, and
importing a file of records into it."""

from __future__ import annotations

import json
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs import selectors as club_selectors
from clubs.forms import form_messages, id_param
from clubs.models import Role, Season
from clubs.permissions import membership_for
from games import selectors, services
from games.access import evening_for
from games.checks import check_import_records
from games.errors import GamesError
from games.forms import EveningNewForm
from games.models import Evening
from games.pages.refusals import report_refusal

# Evenings on one page of the club's list: a season of weekly evenings fits on one.
EVENINGS_PER_PAGE = 30


@login_required
def evening_archive(request: HttpRequest, slug: str) -> HttpResponse:
    """Every evening of the club, the latest first, a page at a time; ``?season=``
    narrows it to one of the club's seasons (another id: 404)."""
    membership = membership_for(request.user, slug)
    club = membership.club
    seasons = club_selectors.season_list(club=club)
    season: Season | None = None
    chosen = request.GET.get("season", "")
    if chosen:
        wanted = id_param(chosen)
        season = seasons.filter(pk=wanted).first() if wanted else None
        if season is None:
            raise Http404
    paginator = Paginator(selectors.evening_archive(club=club, season=season), EVENINGS_PER_PAGE)
    # ``get_page``: a page number that is no number gives the first page, one past
    # the end the last.
    page = paginator.get_page(request.GET.get("page"))
    return render(
        request,
        "games/evening_archive.html",
        {"club": club, "seasons": seasons, "season": season, "page": page},
    )


@login_required
@require_http_methods(["GET", "POST"])
def evening_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Open an evening: the season and who sits where, clockwise."""
    membership = membership_for(request.user, slug, Role.SCORER)
    club = membership.club
    seasons = list(club_selectors.season_list(club=club).filter(status=Season.Status.OPEN))
    players = list(club_selectors.player_list(club=club, active=True))
    chosen: list[str] = [""] * 6
    # The club's last evening: its season is the one chosen first (if still open), and
    # its table is offered again ("dieselben Plätze wie beim letzten Mal").
    last = selectors.evening_list(club=club).first()
    season_chosen = ""
    last_seats: list[str] = []
    place = ""
    if last is not None:
        if any(s.pk == last.season_id for s in seasons):
            season_chosen = str(last.season_id)
        playing = {str(p.pk) for p in players}
        last_seats = [
            str(seat.player_id)
            for seat in selectors.evening_seats(evening=last)
            if str(seat.player_id) in playing
        ][:6]
        if request.GET.get("seats") == "last":
            chosen = last_seats + [""] * (6 - len(last_seats))
            place = last.place
    if request.method == "POST":
        season_chosen = request.POST.get("season", "")
        place = request.POST.get("place", "")
        chosen = [request.POST.get(f"seat{i}", "") for i in range(1, 7)]
        form = EveningNewForm(request.POST)
        valid = form.is_valid()
        ids = form.seat_ids() if valid else []
        season = next((s for s in seasons if str(s.pk) == form.cleaned_data.get("season")), None)
        if not valid:
            form_messages(request, form)
        elif season is None:
            messages.error(request, _("Choose an open season."))
        elif len(set(ids)) != len(ids):
            messages.error(request, _("A player cannot sit at two places."))
        else:
            try:
                evening = services.evening_create(
                    club=club,
                    user=request.user,
                    season=season,
                    players=ids,
                    place=form.cleaned_data["place"],
                )
            except (ValidationError, GamesError) as error:
                report_refusal(request, error)
            else:
                return redirect("evening-page", evening_id=evening.pk)
    return render(
        request,
        "games/evening_new.html",
        {
            "club": club,
            "seasons": seasons,
            "season_chosen": season_chosen,
            "place": place,
            "players": players,
            "seats": [(i, chosen[i - 1]) for i in range(1, 7)],
            "last": last if len(last_seats) >= 4 else None,
            "last_names": ", ".join(
                next(p.display_name for p in players if str(p.pk) == pid) for pid in last_seats
            ),
        },
    )


def _evening_done(
    request: HttpRequest,
    evening_id: int,
    role: str,
    act: Callable[[Evening], object],
    done: str,
    then: Callable[[Evening], HttpResponse] | None = None,
) -> HttpResponse:
    """Do ``act`` to the evening (for members with ``role``) and say ``done``, or why
    it was refused; then ``then`` (by default back to the evening's page; a refusal
    always goes back there)."""
    evening, _membership = evening_for(request, evening_id, role)
    try:
        act(evening)
    except (ValidationError, GamesError) as error:
        report_refusal(request, error)
        return redirect("evening-page", evening_id=evening.pk)
    messages.success(request, done)
    if then is not None:
        return then(evening)
    return redirect("evening-page", evening_id=evening.pk)


@login_required
@require_POST
def evening_close(request: HttpRequest, evening_id: int) -> HttpResponse:
    return _evening_done(
        request,
        evening_id,
        Role.SCORER,
        lambda evening: services.evening_close(evening=evening, user=request.user),
        _("The evening is closed."),
    )


@login_required
@require_POST
def evening_reopen(request: HttpRequest, evening_id: int) -> HttpResponse:
    """An admin opens a closed evening again (a game to type in afterwards)."""
    return _evening_done(
        request,
        evening_id,
        Role.ADMIN,
        lambda evening: services.evening_reopen(evening=evening, user=request.user),
        _("The evening is open again: games can be recorded."),
    )


@login_required
@require_POST
def evening_delete(request: HttpRequest, evening_id: int) -> HttpResponse:
    """A scorer deletes an evening opened by mistake (nothing recorded in it yet)."""
    return _evening_done(
        request,
        evening_id,
        Role.SCORER,
        lambda evening: services.evening_delete(evening=evening),
        _("The evening is deleted."),
        then=lambda evening: redirect("club-book", slug=evening.club.slug),
    )


@login_required
@require_POST
def seat_leave(request: HttpRequest, evening_id: int, player_id: int) -> HttpResponse:
    """A player gets up between games; his seat stays in the evening's history."""
    evening, _membership = evening_for(request, evening_id, Role.SCORER)
    player = club_selectors.player_list(club=evening.club).filter(pk=player_id).first()
    if player is None:
        raise Http404
    try:
        services.evening_seat_remove(evening=evening, player=player)
    except (ValidationError, GamesError) as error:
        report_refusal(request, error, at="at-seats")
    return redirect(reverse("evening-page", args=[evening.pk]) + "#seats")


@login_required
@require_POST
def evening_import(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Upload a JSON file of records (one, a list, or an evening's export) into the evening."""
    evening, _membership = evening_for(request, evening_id, Role.SCORER)
    # Its outcome stands beside the import form (at-records), whatever it is.
    at = "at-records"
    back = redirect(reverse("evening-page", args=[evening.pk]) + "#records")
    upload = request.FILES.get("records")
    if upload is None or (upload.size or 0) > 2_000_000:
        messages.error(request, _("Choose a JSON file of at most 2 MB."), extra_tags=at)
        return back
    try:
        body = json.loads(upload.read().decode("utf-8"))
    except RecursionError:
        messages.error(request, _("The JSON is nested too deeply."), extra_tags=at)
        return back
    except ValueError:  # not UTF-8, or not JSON
        messages.error(request, _("This file is not JSON."), extra_tags=at)
        return back
    records = (
        body
        if isinstance(body, list)
        else body.get("records", [body])
        if isinstance(body, dict)
        else []
    )
    if not isinstance(records, list):
        records = [records]
    try:
        # The API's checks, before anything is stored or shown: nesting, valid
        # Unicode (a lone surrogate cannot even be written into the page that
        # reports it), NUL characters, size.
        check_import_records(records)
        outcomes = services.games_import(evening=evening, user=request.user, records=records)
    except (ValidationError, GamesError) as error:
        report_refusal(request, error, at=at)
        return back
    imported = sum(1 for o in outcomes if o.imported)
    messages.success(
        request,
        _("%(n)d of %(total)d records imported.") % {"n": imported, "total": len(outcomes)},
        extra_tags=at,
    )
    for outcome in outcomes:
        if not outcome.imported:
            messages.error(
                request,
                _("Record %(i)d rejected: %(why)s")
                % {"i": outcome.index + 1, "why": outcome.detail or outcome.reason},
                extra_tags=at,
            )
    return back
