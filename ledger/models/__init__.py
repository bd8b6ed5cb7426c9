"""The ledger (money: append-only entries, payments, settlement plans) and its projections.

Models hold data and constraints only; every write goes through
``ledger.services`` and every read used by views through ``ledger.selectors``.

Two kinds of tables live here:

- **The books** — ``LedgerEntry``, ``Payment``, ``SettlementPlan`` and
  ``SettlementTransfer``. Ledger entries are double-entry bookkeeping in
  integers (the club's unit: cents or points): every group of entries written
  together sums to zero, and an entry is never changed or deleted. A
  correction is a new entry (a reversal). So every balance — of an evening, a
  season, a club — is a plain ``SUM`` and always sums to zero across players.
- **Projections** — ``PlayerGame`` (each finished game's contribution, per
  player), ``StandingRow``, ``PlayerRating``, ``SeasonSeries``, their checkpoint
  ``ProjectionState`` and the outbox of changes not yet applied,
  ``ProjectionChange``. They are derived from the games' stored results by the
  Celery task in ``ledger.tasks``, game by game, and can be rebuilt at any time
  from the results alone (``manage.py rebuild_projections``).

The books are in ``payments``, ``bookings`` and ``settlement``; the projections in
``projections`` (per season) and ``player_games`` (per game, and all time). This
package imports every model, so ``ledger.models.X`` stays each one's address.
"""

from ledger.models.bookings import LedgerEntry, LedgerEntryQuerySet
from ledger.models.payments import Payment
from ledger.models.player_games import AllTimeGame, AllTimeRow, GameFacts, PlayerGame
from ledger.models.projections import (
    PlayerRating,
    ProjectionChange,
    ProjectionState,
    SeasonSeries,
    StandingRow,
    StandingsConfig,
    default_tie_break,
)
from ledger.models.settlement import SettlementPlan, SettlementTransfer

__all__ = [
    "AllTimeGame",
    "AllTimeRow",
    "GameFacts",
    "LedgerEntry",
    "LedgerEntryQuerySet",
    "Payment",
    "PlayerGame",
    "PlayerRating",
    "ProjectionChange",
    "ProjectionState",
    "SeasonSeries",
    "SettlementPlan",
    "SettlementTransfer",
    "StandingRow",
    "StandingsConfig",
    "default_tie_break",
]
