"""Access to an evening or a game for a page: the object, or a 404, and the reader's
membership, decided by ``clubs.permissions`` (anonymous visitors never get here:
the views are ``login_required``)."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpRequest

from clubs import selectors as club_selectors
from clubs.models import Club, Membership, Role
from clubs.permissions import membership_for
from games import selectors
from games.models import Evening, Game


def evening_for(
    request: HttpRequest, evening_id: int, min_role: str = Role.MEMBER
) -> tuple[Evening, Membership]:
    """The evening and the reader's membership of its club with at least ``min_role``;
    a 404 if there is no such evening or the reader is no member of its club."""
    try:
        evening = selectors.evening_get(evening_id=evening_id)
    except ObjectDoesNotExist:
        raise Http404 from None
    return evening, membership_for(request.user, evening.club.slug, min_role)


def game_for(
    request: HttpRequest, game_id: int, min_role: str = Role.MEMBER
) -> tuple[Game, Membership]:
    """The game and the reader's membership, as ``evening_for``."""
    try:
        game = selectors.game_get(game_id=game_id)
    except ObjectDoesNotExist:
        raise Http404 from None
    return game, membership_for(request.user, game.evening.club.slug, min_role)


def player_names(club: Club) -> dict[str, str]:
    """``{str(pk): display_name}`` of every player of the club (for engine sentences)."""
    return {str(p.pk): p.display_name for p in club_selectors.player_list(club=club)}
