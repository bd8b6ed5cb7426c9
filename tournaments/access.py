"""Who may see and do what in a tournament (``clubs.permissions``).

Members of the club read everything of its tournaments; organisers are the
club's admins (set up, draw, confirm, close, links). A participant confirms his
own table's sheet; an organiser may confirm for anyone at it. A non-member gets
404, a role too low 403.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from clubs.models import Club, Role, role_at_least
from clubs.permissions import membership_for
from tournaments import selectors
from tournaments.models import Participant, Series, Tournament, TournamentTable


def tournament_for(
    user: Any, slug: str, tournament_id: int, min_role: str = Role.MEMBER
) -> tuple[Tournament, str]:
    """The tournament and the user's role in its club (404 / 403 as ``membership_for``)."""
    membership = membership_for(user, slug, min_role)
    try:
        tournament = selectors.tournament_get(
            club_id=membership.club_id, tournament_id=tournament_id
        )
    except Tournament.DoesNotExist:
        raise Http404 from None
    return tournament, membership.role


def club_for(user: Any, slug: str, min_role: str = Role.MEMBER) -> Club:
    return membership_for(user, slug, min_role).club


def series_of(tournament: Tournament, number: int) -> Series:
    series = tournament.series.filter(number=number).first()
    if series is None:
        raise Http404
    return series


def table_of(tournament: Tournament, series: int, table: int) -> TournamentTable:
    found = (
        TournamentTable.objects.select_related("series__tournament__club", "evening")
        .filter(series__tournament=tournament, series__number=series, number=table)
        .first()
    )
    if found is None:
        raise Http404
    return found


def may_confirm(user: Any, role: str, participant: Participant) -> None:
    """An organiser confirms for anyone; a participant only for himself (else 403)."""
    if role_at_least(role, Role.ADMIN):
        return
    if participant.player.user_id is not None and participant.player.user_id == user.pk:
        return
    raise PermissionDenied(_("Only the participant himself or an organiser confirms his sheet."))
