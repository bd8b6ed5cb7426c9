"""The tournaments' pages (German first, phone-friendly): the list and the set-up, a
tournament's page (participants, the draw and its confirmation, the tables, the
close), a table's sheet, the live ranking (members, and behind a link for a screen
in the room), the print pages (Aushang, Spielliste, final ranking) and the CSV.

Writes go through ``tournaments.services``; a refusal comes back on the page in
plain words, with nothing written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs import selectors as club_selectors
from clubs.models import Club, GameKind, Player, Role, role_at_least
from clubs.permissions import membership_for
from games.vocabulary import money, signed_money
from tournaments import access, presenters, selectors, services, stream
from tournaments.draw import Leftover, Seeding
from tournaments.models import Tournament


def _refused(request: HttpRequest, error: Exception) -> None:
    if isinstance(error, ValidationError):
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.error(request, str(error))


def _back(tournament: Tournament, anchor: str = "") -> HttpResponse:
    return redirect(reverse("tournament-page", args=[tournament.club.slug, tournament.pk]) + anchor)


def _run(request: HttpRequest, action: Callable[[], Any], done: str) -> bool:
    """Run a service; its refusal becomes a message on the page. True when it ran."""
    try:
        action()
    except (ValidationError, services.TournamentConflict) as error:
        _refused(request, error)
        return False
    messages.success(request, done)
    return True


def _ranking_rows(tournament: Tournament, data: dict[str, Any]) -> list[dict[str, Any]]:
    club = tournament.club
    prizes = {row["start_number"]: row["prize"] for row in (data["final"] or {}).get("rows", [])}
    return [
        {
            **row,
            "points": signed_money(row["total"], club),
            "cells": [signed_money(row["by_series"].get(str(n), 0), club) for n in data["series"]],
            "prize": money(prizes[row["start_number"]], club)
            if prizes.get(row["start_number"])
            else "",
        }
        for row in data["rows"]
    ]


# --- List and set-up ------------------------------------------------------------------------


def _parse_prizes(text: str) -> list[dict[str, int]]:
    """``50%, 30%, 500`` → ``[{"percent": 50}, {"percent": 30}, {"amount": 500}]``."""
    prizes: list[dict[str, int]] = []
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        percent = part.endswith("%")
        digits = part.rstrip("%").strip()
        if not (digits.isascii() and digits.isdigit()):
            raise ValidationError(
                {"prizes": _("Write each prize as an amount (500) or a share (50%%).")}
            )
        prizes.append({"percent" if percent else "amount": int(digits)})
    return prizes


def _int(request: HttpRequest, name: str, default: int | None = None) -> int:
    raw = request.POST.get(name, "").strip()
    if not raw and default is not None:
        return default
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9:
        raise ValidationError({name: _("Enter a whole number.")})
    return int(raw)


@login_required
def tournament_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's tournaments; for organisers the form to set one up."""
    membership = membership_for(request.user, slug)
    club = membership.club
    organiser = role_at_least(membership.role, Role.ADMIN)
    if request.method == "POST":
        if not organiser:
            raise PermissionDenied
        tournament = _create(request, club)
        if tournament is not None:
            return redirect("tournament-page", slug=club.slug, tournament_id=tournament.pk)
    return render(
        request,
        "tournaments/list.html",
        {
            "club": club,
            "tournaments": selectors.tournament_list(club_id=club.pk),
            "organiser": organiser,
            "players": club_selectors.player_list(club=club),
            "games": GameKind.choices,
            "form": request.POST if request.method == "POST" else {},
        },
        status=422 if request.method == "POST" else 200,
    )


def _create(request: HttpRequest, club: Club) -> Tournament | None:
    try:
        cashier_id = request.POST.get("cashier", "")
        cashier = (
            Player.objects.filter(club=club, pk=int(cashier_id)).first()
            if cashier_id.isdigit()
            else None
        )
        players = [int(pid) for pid in request.POST.getlist("players") if pid.isdigit()]
        return services.tournament_create(
            club=club,
            user=request.user,
            name=request.POST.get("name", ""),
            game_kind=request.POST.get("game_kind", ""),
            series_count=_int(request, "series_count"),
            deals_per_series=_int(request, "deals_per_series"),
            entry_fee=_int(request, "entry_fee", 0),
            prizes=_parse_prizes(request.POST.get("prizes", "")),
            cashier=cashier,
            seed=request.POST.get("seed", "").strip(),
            players=players,
        )
    except ValidationError as error:
        _refused(request, error)
        return None


# --- A tournament's page and its actions -----------------------------------------------------


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
            "rows": _ranking_rows(tournament, ranking),
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
        _run(
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
    _run(
        request,
        lambda: services.participant_leave(tournament=tournament, participant=participant),
        _("Start number %(n)d has left the tournament.") % {"n": number},
    )
    return _back(tournament, "#participants")


@login_required
@require_POST
def series_draw(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    tournament = _organiser(request, slug, tournament_id)
    _run(
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
    _run(
        request,
        lambda: services.series_confirm(series=found, user=request.user),
        _("Series %(n)d confirmed: the tables may start.") % {"n": series},
    )
    return _back(tournament, "#series")


@login_required
@require_POST
def tournament_close(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    tournament = _organiser(request, slug, tournament_id)
    _run(
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


# --- A table's sheet ---------------------------------------------------------------------------


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
        _run(
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


# --- The live ranking ------------------------------------------------------------------------


def _ranking_context(tournament: Tournament, state_url: str, stream_url: str) -> dict[str, Any]:
    data = presenters.ranking_data(tournament)
    return {
        "club": tournament.club,
        "tournament": tournament,
        "ranking": data,
        "rows": _ranking_rows(tournament, data),
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


# --- Paper and files ------------------------------------------------------------------------


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
            "rows": _ranking_rows(tournament, data),
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
