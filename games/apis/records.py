"""Records out (a game, an evening, a season as the spec's records) and records in
(an import of records as new games of an evening)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import selectors as club_selectors
from clubs.models import Role
from clubs.permissions import membership_for
from games import selectors, services
from games.apis.base import IDEMPOTENCY_HEADER, ConflictSerializer, GamesApi, RefusalSerializer
from games.apis.idempotency import idempotent_call
from games.apis.serializers import ExportSerializer
from games.checks import MAX_ID, check_import_records

# --- Records out ----------------------------------------------------------------------------


class GameRecordApi(GamesApi):
    """The game as the spec's record (players as ids), a legend of names and its result."""

    @extend_schema(responses=ExportSerializer)
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game_for(request, game_id, Role.MEMBER)
        return Response(selectors.game_export(game=game))


class EveningRecordsApi(GamesApi):
    """Every game of the evening as records (the same shape as one game's record)."""

    @extend_schema(responses=inline_serializer("GameExportList", {}, many=True))
    def get(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.MEMBER)
        return Response(selectors.game_exports(games=selectors.evening_games(evening=evening)))


class SeasonRecordsApi(GamesApi):
    """Every game of the season as records, by evening date and game number."""

    @extend_schema(responses=inline_serializer("SeasonGameExportList", {}, many=True))
    def get(self, request: Request, slug: str, season_id: int) -> Response:
        club = membership_for(request.user, slug).club
        try:
            season = club_selectors.season_get(club=club, season_id=season_id)
        except ObjectDoesNotExist:
            raise Http404 from None
        return Response(selectors.game_exports(games=selectors.season_games(season=season)))


# --- Records in -----------------------------------------------------------------------------


class EveningImportApi(GamesApi):
    """Import records as new games of the evening, all-or-nothing per record.

    The answer reports each record: imported (game id, status, result) or
    rejected (reason, and the engine's error where it judged the record). It
    is a 200 if any record was imported, a 422 if every record was rejected.

    The body is one record, an array of records (≤ 500), exported entries
    (``{"record", "players", "result"}``), or ``{"records": [...], "players":
    {name: player_id}}`` to say which player a name stands for. Unmapped names
    are matched (case-insensitively) against the seated players, then the club's.
    """

    class InputSerializer(serializers.Serializer[Any]):
        records = serializers.ListField(
            child=serializers.JSONField(), min_length=1, max_length=services.MAX_IMPORT_RECORDS
        )
        players = serializers.DictField(
            child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
            required=False,
            default=dict,
        )

    OutcomeSerializer = inline_serializer(
        "ImportOutcome",
        {
            "index": serializers.IntegerField(),
            "status": serializers.CharField(help_text="imported or rejected"),
            "game": serializers.IntegerField(required=False),
            "game_status": serializers.CharField(required=False),
            "result": serializers.JSONField(required=False),
            "reason": serializers.CharField(required=False),
            "detail": serializers.CharField(required=False),
            "error": serializers.JSONField(required=False),
            "unknown_players": serializers.ListField(child=serializers.CharField(), required=False),
        },
        many=True,
    )

    ImportReportSerializer = inline_serializer(
        "ImportReport",
        {
            "imported": serializers.IntegerField(),
            "rejected": serializers.IntegerField(),
            "results": OutcomeSerializer,
        },
    )

    @extend_schema(
        request=InputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={
            200: ImportReportSerializer,
            409: ConflictSerializer,
            # Every record rejected (the report), or refused before any was judged.
            422: PolymorphicProxySerializer(
                component_name="ImportRefusal",
                serializers=[ImportReportSerializer, RefusalSerializer],
                resource_type_field_name=None,
            ),
        },
    )
    def post(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.SCORER)
        key = self.idempotency_key(request)
        body = request.data
        if isinstance(body, list):
            body = {"records": body}
        elif isinstance(body, dict) and "records" not in body:
            body = {"records": [body]}
        serializer = self.InputSerializer(data=body)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        check_import_records(data["records"])

        def work() -> tuple[int, Any]:
            outcomes = services.games_import(
                evening=evening, user=request.user, records=data["records"], players=data["players"]
            )
            results = []
            for outcome in outcomes:
                if outcome.imported and outcome.game is not None:
                    results.append(
                        {
                            "index": outcome.index,
                            "status": "imported",
                            "game": outcome.game.pk,
                            "game_status": outcome.game.status,
                            "result": outcome.game.result,
                        }
                    )
                else:
                    row: dict[str, Any] = {
                        "index": outcome.index,
                        "status": "rejected",
                        "reason": outcome.reason,
                        "detail": outcome.detail,
                    }
                    if outcome.error is not None:
                        row["error"] = outcome.error
                    if outcome.unknown_players:
                        row["unknown_players"] = outcome.unknown_players
                    results.append(row)
            imported = sum(1 for outcome in outcomes if outcome.imported)
            # Nothing usable at all is an unprocessable request; any import is a 200.
            code = (
                status.HTTP_422_UNPROCESSABLE_ENTITY
                if outcomes and not imported
                else status.HTTP_200_OK
            )
            return code, {
                "imported": imported,
                "rejected": len(outcomes) - imported,
                "results": results,
            }

        answer = idempotent_call(
            user=request.user,
            key=key,
            fingerprint=self.fingerprint(request),
            lock=lambda: services.evening_lock(evening=evening),
            work=work,
        )
        return Response(answer.body, status=answer.status)
