"""The club's tournaments and the form that sets one up."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubs import selectors as club_selectors
from clubs.models import Club, GameKind, Player, Role, role_at_least
from clubs.permissions import membership_for
from tournaments import selectors, services
from tournaments.models import Tournament
from tournaments.pages.common import refused


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
        refused(request, error)
        return None
