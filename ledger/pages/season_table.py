"""A season's table with its charts and settlement, the current season, the all-time table."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from clubs import selectors as club_selectors
from clubs.models import Club, GameKind, Membership, Role, Season, role_at_least
from clubs.permissions import membership_for
from games.vocabulary import money, signed_money
from ledger import selectors, services
from ledger.models import SettlementTransfer
from ledger.pages.charts import PALETTE, line_chart
from ledger.presenters import payment_rows, settlement_text


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
