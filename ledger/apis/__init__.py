"""The ledger REST API: one view per operation, validate → service/selector → serialize.

Everything lives under ``/api/clubs/{slug}/``. Members read; scorers and up
record payments, make settlement plans and mark transfers paid; admins and
owners change the standings configuration. A non-member gets a 404 for all
of it, a member whose role is too low a 403, an anonymous visitor a 401
(``clubs.permissions``). Amounts are integers in the club's unit (``unit``).

One module per use case: ``balances``, ``payments``, ``settlement`` (plans and
their transfers), ``standings`` (a season's table, the all-time table and the
standings configuration), ``ratings`` (ratings, a player's statistics, the
chart series); what they share (the scope of a read, ids, CSV) is in ``common``.
"""

from ledger.apis.balances import (
    BalanceCsvApi,
    BalanceListApi,
    BalanceSerializer,
    BalancesOutputSerializer,
)
from ledger.apis.common import (
    CSV_SCHEMA,
    MAX_AMOUNT,
    MAX_ID,
    CSVRenderer,
    ScopeSerializer,
    club_player,
    csv_response,
    freshness,
    get_or_404,
    id_field,
    resolve_scope,
    unit_label,
)
from ledger.apis.payments import (
    PaymentCreateApi,
    PaymentListApi,
    PaymentOutputSerializer,
    PaymentReverseApi,
)
from ledger.apis.ratings import (
    AllTimePlayerStatisticsApi,
    PlayerStatisticsOutputSerializer,
    RatingHistorySerializer,
    RatingPointSerializer,
    RatingSerializer,
    RatingsOutputSerializer,
    SeasonPlayerStatisticsApi,
    SeasonRatingHistoryApi,
    SeasonRatingListApi,
    SeasonSeriesApi,
    SeriesOutputSerializer,
)
from ledger.apis.settlement import (
    PlanOutputSerializer,
    SettlementPlanCreateApi,
    SettlementPlanCsvApi,
    SettlementPlanDetailApi,
    SettlementPlanListApi,
    SettlementTransferMarkPaidApi,
    TransferOutputSerializer,
)
from ledger.apis.standings import (
    AllTimeApi,
    AllTimeOutputSerializer,
    AllTimeRowSerializer,
    SeasonStandingsApi,
    StandingRowSerializer,
    StandingsConfigDetailApi,
    StandingsConfigOutputSerializer,
    StandingsConfigUpdateApi,
    StandingsOutputSerializer,
    TieBreakField,
)

__all__ = [
    "CSV_SCHEMA",
    "MAX_AMOUNT",
    "MAX_ID",
    "AllTimeApi",
    "AllTimeOutputSerializer",
    "AllTimePlayerStatisticsApi",
    "AllTimeRowSerializer",
    "BalanceCsvApi",
    "BalanceListApi",
    "BalanceSerializer",
    "BalancesOutputSerializer",
    "CSVRenderer",
    "PaymentCreateApi",
    "PaymentListApi",
    "PaymentOutputSerializer",
    "PaymentReverseApi",
    "PlanOutputSerializer",
    "PlayerStatisticsOutputSerializer",
    "RatingHistorySerializer",
    "RatingPointSerializer",
    "RatingSerializer",
    "RatingsOutputSerializer",
    "ScopeSerializer",
    "SeasonPlayerStatisticsApi",
    "SeasonRatingHistoryApi",
    "SeasonRatingListApi",
    "SeasonSeriesApi",
    "SeasonStandingsApi",
    "SeriesOutputSerializer",
    "SettlementPlanCreateApi",
    "SettlementPlanCsvApi",
    "SettlementPlanDetailApi",
    "SettlementPlanListApi",
    "SettlementTransferMarkPaidApi",
    "StandingRowSerializer",
    "StandingsConfigDetailApi",
    "StandingsConfigOutputSerializer",
    "StandingsConfigUpdateApi",
    "StandingsOutputSerializer",
    "TieBreakField",
    "TransferOutputSerializer",
    "club_player",
    "csv_response",
    "freshness",
    "get_or_404",
    "id_field",
    "resolve_scope",
    "unit_label",
]
