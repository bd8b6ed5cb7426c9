"""Tables: a season's standings, the all-time table, the club's standings configuration."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import GameKind, Role, Season
from clubs.permissions import membership_for
from games.models import Evening
from ledger import selectors, services
from ledger.apis.common import freshness, get_or_404, id_field
from ledger.models import StandingRow
from ledger.standings import TIE_BREAKS


class StandingRowSerializer(serializers.ModelSerializer[StandingRow]):
    display_name = serializers.CharField(source="player.display_name")

    class Meta:
        model = StandingRow
        fields = [
            "rank",
            "player_id",
            "display_name",
            "net",
            "games",
            "wins",
            "win_pct",
            "per_game",
            "macher_games",
            "macher_wins",
            "partner_games",
        ]


class StandingsOutputSerializer(serializers.Serializer[Any]):
    season = serializers.IntegerField()
    evening = serializers.IntegerField(allow_null=True)
    unit = serializers.CharField()
    computed_at = serializers.DateTimeField(allow_null=True)
    up_to_date = serializers.BooleanField(
        help_text="False while a change is still being projected."
    )
    min_games = serializers.IntegerField()
    tie_break = serializers.ListField(child=serializers.CharField())
    rows = StandingRowSerializer(many=True)


class AllTimeRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    display_name = serializers.CharField()
    seasons = serializers.IntegerField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    net = serializers.IntegerField(help_text="In the club's unit (cents or points).")
    win_pct = serializers.FloatField(help_text="Won games in per cent.")
    per_game = serializers.FloatField()
    macher_games = serializers.IntegerField()
    macher_wins = serializers.IntegerField()
    rating = serializers.FloatField(
        allow_null=True,
        help_text="The all-time rating (openskill's mu - 3 sigma over every season's "
        "games in order); null before a game rated the player.",
    )
    rated_games = serializers.IntegerField()


class AllTimeOutputSerializer(serializers.Serializer[Any]):
    game = serializers.CharField()
    unit = serializers.CharField()
    rows = AllTimeRowSerializer(many=True)


class AllTimeApi(APIView):
    """The club's all-time table of one game: every season's table summed, the most
    won first (players with equal net share a rank)."""

    class FilterSerializer(serializers.Serializer[Any]):
        game = serializers.ChoiceField(choices=GameKind.choices, default=GameKind.FUCHSEN)

    @extend_schema(parameters=[FilterSerializer], responses=AllTimeOutputSerializer)
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug).club
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        game = filters.validated_data["game"]
        rows = selectors.all_time_table(club=club, game_kind=game)
        return Response({"game": game, "unit": club.currency_unit, "rows": rows})


class SeasonStandingsApi(APIView):
    """The season table, or one evening's table (``?evening=``)."""

    class FilterSerializer(serializers.Serializer[Any]):
        evening = id_field(required=False, allow_null=True, default=None)

    @extend_schema(parameters=[FilterSerializer], responses=StandingsOutputSerializer)
    def get(self, request: Request, slug: str, season_id: int) -> Response:
        club = membership_for(request.user, slug).club
        season = get_or_404(Season.objects.get, club=club, pk=season_id)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        evening = None
        if filters.validated_data["evening"] is not None:
            evening = Evening.objects.filter(
                season=season, pk=filters.validated_data["evening"]
            ).first()
            if evening is None:
                raise serializers.ValidationError(
                    {"evening": [_("No such evening in this season.")]}
                )
        config = selectors.standings_config_get(club=club)
        data = {
            "season": season.pk,
            "evening": evening.pk if evening else None,
            "unit": club.currency_unit,
            **freshness(selectors.projection_state_get(season=season)),
            "min_games": 0 if evening else config.min_games,
            "tie_break": config.tie_break,
            "rows": selectors.standing_list(season=season, evening=evening),
        }
        return Response(StandingsOutputSerializer(data).data)


class StandingsConfigOutputSerializer(serializers.Serializer[Any]):
    min_games = serializers.IntegerField()
    tie_break = serializers.ListField(child=serializers.ChoiceField(choices=TIE_BREAKS))


class StandingsConfigDetailApi(APIView):
    @extend_schema(responses=StandingsConfigOutputSerializer)
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug).club
        return Response(
            StandingsConfigOutputSerializer(selectors.standings_config_get(club=club)).data
        )


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "enum": list(TIE_BREAKS)},
        "minItems": 1,
        "maxItems": len(TIE_BREAKS),
        "uniqueItems": True,
    }
)
class TieBreakField(serializers.ListField):
    """The tie-break keys in order, each at most once (the schema says so too)."""


class StandingsConfigUpdateApi(APIView):
    """Change the minimum of games and the tie-break order (owner/admin); tables follow."""

    class InputSerializer(serializers.Serializer[Any]):
        min_games = serializers.IntegerField(min_value=0, max_value=100000, required=False)
        tie_break = TieBreakField(
            child=serializers.ChoiceField(choices=TIE_BREAKS),
            min_length=1,
            max_length=len(TIE_BREAKS),
            required=False,
        )

        def validate_tie_break(self, value: list[str]) -> list[str]:
            if len(set(value)) != len(value):
                raise serializers.ValidationError(_("Name each key at most once."))
            return value

    @extend_schema(request=InputSerializer, responses=StandingsConfigOutputSerializer)
    def post(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug, Role.ADMIN).club
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        config = services.standings_config_update(club=club, **serializer.validated_data)
        return Response(StandingsConfigOutputSerializer(config).data)
