"""Per player: a season's ratings and a rating's history, statistics, the chart series."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import GameKind, Player, Season
from clubs.permissions import membership_for
from ledger import selectors
from ledger.apis.common import freshness, get_or_404
from ledger.models import PlayerRating


class RatingSerializer(serializers.ModelSerializer[PlayerRating]):
    display_name = serializers.CharField(source="player.display_name")

    class Meta:
        model = PlayerRating
        fields = ["player_id", "display_name", "mu", "sigma", "ordinal", "games"]


class RatingPointSerializer(serializers.Serializer[Any]):
    game_id = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class RatingHistorySerializer(RatingSerializer):
    history = serializers.SerializerMethodField()

    class Meta(RatingSerializer.Meta):
        fields = [*RatingSerializer.Meta.fields, "history"]

    @extend_schema_field(RatingPointSerializer(many=True))
    def get_history(self, rating: PlayerRating) -> list[dict[str, Any]]:
        return [
            {"game_id": game_id, "mu": mu, "sigma": sigma, "ordinal": ordinal}
            for game_id, mu, sigma, ordinal in rating.history
        ]


class RatingsOutputSerializer(serializers.Serializer[Any]):
    season = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    up_to_date = serializers.BooleanField()
    ratings = RatingSerializer(many=True)


class SeasonRatingListApi(APIView):
    """The season's openskill (Plackett-Luce) ratings, best conservative rating first."""

    @extend_schema(responses=RatingsOutputSerializer)
    def get(self, request: Request, slug: str, season_id: int) -> Response:
        club = membership_for(request.user, slug).club
        season = get_or_404(Season.objects.get, club=club, pk=season_id)
        data = {
            "season": season.pk,
            **freshness(selectors.projection_state_get(season=season)),
            "ratings": selectors.rating_list(season=season),
        }
        return Response(RatingsOutputSerializer(data).data)


class SeasonRatingHistoryApi(APIView):
    """One player's rating in the season and its history, one point per rated game."""

    @extend_schema(responses=RatingHistorySerializer)
    def get(self, request: Request, slug: str, season_id: int, player_id: int) -> Response:
        club = membership_for(request.user, slug).club
        season = get_or_404(Season.objects.get, club=club, pk=season_id)
        rating = get_or_404(selectors.rating_get, season=season, player_id=player_id)
        return Response(RatingHistorySerializer(rating).data)


class PlayerStatisticsOutputSerializer(serializers.Serializer[Any]):
    player_id = serializers.IntegerField()
    season = serializers.IntegerField(allow_null=True)
    game = serializers.CharField()
    unit = serializers.CharField()
    statistics = serializers.DictField(
        help_text=(
            "Fuchsen: games, wins, net, average_value; roles {macher, hilfer, opponent} "
            "and alone, each {games, wins, net}; silent_game {for, against, games: the "
            "games decided by play}; forgotten_fuchs {forgot (as Hilfer), partner_forgot "
            "(as Macher), opponent_forgot (as opponent)}, each {games, net}; raises {said, "
            "chances, per_cent (null without a chance), games: those whose raising was "
            "recorded, of games}. Königrufen: games, wins, net, average_value; "
            "contracts {contract: {games, won, net}} as declarer; schurln_lost."
        )
    )


def _statistics_response(club: Any, player_id: int, season: Season | None, game: str) -> Response:
    get_or_404(Player.objects.get, club=club, pk=player_id)
    figures = selectors.player_statistics(
        player_id=player_id, season=season, club=club, game_kind=game
    )
    data = {
        "player_id": player_id,
        "season": season.pk if season is not None else None,
        "game": game,
        "unit": club.currency_unit,
        "statistics": figures,
    }
    return Response(PlayerStatisticsOutputSerializer(data).data)


class SeasonPlayerStatisticsApi(APIView):
    """One player's statistics in the season: per role (Fuchsen) or per contract
    (Königrufen), counted from his games' results."""

    @extend_schema(responses=PlayerStatisticsOutputSerializer)
    def get(self, request: Request, slug: str, season_id: int, player_id: int) -> Response:
        club = membership_for(request.user, slug).club
        season = get_or_404(Season.objects.get, club=club, pk=season_id)
        return _statistics_response(club, player_id, season, season.game_kind)


class AllTimePlayerStatisticsApi(APIView):
    """One player's statistics over every season of one game (``?game=``)."""

    class FilterSerializer(serializers.Serializer[Any]):
        game = serializers.ChoiceField(choices=GameKind.choices, default=GameKind.FUCHSEN)

    @extend_schema(parameters=[FilterSerializer], responses=PlayerStatisticsOutputSerializer)
    def get(self, request: Request, slug: str, player_id: int) -> Response:
        club = membership_for(request.user, slug).club
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        return _statistics_response(club, player_id, None, filters.validated_data["game"])


class SeriesOutputSerializer(serializers.Serializer[Any]):
    season = serializers.IntegerField()
    unit = serializers.CharField()
    computed_at = serializers.DateTimeField(allow_null=True)
    up_to_date = serializers.BooleanField()
    players = serializers.DictField(child=serializers.CharField(), help_text="Player id → name.")
    cumulative = inline_serializer(
        "CumulativeSeries",
        {
            "game_ids": serializers.ListField(child=serializers.IntegerField()),
            "values": serializers.DictField(
                child=serializers.ListField(child=serializers.IntegerField())
            ),
        },
    )
    head_to_head = serializers.DictField(
        child=serializers.DictField(child=serializers.FloatField()),
        help_text="h2h[a][b]: what a took from b, net, over the season.",
    )


class SeasonSeriesApi(APIView):
    """Chart series of a season: running net per player and head-to-head balances."""

    @extend_schema(responses=SeriesOutputSerializer)
    def get(self, request: Request, slug: str, season_id: int) -> Response:
        club = membership_for(request.user, slug).club
        season = get_or_404(Season.objects.get, club=club, pk=season_id)
        series = selectors.season_series_get(season=season)
        cumulative = series.cumulative if series else {"game_ids": [], "values": {}}
        ids = {int(p) for p in cumulative.get("values", {})}
        names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))
        data = {
            "season": season.pk,
            "unit": club.currency_unit,
            **freshness(selectors.projection_state_get(season=season)),
            "players": {str(pk): name for pk, name in sorted(names.items())},
            "cumulative": cumulative,
            "head_to_head": series.head_to_head if series else {},
        }
        return Response(SeriesOutputSerializer(data).data)
