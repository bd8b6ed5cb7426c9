"""What the tournaments' pages share: a service's refusal as a message, the ranking's rows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from games.vocabulary import money, signed_money
from tournaments import services
from tournaments.models import Tournament


def refused(request: HttpRequest, error: Exception) -> None:
    """A service's refusal as error messages on the page (one per ``ValidationError`` message)."""
    if isinstance(error, ValidationError):
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.error(request, str(error))


def run(request: HttpRequest, action: Callable[[], Any], done: str) -> bool:
    """Run a service; its refusal becomes a message on the page. True when it ran."""
    try:
        action()
    except (ValidationError, services.TournamentConflict) as error:
        refused(request, error)
        return False
    messages.success(request, done)
    return True


def ranking_rows(tournament: Tournament, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The ranking's rows (``presenters.ranking_data``) with points and prizes as money."""
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
