"""The draw of a series: proposed (tables, seats, byes), drawn again, confirmed (tables opened)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import GameKind
from games.services import evening_create
from tournaments import draw as drawing
from tournaments import selectors
from tournaments.models import Series, Tournament, TournamentTable
from tournaments.push import tournament_changed_push
from tournaments.services.common import (
    TournamentConflict,
    check_open,
    drop_proposal,
    lock,
    open_series,
)


@transaction.atomic
def series_draw(
    *,
    tournament: Tournament,
    seeding: str = drawing.Seeding.RANDOM,
    leftover: str = drawing.Leftover.BYE,
    table_size: int | None = None,
) -> Series:
    """Draw the next series as a proposal (tables, seats, byes), replacing an earlier
    proposal of it. The first series is always drawn at random; later ones by
    ``seeding``. ``table_size``: the organiser's size of a table (Fuchsen 4, 5 or 6),
    those left over handled by ``leftover``. Nothing is opened until ``series_confirm``.

    Refused (409) while a series is still played, after the last series, or when the
    tournament is closed; (400) with too few participants for one table.
    """
    tournament = lock(tournament)
    check_open(tournament)
    try:
        seeding_choice = drawing.Seeding(seeding)
    except ValueError:
        raise ValidationError({"seeding": _("Unknown seeding.")}) from None
    try:
        leftover_choice = drawing.Leftover(leftover)
    except ValueError:
        raise ValidationError(
            {"leftover": _("Unknown choice for the players left over.")}
        ) from None
    low, high = drawing.TABLE_SIZES[tournament.game_kind]
    if table_size is not None and not low <= table_size <= high:
        raise ValidationError(
            {
                "table_size": _("%(game)s is played by %(low)d to %(high)d at a table.")
                % {"game": GameKind(tournament.game_kind).label, "low": low, "high": high}
            }
        )
    playing = open_series(tournament)
    if playing is not None and playing.status == Series.Status.CONFIRMED:
        raise TournamentConflict(
            _("Series %(n)d is still played: every table's sheet must be closed first.")
            % {"n": playing.number}
        )
    drop_proposal(tournament)
    number = (tournament.series.aggregate(n=Max("number"))["n"] or 0) + 1
    if number > tournament.series_count:
        raise TournamentConflict(_("All series of this tournament have been drawn."))
    if number == 1:
        seeding_choice = drawing.Seeding.RANDOM
    active = list(
        tournament.participants.filter(left_at__isnull=True).values_list("start_number", flat=True)
    )
    history = selectors.draw_history(tournament=tournament)
    standing = (
        [row.start_number for row in selectors.ranking(tournament=tournament).rows]
        if number > 1 and seeding_choice is not drawing.Seeding.RANDOM
        else []
    )
    try:
        result = drawing.draw_series(
            players=active,
            game=tournament.game_kind,
            seed=tournament.seed,
            series=number,
            leftover=leftover_choice,
            table_size=table_size,
            seeding=seeding_choice,
            standing=standing,
            byes_so_far=history.byes,
            met=history.met,
        )
    except drawing.DrawError:
        raise ValidationError({"participants": _("Too few participants for one table.")}) from None
    series = Series.objects.create(
        tournament=tournament,
        number=number,
        seeding=seeding_choice.value,
        leftover=leftover_choice.value,
        table_size=table_size,
        byes=list(result.byes),
    )
    TournamentTable.objects.bulk_create(
        TournamentTable(series=series, number=index, seats=list(seats))
        for index, seats in enumerate(result.tables, start=1)
    )
    tournament_changed_push(tournament.pk)
    return series


@transaction.atomic
def series_confirm(*, series: Series, user: Any) -> Series:
    """Confirm a drawn series: each table's evening is opened with its players seated
    in the drawn order, in the tournament's season and under its rules."""
    tournament = lock(series.tournament)
    check_open(tournament)
    series = Series.objects.select_for_update().get(pk=series.pk)
    if series.status != Series.Status.DRAWN:
        raise TournamentConflict(_("This series has been confirmed already."))
    players = dict(tournament.participants.values_list("start_number", "player_id"))
    for table in series.tables.order_by("number"):
        table.evening = evening_create(
            club=tournament.club,
            user=user,
            season=tournament.season,
            players=[players[n] for n in table.seats],
            game_kind=tournament.game_kind,
            date=tournament.date,
            place=_("%(name)s, series %(s)d, table %(t)d")
            % {"name": tournament.name, "s": series.number, "t": table.number},
            rule_profile=tournament.rule_profile,
        )
        table.save(update_fields=["evening"])
    series.status = Series.Status.CONFIRMED
    series.confirmed_at = timezone.now()
    series.save(update_fields=["status", "confirmed_at"])
    tournament_changed_push(tournament.pk)
    return series
