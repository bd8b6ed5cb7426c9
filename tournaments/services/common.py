"""What the tournament's writes share: the 409, the tournament's lock, the series in play."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.models import Series, Tournament


class TournamentConflict(Exception):
    """A step that does not fit the tournament's state now (answered 409)."""


def lock(tournament: Tournament) -> Tournament:
    """The tournament's row locked: draws, joins and the close go one at a time."""
    return (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .get(pk=tournament.pk)
    )


def check_open(tournament: Tournament) -> None:
    if not tournament.is_open:
        raise TournamentConflict(_("This tournament is closed."))


def open_series(tournament: Tournament) -> Series | None:
    """The latest series when some table of it still plays (or it is only drawn)."""
    latest = tournament.series.order_by("-number").first()
    if latest is None:
        return None
    if latest.status == Series.Status.DRAWN:
        return latest
    if latest.tables.filter(closed_at__isnull=True).exists():
        return latest
    return None


def drop_proposal(tournament: Tournament) -> None:
    """A join or leave makes a drawn, unconfirmed series stale: it is drawn again."""
    Series.objects.filter(tournament=tournament, status=Series.Status.DRAWN).delete()
