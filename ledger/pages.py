"""The web pages of the ledger: a season's table with its charts, and a player's page.

Thin views over ``ledger.selectors``: the numbers are the stored projections
(recomputed on commit by the ledger's tasks). Charts are inline SVG drawn here,
on the server: no chart library travels to the phone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import selectors as club_selectors
from clubs.forms import id_param
from clubs.models import Club, GameKind, Membership, Role, Season, role_at_least
from clubs.permissions import membership_for
from games.access import evening_for
from games.models import Evening, Game
from games.presenters import game_summary
from games.vocabulary import contract_names, money, signed_money
from ledger import selectors, services
from ledger.forms import PaymentForm
from ledger.models import SettlementTransfer
from ledger.presenters import payment_rows, settlement_text

# Distinct at a glance, also for the common colour blindnesses (Okabe–Ito, then darker).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B")


def line_chart(
    series: Mapping[str, Sequence[float]],
    *,
    labels: Mapping[str, str],
    colors: Mapping[str, str] | None = None,
    width: int = 360,
    height: int = 190,
) -> dict[str, Any] | None:
    """Polylines for an inline SVG: one line per key, x = index, y scaled to fit.

    Returns None when there is nothing to draw (no series, or fewer than two points).
    """
    lengths = [len(values) for values in series.values() if values]
    if not lengths or max(lengths) < 2:
        return None
    left, right, top, bottom = 34, 8, 10, 20
    low = min(min(v) for v in series.values() if v)
    high = max(max(v) for v in series.values() if v)
    marks = round_ticks(low, high)
    low, high = marks[0], marks[-1]
    n = max(lengths)
    plot_w, plot_h = width - left - right, height - top - bottom

    # Coordinates are strings: a float in a template would be localised ("116,7" in German).
    def x(i: int) -> str:
        return f"{left + plot_w * i / (n - 1):.1f}"

    def y(v: float) -> str:
        return f"{top + plot_h * (high - v) / (high - low):.1f}"

    lines = []
    for i, (key, values) in enumerate(series.items()):
        if not values:
            continue
        points = " ".join(f"{x(j)},{y(v)}" for j, v in enumerate(values))
        lines.append(
            {
                "key": key,
                "label": labels.get(key, key),
                "color": (colors or {}).get(key) or PALETTE[i % len(PALETTE)],
                "points": points,
                "last": values[-1],
                "end_x": x(len(values) - 1),
                "end_y": y(values[-1]),
            }
        )
    ticks = [{"y": y(v), "label": _format_tick(v)} for v in marks]
    return {
        "width": width,
        "height": height,
        "lines": lines,
        "ticks": ticks,
        "zero": y(0),
        "left": str(left),
        "label_x": str(left - 4),
        "right": str(width - right),
        "bottom": str(height - bottom),
        "caption_y": str(height - 4),
        "n": n,
    }


def round_ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round axis marks from at most ``low`` to at least ``high``, 0 among them.

    The step is 1, 2 or 5 times a power of ten, at least 0.1 (the charts show cents
    and ratings to a tenth), the smallest that needs at most ``most`` marks; the
    first and last mark bound the axis.
    """
    low, high = min(low, 0.0), max(high, 0.0)
    if high == low:
        high = low + 1
    span = high - low
    raw = span / (most - 1)
    power = 10.0 ** math.floor(math.log10(raw)) if raw > 0.1 else 0.1
    for factor in (1, 2, 5, 10, 20):
        step = factor * power
        first, last = math.floor(low / step), math.ceil(high / step)
        if last - first + 1 <= most:
            break
    # Whole steps times the step: 0 is a mark, and no float drift (0.30000000000000004).
    return [round(k * step, 10) for k in range(first, last + 1)]


def _format_tick(v: float) -> str:
    """A tick label the local way (7,6 in German)."""
    whole = abs(v) >= 10 or float(v).is_integer()
    return str(number_format(v, decimal_pos=0 if whole else 1))


def _season_for(club: Club, season_id: int | None) -> Season:
    if season_id is not None:
        try:
            return club_selectors.season_get(club=club, season_id=season_id)
        except ObjectDoesNotExist:
            raise Http404 from None
    season = selectors.season_current(club=club)
    if season is None:
        raise Http404
    return season


@login_required
def season_current(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's current season table (``selectors.season_current``)."""
    club = membership_for(request.user, slug).club
    season = _season_for(club, None)
    return redirect("standings-page", slug=club.slug, season_id=season.pk)


@login_required
def season_standings(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """The season table, the running net and rating charts, head-to-head, and who
    pays whom to clear the season."""
    membership = membership_for(request.user, slug)
    club = membership.club
    season = _season_for(club, season_id)
    names = {str(p.pk): p.display_name for p in club_selectors.player_list(club=club)}
    rows = list(selectors.standing_list(season=season))
    ratings = {r.player_id: r for r in selectors.rating_list(season=season)}
    table = [
        {
            "row": row,
            "net": money(row.net, club),
            "per_game": money(round(row.per_game, 1), club),
            "win_pct": round(row.win_pct),
            "rating": round(ratings[row.player_id].ordinal, 1)
            if row.player_id in ratings
            else None,
        }
        for row in rows
    ]
    # One colour per player in both charts, in table order.
    colors = {str(row.player_id): PALETTE[i % len(PALETTE)] for i, row in enumerate(rows)}
    series = selectors.season_series_get(season=season)
    net_values = (series.cumulative or {}).get("values", {}) if series else {}
    in_order = [key for key in colors if key in net_values] + [
        key for key in net_values if key not in colors
    ]
    cumulative = line_chart({key: net_values[key] for key in in_order}, labels=names, colors=colors)
    histories = {
        str(r.player_id): [
            point[3]
            for point in (selectors.rating_get(season=season, player_id=r.player_id).history or [])
        ]
        for r in ratings.values()
    }
    rating_history = {key: histories[key] for key in colors if key in histories}
    rating_chart = line_chart(rating_history, labels=names, colors=colors)
    h2h = (series.head_to_head or {}) if series else {}
    order = [str(row.player_id) for row in rows if str(row.player_id) in h2h]
    matrix = [
        {
            "name": names.get(a, a),
            "cells": [{"value": h2h.get(a, {}).get(b), "self": a == b} for b in order],
        }
        for a in order
    ]
    state = selectors.projection_state_get(season=season)
    return render(
        request,
        "ledger/standings.html",
        {
            "club": club,
            "season": season,
            **_season_settlement(club, season, membership),
            "seasons": club_selectors.season_list(club=club),
            "table": table,
            "cumulative": cumulative,
            "rating_chart": rating_chart,
            "h2h_heads": [names.get(b, b)[:3] for b in order],
            "h2h_names": [names.get(b, b) for b in order],
            "matrix": matrix,
            "behind": state is not None and state.is_behind,
            "unit": money(0, club).replace("0", "").strip(),
        },
    )


@login_required
def all_time_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's all-time table ("ewige Tabelle") of one game, every season summed;
    ``?game=`` picks the game (by default the club's first; an unknown one: 404)."""
    membership = membership_for(request.user, slug)
    club = membership.club
    games = selectors.all_time_games(club=club)
    game = request.GET.get("game") or (games[0] if games else GameKind.FUCHSEN)
    if game not in GameKind.values:
        raise Http404
    rows = selectors.all_time_table(club=club, game_kind=game)
    table = [
        {
            **row,
            "net_text": signed_money(row["net"], club),
            "per_game_text": money(round(row["per_game"], 1), club),
            "win_pct": round(row["win_pct"]),
        }
        for row in rows
    ]
    return render(
        request,
        "ledger/all_time.html",
        {
            "club": club,
            "game": game,
            "game_label": GameKind(game).label,
            "games": [(kind, GameKind(kind).label) for kind in games],
            "table": table,
        },
    )


@login_required
def player_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """One player's season: his numbers, his running net and rating, whom he beats."""
    membership = membership_for(request.user, slug)
    club = membership.club
    try:
        player = club_selectors.player_get(club=club, player_id=player_id)
    except ObjectDoesNotExist:
        raise Http404 from None
    season_param = request.GET.get("season", "")
    wanted = id_param(season_param)
    if season_param and wanted is None:
        raise Http404  # no season's id (as an unknown id is)
    season = _season_for(club, wanted)
    key = str(player.pk)
    names = {str(p.pk): p.display_name for p in club_selectors.player_list(club=club)}
    standing = selectors.standing_list(season=season).filter(player=player).first()
    rating = None
    try:
        rating = selectors.rating_get(season=season, player_id=player.pk)
    except ObjectDoesNotExist:
        rating = None
    series = selectors.season_series_get(season=season)
    mine = ((series.cumulative or {}).get("values", {}).get(key) if series else None) or []
    net_chart = line_chart({key: mine}, labels=names) if mine else None
    rating_chart = (
        line_chart({key: [p[3] for p in rating.history]}, labels=names)
        if rating is not None and rating.history
        else None
    )
    h2h_row = ((series.head_to_head or {}).get(key, {}) if series else {}) or {}
    opponents = sorted(
        (
            {"name": names.get(b, b), "value": v, "text": money(round(v), club)}
            for b, v in h2h_row.items()
        ),
        key=lambda r: -r["value"],
    )
    games = list(
        Game.objects.filter(evening__season=season, status=Game.Status.FINISHED)
        .select_related("evening")
        .order_by("-finished_at", "-id")[:200]
    )
    recent = [
        {**game_summary(g, names, club), "mine": (g.result.get("payouts") or {}).get(key)}
        for g in games
        if key in (g.result.get("payouts") or {})
    ][:15]
    for row in recent:
        row["mine_text"] = money(row["mine"], club) if row["mine"] is not None else ""
    return render(
        request,
        "ledger/player.html",
        {
            "club": club,
            "can_rename": role_at_least(membership.role, Role.ADMIN),
            "season": season,
            "seasons": club_selectors.season_list(club=club),
            "player": player,
            "standing": standing,
            "net": money(standing.net, club) if standing else money(0, club),
            "per_game": money(round(standing.per_game, 1), club) if standing else "",
            "win_pct": round(standing.win_pct) if standing else None,
            "rating": rating,
            "net_chart": net_chart,
            "rating_chart": rating_chart,
            "opponents": opponents,
            "recent": recent,
            "statistics": [
                _statistics_view(
                    _("This season"),
                    selectors.player_statistics(player_id=player.pk, season=season),
                    club,
                ),
                _statistics_view(
                    _("All seasons of this game"),
                    selectors.player_statistics(
                        player_id=player.pk, club=club, game_kind=season.game_kind
                    ),
                    club,
                ),
            ],
        },
    )


def _statistics_view(title: str, figures: dict[str, Any], club: Club) -> dict[str, Any]:
    """The lines of one statistics table (``ledger.statistics``) as the page shows them."""
    if "roles" in figures:
        roles = figures["roles"]
        named = [
            (_("As Macher"), roles["macher"]),
            (_("As Hilfer"), roles["hilfer"]),
            (_("As opponent"), roles["opponent"]),
            (_("Alone (Herausspielen)"), figures["alone"]),
        ]
    else:
        names = contract_names()
        named = [
            (names.get(contract, contract), {**line, "wins": line["won"]})
            for contract, line in figures["contracts"].items()
        ]
    return {
        "title": title,
        "games": figures["games"],
        "lines": [
            {
                "label": label,
                "games": line["games"],
                "wins": line["wins"],
                "net": line["net"],
                "net_text": signed_money(line["net"], club),
            }
            for label, line in named
        ],
        "average_value": figures["average_value"],
        "schurln_lost": figures.get("schurln_lost"),
        "facts": _fuchsen_facts_lines(figures, club) if "raises" in figures else [],
    }


def _fuchsen_facts_lines(figures: dict[str, Any], club: Club) -> list[str]:
    """Stilles Spiel, the forgotten Fuchs and the raises per chance, one sentence each."""
    silent = figures["silent_game"]
    forgotten = figures["forgotten_fuchs"]
    raises = figures["raises"]
    per_cent = (
        number_format(raises["per_cent"], decimal_pos=0) if raises["per_cent"] is not None else "–"
    )
    return [
        _("Stilles Spiel: %(for)d for him, %(against)d against him, of %(games)d games played out.")
        % silent,
        _(
            "Forgotten Fuchs: he forgot it %(n)d× (%(net)s), his Hilfer %(n2)d× (%(net2)s), "
            "a Hilfer of the other side %(n3)d× (%(net3)s)."
        )
        % {
            "n": forgotten["forgot"]["games"],
            "net": signed_money(forgotten["forgot"]["net"], club),
            "n2": forgotten["partner_forgot"]["games"],
            "net2": signed_money(forgotten["partner_forgot"]["net"], club),
            "n3": forgotten["opponent_forgot"]["games"],
            "net3": signed_money(forgotten["opponent_forgot"]["net"], club),
        },
        _(
            "Raises said: %(said)d of %(chances)d chances (%(per_cent)s %%), "
            "from %(counted)d of %(games)d games."
        )
        % {
            "said": raises["said"],
            "chances": raises["chances"],
            "per_cent": per_cent,
            "counted": raises["games"],
            "games": figures["games"],
        },
    ]


# --- Payments -----------------------------------------------------------------------------

# What one payment typed on a page may book: ten thousand euros in cents (or as many
# points) is beyond any card table, so more is a slip of the finger.
MAX_PAYMENT = 1_000_000


def book_payment(
    request: HttpRequest,
    club: Club,
    *,
    evening: Evening | None = None,
    season: Season | None = None,
    at: str = "at-payment",
) -> bool:
    """Book the payment the posted form names (``payer``, ``payee``, ``amount``) for the
    evening or the season; the outcome, or why it was refused, becomes a message and
    nothing is written on a refusal. True if it was booked. The messages carry ``at``
    (the form's "at-<form>" tag): they are shown next to the payment form."""
    players = {p.pk: p for p in club_selectors.player_list(club=club)}
    form = PaymentForm(request.POST)
    form.is_valid()
    payer = players.get(form.cleaned_data.get("payer") or 0)
    payee = players.get(form.cleaned_data.get("payee") or 0)
    amount = form.cleaned_data.get("amount")
    if payer is None or payee is None:
        messages.error(request, _("Choose who paid and who received the money."), extra_tags=at)
        return False
    if amount is None or not 0 < amount <= MAX_PAYMENT:
        messages.error(
            request,
            _("The amount must be a whole number from 1 to %(max)s.")
            % {"max": number_format(MAX_PAYMENT, force_grouping=True)},
            extra_tags=at,
        )
        return False
    try:
        services.payment_record(
            club=club,
            payer=payer,
            payee=payee,
            amount=amount,
            recorded_by=request.user,
            evening=evening,
            season=season,
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message, extra_tags=at)
        return False
    messages.success(
        request,
        _("Payment booked: %(payer)s paid %(payee)s %(amount)s.")
        % {
            "payer": payer.display_name,
            "payee": payee.display_name,
            "amount": money(amount, club),
        },
        extra_tags=at,
    )
    return True


@login_required
@require_POST
def season_payment_new(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """Book a payment for the season as a whole (settling up after the last evening)."""
    club = membership_for(request.user, slug, Role.SCORER).club
    season = _season_for(club, season_id)
    book_payment(request, club, season=season)
    return redirect(reverse("standings-page", args=[club.slug, season.pk]) + "#payment")


# --- Payments ----------------------------------------------------------------------------


@login_required
@require_POST
def payment_reverse(request: HttpRequest, slug: str, payment_id: int) -> HttpResponse:
    """Reverse a payment booked by mistake (a reversal of the same amount back), then
    back to the evening or season it was booked for."""
    club = membership_for(request.user, slug, Role.SCORER).club
    payment = get_object_or_404(selectors.payment_list(club=club), pk=payment_id)
    try:
        services.payment_reverse(payment=payment, recorded_by=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(
            request,
            _("Payment reversed: %(payer)s paid %(payee)s %(amount)s, which counts no more.")
            % {
                "payer": payment.payer.display_name,
                "payee": payment.payee.display_name,
                "amount": money(payment.amount, club),
            },
        )
    if payment.evening_id is not None:
        return redirect(reverse("evening-page", args=[payment.evening_id]) + "#payments")
    if payment.season_id is not None:
        return redirect(
            reverse("standings-page", args=[club.slug, payment.season_id]) + "#payments"
        )
    return redirect("club-book", slug=club.slug)


# --- An evening's settlement and payments -------------------------------------------------


@login_required
@require_POST
def evening_settle(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Make a settlement plan from the evening's open balances."""
    evening, _membership = evening_for(request, evening_id, Role.SCORER)
    try:
        services.settlement_plan_create(club=evening.club, created_by=request.user, evening=evening)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message, extra_tags="at-settlement")
    return redirect(reverse("evening-page", args=[evening.pk]) + "#settlement")


@login_required
@require_POST
def evening_transfer_paid(request: HttpRequest, evening_id: int, transfer_id: int) -> HttpResponse:
    """Mark one transfer of the evening's plan as paid (idempotent: a double tap books once)."""
    evening, _membership = evening_for(request, evening_id, Role.SCORER)
    transfer = (
        SettlementTransfer.objects.filter(
            pk=transfer_id, plan__evening=evening, plan__club=evening.club
        )
        .select_related("plan")
        .first()
    )
    if transfer is None:
        raise Http404
    services.settlement_transfer_mark_paid(transfer=transfer, paid_by=request.user)
    return redirect(reverse("evening-page", args=[evening.pk]) + "#settlement")


# --- The season's settlement ---------------------------------------------------------------


def _season_settlement(club: Club, season: Season, membership: Membership) -> dict[str, Any]:
    """What ``ledger/_settlement.html`` needs for the season: its open balances, its
    latest plan (one made for the whole season, not an evening's) and its transfers."""
    balances = list(selectors.balance_list(club=club, season=season))
    plan = next(
        (
            p
            for p in selectors.settlement_plan_list(club=club)
            if p.season_id == season.pk and p.evening_id is None
        ),
        None,
    )
    transfers = [
        {
            "t": t,
            "amount": money(t.amount, club),
            "paid_url": reverse("season-transfer-paid", args=[club.slug, season.pk, t.pk]),
        }
        for t in (plan.transfers.all() if plan is not None else [])
    ]
    return {
        "season_balances": [
            {**row, "balance_text": signed_money(row["balance"], club)} for row in balances
        ],
        "payments": payment_rows(club, season=season),
        "share_text": settlement_text(
            heading=f"{club.name} · {season.name}",
            balances=balances,
            transfers=transfers,
            club=club,
        ),
        "plan": plan,
        "transfers": transfers,
        "unbalanced": any(row["balance"] for row in balances),
        "can_record": role_at_least(membership.role, Role.SCORER),
        "settle_url": reverse("season-settle", args=[club.slug, season.pk]),
        "payment_url": reverse("season-payment-new-page", args=[club.slug, season.pk]),
        "payers": sorted(
            (p for p in club_selectors.player_list(club=club) if p.is_active),
            key=lambda p: p.display_name.lower(),
        ),
    }


@login_required
@require_POST
def season_settle(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """Plan the fewest transfers that clear the whole season's open balances."""
    club = membership_for(request.user, slug, Role.SCORER).club
    season = _season_for(club, season_id)
    try:
        services.settlement_plan_create(club=club, created_by=request.user, season=season)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    return redirect(reverse("standings-page", args=[club.slug, season.pk]) + "#settlement")


@login_required
@require_POST
def season_transfer_paid(
    request: HttpRequest, slug: str, season_id: int, transfer_id: int
) -> HttpResponse:
    """Mark one transfer of the season's plan paid (a double tap books once)."""
    club = membership_for(request.user, slug, Role.SCORER).club
    season = _season_for(club, season_id)
    transfer = get_object_or_404(
        SettlementTransfer.objects.select_related("plan"),
        pk=transfer_id,
        plan__club=club,
        plan__season=season,
        plan__evening__isnull=True,
    )
    services.settlement_transfer_mark_paid(transfer=transfer, paid_by=request.user)
    return redirect(reverse("standings-page", args=[club.slug, season.pk]) + "#settlement")
