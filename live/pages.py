"""The history and change-log pages (members read), and later the live table's pages."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from clubs import selectors as club_selectors
from clubs.models import Club
from games.models import Game
from games.pages import money
from live import access, selectors


def event_labels() -> dict[str, str]:
    return {
        "deal": _("Deal"),
        "call": _("Call"),
        "bid": _("Bid"),
        "pass": _("Pass"),
        "join": _("Joins"),
        "play": _("Card played"),
        "raise": _("Raise"),
        "end_raising": _("First trick collected"),
        "show": _("Cards shown"),
        "tally": _("Result entered"),
        "forfeit": _("Forfeit"),
        "annul": _("Annulled"),
        "undo": _("Undo"),
    }


def log_labels() -> dict[str, str]:
    return {
        "game_started": _("Game started"),
        "game_annulled": _("Game annulled"),
        "game_reopened": _("Game taken back into play"),
        "evening_closed": _("Evening closed"),
        "evening_reopened": _("Evening opened again"),
        "payment_booked": _("Payment booked"),
        "payment_reversed": _("Payment reversed"),
        "settlement_paid": _("Settlement transfer marked paid"),
    }


def _names(club: Club) -> dict[str, str]:
    return {str(p.pk): p.display_name for p in club_selectors.player_list(club=club)}


def event_text(payload: dict[str, Any], names: dict[str, str]) -> str:
    """The event's fields in a line: players by name, cards by code."""
    parts = []
    for key in ("player", "dealer", "card", "cards", "level", "contract", "won", "reason"):
        if key not in payload:
            continue
        value = payload[key]
        if key in ("player", "dealer"):
            value = names.get(str(value), str(value))
        elif isinstance(value, list):
            value = " ".join(str(v) for v in value)
        parts.append(str(value))
    return " · ".join(parts)


@login_required
def game_history(request: HttpRequest, game_id: int) -> HttpResponse:
    game = access.game_for(request.user, game_id)
    club = game.evening.club
    game = Game.objects.select_related("created_by", "evening", "evening__club").get(pk=game.pk)
    history = selectors.game_history(game=game)
    names = _names(club)
    labels = event_labels()
    rows = [
        {
            "e": event,
            "label": labels.get(event.type, event.type),
            "text": event_text(event.payload, names),
        }
        for event in history.events
    ]
    return render(
        request,
        "live/game_history.html",
        {"club": club, "game": game, "evening": game.evening, "history": history, "rows": rows},
    )


@login_required
def evening_log(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = access.evening_for(request.user, evening_id)
    labels = log_labels()
    rows = [
        {
            "e": entry,
            "label": labels[entry.kind],
            "amount": money(entry.amount, evening.club) if entry.amount is not None else "",
        }
        for entry in selectors.evening_log(evening=evening)
    ]
    return render(
        request,
        "live/evening_log.html",
        {"club": evening.club, "evening": evening, "rows": rows},
    )
