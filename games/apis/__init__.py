"""The games REST API: evenings, seats, games, recording events, records in and out.

One view per operation: validate → service → serialize. Everything belongs to
the club of its evening: non-members get a 404, members read, scorers (and
admins, owners) record; anonymous visitors get a 401. Bad input is a 400 with
field messages, a conflict (stale ``expected_seq``, a closed evening) a 409, a
record the engine refuses a 422 carrying the engine's index, code and message.

A package by use case: ``base`` (the base view, its error answers, the shared
schema pieces), ``serializers`` (the output shared by several views), ``evenings``,
``games`` (a game started, a game shown), ``events`` (recording: appends, dry runs,
corrections), ``records`` (records out and in), and ``idempotency`` (the
``Idempotency-Key``: a retry gets the first answer). ``games.api_urls`` names the
views from here.
"""

from games.apis.base import GamesApi
from games.apis.evenings import (
    EveningCloseApi,
    EveningDeleteApi,
    EveningDetailApi,
    EveningListCreateApi,
    EveningReopenApi,
    EveningSeatAddApi,
    EveningSeatRemoveApi,
)
from games.apis.events import GameEventAppendApi
from games.apis.games import GameDetailApi, GameStartApi
from games.apis.records import EveningImportApi, EveningRecordsApi, GameRecordApi, SeasonRecordsApi
from games.checks import MAX_EVENTS_PER_REQUEST

__all__ = [
    "MAX_EVENTS_PER_REQUEST",
    "EveningCloseApi",
    "EveningDeleteApi",
    "EveningDetailApi",
    "EveningImportApi",
    "EveningListCreateApi",
    "EveningRecordsApi",
    "EveningReopenApi",
    "EveningSeatAddApi",
    "EveningSeatRemoveApi",
    "GameDetailApi",
    "GameEventAppendApi",
    "GameRecordApi",
    "GameStartApi",
    "GamesApi",
    "SeasonRecordsApi",
]
