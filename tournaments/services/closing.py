"""The close: the final ranking frozen, the prizes awarded and booked into the ledger."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.services import ledger_book_prizes
from tournaments import ranking, selectors
from tournaments.models import Tournament
from tournaments.push import tournament_changed_push
from tournaments.services.common import TournamentConflict, check_open, lock, open_series


@transaction.atomic
def tournament_close(*, tournament: Tournament, user: Any) -> Tournament:
    """Close the tournament: the final ranking and its prizes are frozen as they stand.

    Refused (409) while a series is drawn or played, or when it is closed already.
    The prizes less the entry fees are booked into the ledger (``ledger_book_prizes``),
    the pot's holder taking the fees and paying the prizes; they count in the season's
    balances like an evening's results. A correction made afterwards (an evening
    reopened by an admin, on its change log) moves the live ranking, never a prize.
    """
    tournament = lock(tournament)
    check_open(tournament)
    if open_series(tournament) is not None:
        raise TournamentConflict(_("A series is still drawn or played: close its sheets first."))
    standing = selectors.ranking(tournament=tournament)
    prizes = [ranking.Prize(**p) for p in tournament.prizes]
    won = ranking.award(standing.rows, prizes, standing.pot)
    tournament.final_ranking = {
        "pot": standing.pot,
        "rows": [
            {
                "place": row.place,
                "start_number": row.start_number,
                "player_id": standing.players[row.start_number].pk,
                "name": standing.players[row.start_number].display_name,
                "total": row.total,
                "best_series": row.best_series,
                "by_series": {str(k): v for k, v in row.by_series.items()},
                "prize": won.get(row.start_number, 0),
            }
            for row in standing.rows
        ],
    }
    booked = _prize_amounts(tournament, standing, won)
    tournament.final_ranking["booked"] = {str(k): v for k, v in booked.items()}
    ledger_book_prizes(club=tournament.club, season=tournament.season, amounts=booked)
    tournament.status = Tournament.Status.CLOSED
    tournament.closed_at = timezone.now()
    tournament.save(update_fields=["final_ranking", "status", "closed_at"])
    tournament_changed_push(tournament.pk)
    return tournament


def _prize_amounts(
    tournament: Tournament, standing: selectors.Standing, won: dict[int, int]
) -> dict[int, int]:
    """{player pk: amount} to book: each participant his prize less his entry fee; the
    pot's holder the fees taken in less the prizes paid out (so they sum to zero)."""
    amounts: dict[int, int] = {}
    for number, player in standing.players.items():
        amount = won.get(number, 0) - tournament.entry_fee
        amounts[player.pk] = amounts.get(player.pk, 0) + amount
    rest = -sum(amounts.values())
    if rest:
        # Validated at the set-up: a fee or a fixed prize needs a holder of the pot.
        assert tournament.cashier_id is not None
        amounts[tournament.cashier_id] = amounts.get(tournament.cashier_id, 0) + rest
    return amounts
