"""Writes of the ledger: keyword-only functions, each one transaction.

Money is written here and nowhere else, always as new ``LedgerEntry`` rows
whose amounts sum to zero per write:

- ``ledger_sync_locked_game`` books a game as the games app records it (through
  ``ledger.listeners``, the games app's seam upwards): it makes a game's entries
  match its current result (diff-based, idempotent); ``ledger_sync_game`` takes
  the game's lock itself first.
- ``payment_record`` books a payment between two players.
- ``ledger_book_prizes`` books a tournament's entry fees and prizes (zero-sum).
- ``settlement_plan_create`` / ``settlement_transfer_mark_paid`` turn open
  balances into the fewest transfers and book them as they are paid.

The projections (standings, ratings, chart series) are recomputed by
``season_projections_recompute``, called by the Celery tasks in
``ledger.tasks``. A write that changes a season's games asks for that on
commit; if the broker is down the request is logged and dropped, and the
periodic repair task catches up: money never waits for a queue.

Services raise Django's ``ValidationError`` (keyed by field) for anything a
user can get wrong. ``LedgerError`` means a caller handed over a result that
breaks the ledger's invariants (not integers, not zero-sum, players of another
club): that is a bug upstream, and the whole recording must fail rather than
book wrong money.
"""

from ledger.services.all_time import FIGURES, all_time_rebuild
from ledger.services.booking import (
    BULK_BATCH,
    ENTRY_FIELDS,
    GAME_KINDS,
    LedgerError,
    game_wanted_amounts,
    ledger_book_new_games,
    ledger_repair_season,
    ledger_sync_game,
    ledger_sync_locked_game,
    wanted_amounts,
)
from ledger.services.payments import payment_record, payment_reverse
from ledger.services.prizes import PrizesDoNotBalance, ledger_book_prizes
from ledger.services.projection_requests import (
    projection_request,
    projection_requests_deferred,
    projection_version_bump,
)
from ledger.services.season_projections import season_projections_recompute, standings_rules_for
from ledger.services.settlement_plans import settlement_plan_create, settlement_transfer_mark_paid
from ledger.services.standings_config import standings_config_update

__all__ = [
    "BULK_BATCH",
    "ENTRY_FIELDS",
    "FIGURES",
    "GAME_KINDS",
    "LedgerError",
    "PrizesDoNotBalance",
    "all_time_rebuild",
    "game_wanted_amounts",
    "ledger_book_new_games",
    "ledger_book_prizes",
    "ledger_repair_season",
    "ledger_sync_game",
    "ledger_sync_locked_game",
    "payment_record",
    "payment_reverse",
    "projection_request",
    "projection_requests_deferred",
    "projection_version_bump",
    "season_projections_recompute",
    "settlement_plan_create",
    "settlement_transfer_mark_paid",
    "standings_config_update",
    "standings_rules_for",
    "wanted_amounts",
]
