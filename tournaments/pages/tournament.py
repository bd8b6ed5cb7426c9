"""A tournament's page and the organiser's actions on it: participants, draw, close, links."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs import selectors as club_selectors
from clubs.models import Player, Role, role_at_least
from games.vocabulary import money
from tournaments import access, presenters, services
from tournaments.draw import Leftover, Seeding
from tournaments.models import Tournament
from tournaments.pages.common import ranking_rows, run


@login_required
@require_GET
def tournament_page(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    tournament, role = access.tournament_for(request.user, slug, tournament_id)
    data = presenters.tournament_data(tournament)
    taking_part = {p["player_id"] for p in data["participants"]}
    ranking = presenters.ranking_data(tournament)
    return render(
        request,
        "tournaments/tournament.html",
        {
            "club": tournament.club,
            "tournament": tournament,
            "data": data,
            "organiser": role_at_least(role, Role.ADMIN),
            "others": [
                p
                for p in club_selectors.player_list(club=tournament.club)
                if p.pk not in taking_part
            ],
            "seedings": [(s.value, _seeding_label(s)) for s in Seeding],
            "leftovers": [(s.value, _leftover_label(s)) for s in Leftover],
            "ranking": ranking,
            "rows": ranking_rows(tournament, ranking),
            "links": tournament.links.filter(revoked_at__isnull=True),
            "fee": money(tournament.entry_fee, tournament.club),
            "prizes": _prize_texts(tournament),
        },
    )


def _seeding_label(seeding: Seeding) -> str:
    return {
        Seeding.RANDOM: _("at random"),
        Seeding.BEST_TOGETHER: _("the best together"),
        Seeding.SPREAD: _("the best spread over the tables"),
    }[seeding]


def _leftover_label(leftover: Leftover) -> str:
    return {
        Leftover.BYE: _("a bye (Freilos) for those left over"),
        Leftover.LARGER_TABLES: _("larger tables (Fuchsen: 5 or 6 seated)"),
    }[leftover]


def _prize_texts(tournament: Tournament) -> list[str]:
    texts = []
    for prize in tournament.prizes:
        if "percent" in prize:
            texts.append(_("%(p)d %% of the pot") % {"p": prize["percent"]})
        else:
            texts.append(money(prize["amount"], tournament.club))
    return texts


def _organiser(request: HttpRequest, slug: str, tournament_id: int) -> Tournament:
    tournament, _role = access.tournament_for(request.user, slug, tournament_id, Role.ADMIN)
    return tournament


def _back(tournament: Tournament, anchor: str = "") -> HttpResponse:
    return redirect(reverse("tournament-page", args=[tournament.club.slug, tournament.pk]) + anchor)


@login_required
@require_POST
def participant_join(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    tournament = _organiser(request, slug, tournament_id)
    raw = request.POST.get("player", "")
    player = (
        Player.objects.filter(club=tournament.club, pk=int(raw)).first() if raw.isdigit() else None
    )
    if player is None:
        messages.error(request, _("Choose a player of the club."))
    else:
        run(
            request,
            lambda: services.participant_join(tournament=tournament, player=player),
            _("%(name)s takes part from the next draw on.") % {"name": player.display_name},
        )
    return _back(tournament, "#participants")


@login_required
@require_POST
def participant_leave(
    request: HttpRequest, slug: str, tournament_id: int, number: int
) -> HttpResponse:
    tournament = _organiser(request, slug, tournament_id)
    participant = tournament.participants.filter(start_number=number).first()
    if participant is None:
        raise Http404
    run(
        request,
        lambda: services.participant_leave(tournament=tournament, participant=participant),
        _("Start number %(n)d has left the tournament.") % {"n": number},
    )
    return _back(tournament, "#participants")


@login_required
@require_POST
def series_draw(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    tournament = _organiser(request, slug, tournament_id)
    run(
        request,
        lambda: services.series_draw(
            tournament=tournament,
            seeding=request.POST.get("seeding", Seeding.RANDOM.value),
            leftover=request.POST.get("leftover", Leftover.BYE.value),
            table_size=_table_size(request),
        ),
        _("Drawn: check the tables below, then confirm the draw."),
    )
    return _back(tournament, "#series")


def _table_size(request: HttpRequest) -> int | None:
    raw = request.POST.get("table_size", "")
    return int(raw) if raw in ("4", "5", "6") else None


@login_required
@require_POST
def series_confirm(
    request: HttpRequest, slug: str, tournament_id: int, series: int
) -> HttpResponse:
    tournament = _organiser(request, slug, tournament_id)
    found = access.series_of(tournament, series)
    run(
        request,
        lambda: services.series_confirm(series=found, user=request.user),
        _("Series %(n)d confirmed: the tables may start.") % {"n": series},
    )
    return _back(tournament, "#series")


@login_required
@require_POST
def tournament_close(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    tournament = _organiser(request, slug, tournament_id)
    run(
        request,
        lambda: services.tournament_close(tournament=tournament, user=request.user),
        _("The tournament is closed: the prizes stand and are booked."),
    )
    return _back(tournament, "#ranking")


@login_required
@require_POST
def link_new(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    tournament = _organiser(request, slug, tournament_id)
    services.ranking_link_create(tournament=tournament)
    return _back(tournament, "#links")


@login_required
@require_POST
def link_revoke(request: HttpRequest, slug: str, tournament_id: int, link_id: int) -> HttpResponse:
    tournament = _organiser(request, slug, tournament_id)
    link = tournament.links.filter(pk=link_id).first()
    if link is None:
        raise Http404
    services.ranking_link_revoke(link=link)
    return _back(tournament, "#links")
