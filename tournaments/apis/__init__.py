"""The tournaments' REST API: one view per operation, validate → service → present.

Members read; organisers (the club's admins) set up, draw, confirm, close and
open ranking links; a participant confirms his own sheet. The ranking behind a
link is read without logging in. A step out of order is a 409 with the reason.

One module per use case: ``setup`` (the list, setting up and reading a tournament,
participants joining and leaving), ``draws`` (a series drawn and confirmed),
``sheets`` (a table's sheet and its confirmation), ``ranking`` (the ranking and its
CSV), ``closing`` (the close and the settlement), ``links`` (ranking links and the
ranking behind one); the base view and a tournament's shape are in ``common``.
This package re-exports their public names.
"""

from tournaments.apis.closing import (
    SettlementApi,
    SettlementSerializer,
    TournamentCloseApi,
    TransferSerializer,
)
from tournaments.apis.common import (
    ByeSerializer,
    ParticipantSerializer,
    SeatSerializer,
    SeriesSerializer,
    TableSerializer,
    TournamentApi,
    TournamentSerializer,
)
from tournaments.apis.draws import SeriesConfirmApi, SeriesDrawApi
from tournaments.apis.links import LinkListCreateApi, LinkRankingApi, LinkRevokeApi, LinkSerializer
from tournaments.apis.ranking import (
    ProgressSerializer,
    RankingApi,
    RankingCsvApi,
    RankingRowSerializer,
    RankingSerializer,
)
from tournaments.apis.setup import (
    ParticipantJoinApi,
    ParticipantLeaveApi,
    PrizeSerializer,
    TournamentCreateApi,
    TournamentDetailApi,
    TournamentListApi,
    TournamentListItemSerializer,
)
from tournaments.apis.sheets import SheetApi, SheetConfirmApi, SheetSeatSerializer, SheetSerializer

__all__ = [
    "ByeSerializer",
    "LinkListCreateApi",
    "LinkRankingApi",
    "LinkRevokeApi",
    "LinkSerializer",
    "ParticipantJoinApi",
    "ParticipantLeaveApi",
    "ParticipantSerializer",
    "PrizeSerializer",
    "ProgressSerializer",
    "RankingApi",
    "RankingCsvApi",
    "RankingRowSerializer",
    "RankingSerializer",
    "SeatSerializer",
    "SeriesConfirmApi",
    "SeriesDrawApi",
    "SeriesSerializer",
    "SettlementApi",
    "SettlementSerializer",
    "SheetApi",
    "SheetConfirmApi",
    "SheetSeatSerializer",
    "SheetSerializer",
    "TableSerializer",
    "TournamentApi",
    "TournamentCloseApi",
    "TournamentCreateApi",
    "TournamentDetailApi",
    "TournamentListApi",
    "TournamentListItemSerializer",
    "TournamentSerializer",
    "TransferSerializer",
]
