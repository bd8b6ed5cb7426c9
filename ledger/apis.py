"""The ledger REST API: one view per operation, validate → service/selector → serialize.

Everything lives under ``/api/clubs/{slug}/``. Members read; scorers and up
record payments, make settlement plans and mark transfers paid; admins and
owners change the standings configuration. A non-member gets a 404 for all
of it, a member whose role is too low a 403, an anonymous visitor a 401
(``clubs.permissions``). Amounts are integers in the club's unit (``unit``).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import renderers, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Club, GameKind, Player, Role, Season
from clubs.permissions import membership_for
from games.models import Evening
from ledger import selectors, services
from ledger.models import (
    Payment,
    PlayerRating,
    ProjectionState,
    SettlementPlan,
    SettlementTransfer,
    StandingRow,
)
from ledger.spreadsheet import safe_rows
from ledger.standings import TIE_BREAKS
from stichbuch.api import paginated_response

T = TypeVar("T")

MAX_ID = 2**63 - 1
MAX_AMOUNT = 10**12  # a trillion cents: far above any card table, far below bigint


def get_or_404(getter: Callable[..., T], **kwargs: Any) -> T:
    """Call a selector's ``*_get``; a missing object (in this club) is a 404."""
    if any(isinstance(v, int) and not 0 < v <= MAX_ID for v in kwargs.values()):
        raise Http404  # an id no row can have: don't let the database overflow
    try:
        return getter(**kwargs)
    except ObjectDoesNotExist:
        raise Http404 from None


def id_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


def unit_label(club: Club) -> str:
    return str(Club.CurrencyUnit(club.currency_unit).label)


# --- Shared input: the scope of a balance, a plan, a payment --------------------------------


class ScopeSerializer(serializers.Serializer[Any]):
    """An optional evening and/or season of the club, by id."""

    evening = id_field(required=False, allow_null=True, default=None)
    season = id_field(required=False, allow_null=True, default=None)


def resolve_scope(club: Club, data: dict[str, Any]) -> tuple[Evening | None, Season | None]:
    """Turn validated ids into the club's evening and season; 400 naming the field if foreign."""
    evening = season = None
    errors: dict[str, list[str]] = {}
    if data.get("evening") is not None:
        evening = Evening.objects.filter(club=club, pk=data["evening"]).first()
        if evening is None:
            errors["evening"] = [_("No such evening in this club.")]
    if data.get("season") is not None:
        season = Season.objects.filter(club=club, pk=data["season"]).first()
        if season is None:
            errors["season"] = [_("No such season in this club.")]
    if errors:
        raise serializers.ValidationError(errors)
    return evening, season


def club_player(club: Club, player_id: int, field: str) -> Player:
    player = Player.objects.filter(club=club, pk=player_id).first()
    if player is None:
        raise serializers.ValidationError({field: [_("No such player in this club.")]})
    return player


# --- CSV --------------------------------------------------------------------------------------


class CSVRenderer(renderers.BaseRenderer):
    """Lets ``Accept: text/csv`` through content negotiation; views answer CSV themselves."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Any = None,
    ) -> bytes:
        # Only errors get here (a 404, a 400): say them plainly.
        return json.dumps(data, ensure_ascii=False).encode()


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
) -> HttpResponse:
    """A semicolon-separated UTF-8 file with a BOM: what German spreadsheets open as is.

    Amounts stay integers in the club's unit (named in the header), so no
    decimal comma question arises. Every text cell passes ``safe_cell``: a name
    that a spreadsheet would read as a formula comes out as text.
    """
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerows(safe_rows([header]))
    writer.writerows(safe_rows(rows))
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


CSV_SCHEMA = {(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="CSV, `;`")}


# --- Balances ---------------------------------------------------------------------------------


class BalanceSerializer(serializers.Serializer[Any]):
    player_id = serializers.IntegerField()
    display_name = serializers.CharField()
    results = serializers.IntegerField(help_text="Sum of game results.")
    payments = serializers.IntegerField(help_text="Sum of payments (+ paid, − received).")
    balance = serializers.IntegerField(help_text="Open balance: + is owed money, − owes.")


class BalancesOutputSerializer(serializers.Serializer[Any]):
    unit = serializers.CharField()
    evening = serializers.IntegerField(allow_null=True)
    season = serializers.IntegerField(allow_null=True)
    balances = BalanceSerializer(many=True)


class BalanceListApi(APIView):
    """Open balances per player of the club, an evening or a season; they sum to zero."""

    @extend_schema(parameters=[ScopeSerializer], responses=BalancesOutputSerializer)
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug).club
        filters = ScopeSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        evening, season = resolve_scope(club, filters.validated_data)
        rows = selectors.balance_list(club=club, evening=evening, season=season)
        data = {
            "unit": club.currency_unit,
            "evening": evening.pk if evening else None,
            "season": season.pk if season else None,
            "balances": list(rows),
        }
        return Response(BalancesOutputSerializer(data).data)


class BalanceCsvApi(APIView):
    """The open balances as a CSV file (``;``-separated, amounts as integers)."""

    renderer_classes = [renderers.JSONRenderer, CSVRenderer]

    @extend_schema(parameters=[ScopeSerializer], responses=CSV_SCHEMA)
    def get(self, request: Request, slug: str) -> HttpResponse:
        club = membership_for(request.user, slug).club
        filters = ScopeSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        evening, season = resolve_scope(club, filters.validated_data)
        unit = unit_label(club)
        rows = selectors.balance_list(club=club, evening=evening, season=season)
        scope = f"evening-{evening.pk}" if evening else f"season-{season.pk}" if season else "club"
        return csv_response(
            f"{club.slug}-balances-{scope}.csv",
            [
                _("Player"),
                f"{_('Results')} ({unit})",
                f"{_('Payments')} ({unit})",
                f"{_('Balance')} ({unit})",
            ],
            ([r["display_name"], r["results"], r["payments"], r["balance"]] for r in rows),
        )


# --- Payments ---------------------------------------------------------------------------------


class PaymentOutputSerializer(serializers.ModelSerializer[Payment]):
    payer_name = serializers.CharField(source="payer.display_name")
    payee_name = serializers.CharField(source="payee.display_name")
    recorded_by = serializers.CharField(
        source="recorded_by.username", default=None, allow_null=True
    )
    reversed = serializers.SerializerMethodField(
        help_text="A reversal names this payment: it no longer counts."
    )

    class Meta:
        model = Payment
        fields = [
            "id",
            "payer",
            "payer_name",
            "payee",
            "payee_name",
            "amount",
            "evening",
            "season",
            "recorded_by",
            "created_at",
            "reverses",
            "reversed",
        ]

    def get_reversed(self, payment: Payment) -> bool:
        known = getattr(payment, "is_reversed", None)  # ``payment_list`` annotates it
        if known is not None:
            return bool(known)
        return Payment.objects.filter(reverses=payment).exists()


class PaymentListApi(APIView):
    @extend_schema(parameters=[ScopeSerializer], responses=PaymentOutputSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug).club
        filters = ScopeSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        evening, season = resolve_scope(club, filters.validated_data)
        return paginated_response(
            serializer_class=PaymentOutputSerializer,
            queryset=selectors.payment_list(club=club, evening=evening, season=season),
            request=request,
            view=self,
        )


class PaymentCreateApi(APIView):
    """Record that one player paid another (scorer and up); it reduces what the payer owes."""

    class InputSerializer(ScopeSerializer):
        payer = id_field()
        payee = id_field()
        amount = serializers.IntegerField(min_value=1, max_value=MAX_AMOUNT)

    @extend_schema(request=InputSerializer, responses={201: PaymentOutputSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug, Role.SCORER).club
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        evening, season = resolve_scope(club, data)
        payment = services.payment_record(
            club=club,
            payer=club_player(club, data["payer"], "payer"),
            payee=club_player(club, data["payee"], "payee"),
            amount=data["amount"],
            recorded_by=request.user,
            evening=evening,
            season=season,
        )
        payment = selectors.payment_list(club=club).get(pk=payment.pk)
        return Response(PaymentOutputSerializer(payment).data, status=status.HTTP_201_CREATED)


class PaymentReverseApi(APIView):
    """Reverse a payment booked by mistake (scorer and up): the same amount back, so
    the balances are as before it; 201 with the reversal, 400 if it was reversed
    already or is itself a reversal. A settlement transfer marked paid with it is
    open again."""

    @extend_schema(request=None, responses={201: PaymentOutputSerializer})
    def post(self, request: Request, slug: str, payment_id: int) -> Response:
        club = membership_for(request.user, slug, Role.SCORER).club
        payment = get_or_404(Payment.objects.get, club=club, pk=payment_id)
        reversal = services.payment_reverse(payment=payment, recorded_by=request.user)
        reversal = selectors.payment_list(club=club).get(pk=reversal.pk)
        return Response(PaymentOutputSerializer(reversal).data, status=status.HTTP_201_CREATED)


# --- Settlement plans ---------------------------------------------------------------------------


class TransferOutputSerializer(serializers.ModelSerializer[SettlementTransfer]):
    payer_name = serializers.CharField(source="payer.display_name")
    payee_name = serializers.CharField(source="payee.display_name")
    is_paid = serializers.BooleanField()

    class Meta:
        model = SettlementTransfer
        fields = [
            "id",
            "payer",
            "payer_name",
            "payee",
            "payee_name",
            "amount",
            "is_paid",
            "paid_at",
            "payment",
        ]


class PlanOutputSerializer(serializers.ModelSerializer[SettlementPlan]):
    transfers = TransferOutputSerializer(many=True)
    balances = serializers.DictField(
        child=serializers.IntegerField(), help_text="Player id → open balance when planned."
    )
    all_paid = serializers.SerializerMethodField()

    class Meta:
        model = SettlementPlan
        fields = ["id", "evening", "season", "balances", "transfers", "all_paid", "created_at"]

    def get_all_paid(self, plan: SettlementPlan) -> bool:
        return all(t.paid_at is not None for t in plan.transfers.all())


class SettlementPlanListApi(APIView):
    @extend_schema(responses=PlanOutputSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug).club
        return paginated_response(
            serializer_class=PlanOutputSerializer,
            queryset=selectors.settlement_plan_list(club=club),
            request=request,
            view=self,
        )


class SettlementPlanCreateApi(APIView):
    """Plan the fewest transfers that clear an evening's or a season's open balances."""

    class InputSerializer(ScopeSerializer):
        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if (attrs.get("evening") is None) == (attrs.get("season") is None):
                raise serializers.ValidationError(_("Give either an evening or a season."))
            return attrs

    @extend_schema(request=InputSerializer, responses={201: PlanOutputSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug, Role.SCORER).club
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        evening, season = resolve_scope(club, serializer.validated_data)
        plan = services.settlement_plan_create(
            club=club, created_by=request.user, evening=evening, season=season
        )
        plan = selectors.settlement_plan_get(club=club, plan_id=plan.pk)
        return Response(PlanOutputSerializer(plan).data, status=status.HTTP_201_CREATED)


class SettlementPlanDetailApi(APIView):
    @extend_schema(responses=PlanOutputSerializer)
    def get(self, request: Request, slug: str, plan_id: int) -> Response:
        club = membership_for(request.user, slug).club
        plan = get_or_404(selectors.settlement_plan_get, club=club, plan_id=plan_id)
        return Response(PlanOutputSerializer(plan).data)


class SettlementTransferMarkPaidApi(APIView):
    """Mark a planned transfer paid (scorer and up): books the payment once, however often sent."""

    @extend_schema(request=None, responses=TransferOutputSerializer)
    def post(self, request: Request, slug: str, plan_id: int, transfer_id: int) -> Response:
        club = membership_for(request.user, slug, Role.SCORER).club
        plan = get_or_404(selectors.settlement_plan_get, club=club, plan_id=plan_id)
        transfer = get_or_404(selectors.settlement_transfer_get, plan=plan, transfer_id=transfer_id)
        transfer = services.settlement_transfer_mark_paid(transfer=transfer, paid_by=request.user)
        transfer = selectors.settlement_transfer_get(plan=plan, transfer_id=transfer.pk)
        return Response(TransferOutputSerializer(transfer).data)


class SettlementPlanCsvApi(APIView):
    """A plan's transfers as a CSV file (``;``-separated, amounts as integers)."""

    renderer_classes = [renderers.JSONRenderer, CSVRenderer]

    @extend_schema(responses=CSV_SCHEMA)
    def get(self, request: Request, slug: str, plan_id: int) -> HttpResponse:
        club = membership_for(request.user, slug).club
        plan = get_or_404(selectors.settlement_plan_get, club=club, plan_id=plan_id)
        unit = unit_label(club)
        return csv_response(
            f"{club.slug}-settlement-{plan.pk}.csv",
            [_("Payer"), _("Payee"), _("Amount (%(unit)s)") % {"unit": unit}, _("Paid at")],
            (
                [
                    t.payer.display_name,
                    t.payee.display_name,
                    t.amount,
                    t.paid_at.isoformat(timespec="seconds") if t.paid_at else "",
                ]
                for t in plan.transfers.all()
            ),
        )


# --- Projections: standings, ratings, series --------------------------------------------------


def freshness(state: ProjectionState | None) -> dict[str, Any]:
    """When the projections were computed and whether they include every change yet."""
    if state is None:
        return {"computed_at": None, "up_to_date": True}
    return {"computed_at": state.computed_at, "up_to_date": not state.is_behind}


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


# --- Standings configuration ------------------------------------------------------------------


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
