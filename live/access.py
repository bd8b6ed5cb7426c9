"""Who may read a game's history, an evening's log, or open a live link (``clubs.permissions``).

404 for an unknown id and for a non-member alike, 403 for a role too low.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404

from clubs.models import Role
from clubs.permissions import require_role
from games import selectors as game_selectors
from games.models import Evening, Game


def evening_for(user: Any, evening_id: int, min_role: str = Role.MEMBER) -> Evening:
    """The evening (with club and season, ``member_role`` set) if ``user`` may."""
    if user is None or not user.is_authenticated:
        raise Http404
    try:
        evening = game_selectors.evening_get_with_role(evening_id=evening_id, user=user)
    except ObjectDoesNotExist:
        raise Http404 from None
    require_role(getattr(evening, "member_role", None), min_role)
    return evening


def game_for(user: Any, game_id: int, min_role: str = Role.MEMBER) -> Game:
    """The game (with evening and club, ``member_role`` set) if ``user`` may."""
    if user is None or not user.is_authenticated:
        raise Http404
    try:
        game = game_selectors.game_get_with_role(game_id=game_id, user=user)
    except ObjectDoesNotExist:
        raise Http404 from None
    require_role(getattr(game, "member_role", None), min_role)
    return game
