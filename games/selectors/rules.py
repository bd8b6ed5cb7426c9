"""The rules a game is played under (the house rules in force for an evening or a
club) and the engine's reading of a record (the table's state, the outcome)."""

from __future__ import annotations

import logging
from typing import Any

from django.db.models import F, Max

from clubs.models import Club, RuleProfile, Season
from engine import Result, replay, table_view
from games.models import Evening

logger = logging.getLogger(__name__)


def evening_house_rules(*, evening: Evening) -> dict[str, Any]:
    """The house-rule overrides a new game of the evening starts with (a fresh copy).

    The evening's rule profile, else its season's, else the defaults (``{}``).
    """
    profile = evening.rule_profile or evening.season.rule_profile
    if profile is None or profile.game_kind != evening.game_kind:
        return {}
    return dict(profile.overrides or {})


def table_state(*, record: dict[str, Any]) -> dict[str, Any]:
    """The engine's view of the table after ``record`` (whose turn, the trick, what is legal).

    ``engine.table_view`` never raises by contract; should it ever, the page
    still loads without the state (and the traceback is logged).
    """
    return table_state_and_result(record=record)[0]


def record_outcome(*, record: dict[str, Any]) -> dict[str, Any]:
    """The engine's ``Result`` of ``record`` as a dict (status, what is awaited, whose
    turn), from a replay alone: a fifth of ``table_state``'s cost, for a page that
    asks the engine many records and needs no legal moves of most of them."""
    return replay(record).to_dict()


def table_state_and_result(*, record: dict[str, Any]) -> tuple[dict[str, Any], Result | None]:
    """``table_state`` and the engine's ``Result`` for ``record``, from one replay.

    (The view replays the record anyway; an append that needs both asks once.)
    The result is None where the view failed (``table_state``'s contract).
    """
    try:
        view = table_view(record)
        state: dict[str, Any] = view.to_dict()
    except Exception:
        logger.exception("engine.table_view raised on a record")
        return {"status": "unavailable"}, None
    return state, view.result


def club_house_rules(*, club: Club, game_kind: str) -> tuple[dict[str, Any], RuleProfile | None]:
    """The house-rule overrides in force for a club's ``game_kind`` and their profile:
    those of the open season of that game played last (else the season played last),
    as a new evening of it starts with them; the defaults (``{}``, None) without one."""
    seasons = Season.objects.filter(club=club, game_kind=game_kind).select_related("rule_profile")
    open_seasons = seasons.filter(status=Season.Status.OPEN)
    season = (
        (open_seasons if open_seasons.exists() else seasons)
        .annotate(last_played=Max("evenings__date"), last_opened=Max("evenings__id"))
        .order_by(
            F("last_played").desc(nulls_last=True),
            F("last_opened").desc(nulls_last=True),
            "-start",
            "-id",
        )
        .first()
    )
    profile = season.rule_profile if season is not None else None
    if profile is None or profile.game_kind != game_kind:
        return {}, None
    return dict(profile.overrides or {}), profile
