"""The pages that show several apps at once: the home page (clubs and their open
evenings), the club's book (evenings, games and the season tables) and the evening
(its games and its money), with the forms posted on the evening page.

``web`` sits above every app (``docs/DESIGN.md``): it may import them all, none of
them imports it. A page that shows one app's things stays in that app.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import selectors as club_selectors
from clubs.forms import form_messages
from clubs.models import Membership, Role, Season, role_at_least
from clubs.permissions import membership_for
from games import selectors, services
from games.access import evening_for, player_names
from games.errors import GamesError
from games.forms import SeatAddForm
from games.game_values import silent_games
from games.models import Evening, Game
from games.pages.refusals import report_refusal
from games.presenters import (
    game_summary,
)
from games.tally_pages import evening_form
from games.vocabulary import (
    signed_money,
)
from ledger import selectors as ledger_selectors
from ledger.pages import book_payment
from ledger.presenters import evening_ledger


def home(request: HttpRequest) -> HttpResponse:
    """My clubs, each with its book, its table and the evenings open now."""
    if not request.user.is_authenticated:
        return render(request, "clubs/home.html", {"clubs": []})
    clubs = list(club_selectors.club_list_for_user(user=request.user))
    evenings = selectors.open_evenings_of(clubs=clubs)
    return render(
        request,
        "clubs/home.html",
        {
            "clubs": [(club, evenings[club.pk]) for club in clubs],
            # The next step where it can be taken: "Neuer Spielabend".
            "can_open": club_selectors.clubs_to_open_an_evening_in(user=request.user),
        },
    )


# --- Club book -----------------------------------------------------------------------------------


@login_required
def club_book(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's score book: open evenings, the current tables, the latest games."""
    membership = membership_for(request.user, slug)
    club = membership.club
    names = player_names(club)
    evenings = list(selectors.evening_list(club=club)[:20])
    open_evenings = [e for e in evenings if e.is_open]
    recent = list(
        Game.objects.filter(evening__club=club)
        .exclude(status=Game.Status.IN_PROGRESS)
        .select_related("evening")
        .order_by("-finished_at", "-id")[:8]
    )
    silent = silent_games(recent)
    tables = []
    # The game the club played last first (an untouched open season after it).
    open_seasons = club_selectors.season_list(club=club).filter(status=Season.Status.OPEN)
    for season in ledger_selectors.seasons_by_last_play(open_seasons):
        rows = [
            {"row": row, "net": signed_money(row.net, club)}
            for row in ledger_selectors.standing_list(season=season)[:10]
        ]
        tables.append({"season": season, "rows": rows})
    context = {
        "club": club,
        "membership": membership,
        "can_record": role_at_least(membership.role, Role.SCORER),
        "open_evenings": open_evenings,
        "past_evenings": [e for e in evenings if not e.is_open][:8],
        "tables": tables,
        "recent": [game_summary(g, names, club, silent=g.pk in silent) for g in recent],
        "seasons": club_selectors.season_list(club=club),
    }
    return render(request, "games/club_book.html", context)


# --- Evening -------------------------------------------------------------------------------------


@login_required
def evening_page(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The evening: the table, the games and their results, balances, settlement."""
    evening, membership = evening_for(request, evening_id)
    return evening_page_render(request, evening, membership)


def evening_page_render(
    request: HttpRequest,
    evening: Evening,
    membership: Membership,
    *,
    refused: str = "",
    status: int = 200,
) -> HttpResponse:
    """The evening page; ``refused`` names the form ("payment", "seats") whose post was
    refused: it is drawn open with the posted values and its messages, answered
    ``status``."""
    club = evening.club
    names = player_names(club)
    seats = selectors.evening_seats(evening=evening)
    games = list(selectors.evening_games(evening=evening))
    silent = silent_games(games)
    proposal = selectors.next_deal(evening=evening) if evening.is_open else None
    ledger = evening_ledger(evening)
    in_progress = [g for g in games if g.status == Game.Status.IN_PROGRESS]
    # The house rules a new game starts with (selectors.evening_house_rules' choice).
    profile = evening.rule_profile or evening.season.rule_profile
    # Who may be named in a payment typed here: everyone who sat at the evening.
    history = selectors.evening_seats(evening=evening, active_only=False)
    payers = {seat.player.pk: seat.player for seat in history}
    can_record = role_at_least(membership.role, Role.SCORER)
    tally = None
    if can_record and evening.is_open and proposal is not None and proposal.event is not None:
        tally = evening_form(request, evening)
    context = {
        "club": club,
        "evening": evening,
        "tally": tally,
        "tally_action": reverse("evening-tally", args=[evening.pk]),
        "payers": sorted(payers.values(), key=lambda p: p.display_name.lower()),
        "rule_profile": profile if profile and profile.game_kind == evening.game_kind else None,
        "membership": membership,
        "can_record": role_at_least(membership.role, Role.SCORER),
        "can_reopen": role_at_least(membership.role, Role.ADMIN) and evening.season.is_open,
        # Nothing recorded yet (games, money, a plan): a scorer may take it back.
        "can_delete": role_at_least(membership.role, Role.SCORER)
        and not games
        and not ledger["balances"]
        and ledger["plan"] is None,
        "seats": seats,
        "proposal": proposal,
        "games": [game_summary(g, names, club, silent=g.pk in silent) for g in reversed(games)],
        "in_progress": in_progress,
        **ledger,
        "records_api": reverse("evening-records", args=[evening.pk]),
        "benched": [
            p
            for p in club_selectors.player_list(club=club, active=True)
            if p.pk not in {seat.player_id for seat in seats}
        ],
        "refused": refused,
        "posted": request.POST if refused else {},
        # The page's own address, also when a refused post draws it.
        "page_url": reverse("evening-page", args=[evening.pk]),
    }
    return render(request, "games/evening.html", context, status=status)


@login_required
@require_POST
def seat_add(request: HttpRequest, evening_id: int) -> HttpResponse:
    """A player sits down between games, at the chosen place (the others move on)."""
    evening, membership = evening_for(request, evening_id, Role.SCORER)
    form = SeatAddForm(request.POST)
    player = (
        club_selectors.player_list(club=evening.club).filter(pk=form.cleaned_data["player"]).first()
        if form.is_valid()
        else None
    )
    if not form.is_valid():
        form_messages(request, form, extra_tags="at-seats")
    elif player is None:
        messages.error(request, _("Choose a player."), extra_tags="at-seats")
    else:
        try:
            services.evening_seat_add(
                evening=evening, player=player, position=form.cleaned_data["position"]
            )
        except (ValidationError, GamesError) as error:
            report_refusal(request, error, at="at-seats")
        else:
            return redirect(reverse("evening-page", args=[evening.pk]) + "#seats")
    return evening_page_render(request, evening, membership, refused="seats", status=422)


@login_required
@require_POST
def evening_payment_new(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Book money one player handed another at the table, for this evening."""
    evening, membership = evening_for(request, evening_id, Role.SCORER)
    if book_payment(request, evening.club, evening=evening, at="at-payment"):
        return redirect(reverse("evening-page", args=[evening.pk]) + "#payment")
    # Refused: the form comes back open, filled and with the reason next to it.
    return evening_page_render(request, evening, membership, refused="payment", status=422)
