"""A table's sheet agreed to by those seated at it, and closed with its evening."""

from __future__ import annotations

import contextlib
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.errors import EveningClosed
from games.services import evening_close
from live.push import evening_changed_push
from tournaments import selectors
from tournaments.models import Participant, SheetConfirmation, TournamentTable
from tournaments.services.common import TournamentConflict


@transaction.atomic
def sheet_confirm(
    *, table: TournamentTable, participant: Participant, user: Any
) -> TournamentTable:
    """``participant`` agrees to the table's sheet. When every participant at the table
    has, the sheet is closed ("Liste abgeschlossen") and the table's evening with it.

    Refused (409) while deals remain to be played or a game is still in progress;
    (400) for a participant not seated at the table. Confirming twice changes nothing.
    """
    # ``of=("self",)``: the evening is joined on its nullable key (an outer join),
    # which PostgreSQL cannot lock; the table's row is the lock that matters.
    table = (
        TournamentTable.objects.select_for_update(of=("self",))
        .select_related("evening", "series")
        .get(pk=table.pk)
    )
    if table.evening is None:
        raise TournamentConflict(_("This series has not been confirmed yet."))
    if participant.start_number not in table.seats or (
        participant.tournament_id != table.series.tournament_id
    ):
        raise ValidationError({"participant": _("This participant does not sit at this table.")})
    if table.closed_at is not None:
        return table
    sheet = selectors.sheet(table=table)
    if sheet.in_progress:
        raise TournamentConflict(_("A game of this table is still in progress."))
    if sheet.to_play > 0:
        raise TournamentConflict(
            ngettext(
                "%(n)d deal is still to be played at this table.",
                "%(n)d deals are still to be played at this table.",
                sheet.to_play,
            )
            % {"n": sheet.to_play}
        )
    SheetConfirmation.objects.get_or_create(
        table=table,
        participant=participant,
        defaults={"confirmed_by": user if getattr(user, "is_authenticated", False) else None},
    )
    confirmed = SheetConfirmation.objects.filter(table=table).count()
    if confirmed == len(table.seats):
        table.closed_at = timezone.now()
        table.save(update_fields=["closed_at"])
        # Closed by hand already: the sheet closes all the same.
        with contextlib.suppress(EveningClosed):
            evening_close(evening=table.evening, user=user)
    evening_changed_push(table.evening.pk)
    return table
