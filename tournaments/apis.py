"""The tournaments' REST API: one view per operation, validate → service → present.

Members read; organisers (the club's admins) set up, draw, confirm, close and
open ranking links; a participant confirms his own sheet. The ranking behind a
link is read without logging in. A step out of order is a 409 with the reason.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Player, Role, RuleProfile, Season
from stichbuch.api import StrictCharField, StrictDateField, paginated_response
from tournaments import access, presenters, selectors, services
from tournaments.draw import Leftover, Seeding
from tournaments.models import TournamentLink


class TournamentApi(APIView):
    """Base view: a step out of order (``TournamentConflict``) is a 409."""

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, services.TournamentConflict):
            return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)
        return super().handle_exception(exc)


# --- Output shapes (for the schema) ---------------------------------------------------------


class ParticipantSerializer(serializers.Serializer[Any]):
    start_number = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    active = serializers.BooleanField()
    guest = serializers.BooleanField()


class SeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    start_number = serializers.IntegerField()
    name = serializers.CharField()


class TableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    evening_id = serializers.IntegerField(allow_null=True, help_text="the table's evening")
    seats = SeatSerializer(many=True)
    closed = serializers.BooleanField(help_text="Liste abgeschlossen")


class ByeSerializer(serializers.Serializer[Any]):
    start_number = serializers.IntegerField()
    name = serializers.CharField()


class SeriesSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["drawn", "confirmed"])
    seeding = serializers.ChoiceField(choices=[s.value for s in Seeding])
    leftover = serializers.ChoiceField(choices=[s.value for s in Leftover])
    table_size = serializers.IntegerField(allow_null=True)
    tables = TableSerializer(many=True)
    byes = ByeSerializer(many=True)


class TournamentSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game_kind = serializers.CharField()
    date = serializers.DateField()
    season_id = serializers.IntegerField()
    rule_profile_id = serializers.IntegerField(allow_null=True)
    series_count = serializers.IntegerField()
    deals_per_series = serializers.IntegerField()
    entry_fee = serializers.IntegerField()
    prizes = serializers.ListField(child=serializers.DictField(child=serializers.IntegerField()))
    cashier_id = serializers.IntegerField(allow_null=True)
    seed = serializers.CharField(help_text="every draw can be repeated with it")
    status = serializers.ChoiceField(choices=["open", "closed"])
    tie_break = serializers.CharField()
    participants = ParticipantSerializer(many=True)
    series = SeriesSerializer(many=True)


class TournamentListItemSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game_kind = serializers.CharField()
    date = serializers.DateField()
    status = serializers.CharField()


class SheetSeatSerializer(SeatSerializer):
    total = serializers.IntegerField()
    confirmed = serializers.BooleanField()


class SheetSerializer(serializers.Serializer[Any]):
    series = serializers.IntegerField()
    table = serializers.IntegerField()
    evening_id = serializers.IntegerField(allow_null=True)
    deals = serializers.IntegerField()
    finished = serializers.IntegerField()
    to_play = serializers.IntegerField()
    in_progress = serializers.BooleanField()
    closed = serializers.BooleanField()
    seats = SheetSeatSerializer(many=True)


class RankingRowSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    start_number = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()
    best_series = serializers.IntegerField()
    by_series = serializers.DictField(child=serializers.IntegerField())


class ProgressSerializer(serializers.Serializer[Any]):
    series = serializers.IntegerField()
    table = serializers.IntegerField()
    finished = serializers.IntegerField()
    deals = serializers.IntegerField()


class RankingSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    unit = serializers.CharField()
    series = serializers.ListField(child=serializers.IntegerField())
    up_to_series = serializers.IntegerField(allow_null=True)
    tie_break = serializers.CharField()
    pot = serializers.IntegerField()
    rows = RankingRowSerializer(many=True)
    final = serializers.DictField(
        allow_null=True, help_text="the ranking frozen at the close, with each prize"
    )
    progress = ProgressSerializer(
        many=True, help_text="per table of the latest series: deals finished and to play"
    )


class TransferSerializer(serializers.Serializer[Any]):
    payer = serializers.CharField()
    payee = serializers.CharField()
    amount = serializers.IntegerField()


class SettlementSerializer(serializers.Serializer[Any]):
    balances = serializers.DictField(child=serializers.IntegerField())
    transfers = TransferSerializer(many=True)


class LinkSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.CharField()
    created_at = serializers.DateTimeField()


# --- Views -----------------------------------------------------------------------------------


class TournamentListApi(TournamentApi):
    """The club's tournaments, the latest first (members), a page at a time."""

    @extend_schema(responses=TournamentListItemSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = access.club_for(request.user, slug)
        return paginated_response(
            serializer_class=TournamentListItemSerializer,
            queryset=selectors.tournament_list(club_id=club.pk),
            request=request,
            view=self,
        )


class PrizeSerializer(serializers.Serializer[Any]):
    amount = serializers.IntegerField(required=False, min_value=1)
    percent = serializers.IntegerField(required=False, min_value=1, max_value=100)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if len(attrs) != 1:
            raise serializers.ValidationError(_("Either an amount or a percent of the pot."))
        return attrs


class TournamentCreateApi(TournamentApi):
    """Set up a tournament (organisers: the club's admins); ``players`` in start-number order."""

    class InputSerializer(serializers.Serializer[Any]):
        name = StrictCharField(max_length=100)
        game_kind = serializers.ChoiceField(choices=["fuchsen", "koenigrufen"])
        series_count = serializers.IntegerField(min_value=1, max_value=services.MAX_SERIES)
        deals_per_series = serializers.IntegerField(min_value=1, max_value=services.MAX_DEALS)
        season = serializers.IntegerField(required=False, allow_null=True, min_value=1)
        rule_profile = serializers.IntegerField(required=False, allow_null=True, min_value=1)
        entry_fee = serializers.IntegerField(required=False, default=0, min_value=0)
        prizes = PrizeSerializer(many=True, required=False, default=list)
        cashier = serializers.IntegerField(required=False, allow_null=True, min_value=1)
        date = StrictDateField(required=False, allow_null=True, default=None)
        seed = StrictCharField(required=False, allow_blank=True, max_length=64, default="")
        players = serializers.ListField(
            child=serializers.IntegerField(min_value=1),
            required=False,
            default=list,
            max_length=500,
        )

    @extend_schema(request=InputSerializer, responses={201: TournamentSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = access.club_for(request.user, slug, Role.ADMIN)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        lookups: dict[str, Any] = {}
        for field, model in (
            ("season", Season),
            ("rule_profile", RuleProfile),
            ("cashier", Player),
        ):
            pk = data.pop(field, None)
            lookups[field] = None
            if pk is not None:
                lookups[field] = model.objects.filter(club=club, pk=pk).first()
                if lookups[field] is None:
                    raise serializers.ValidationError({field: [_("Not found in this club.")]})
        data["prizes"] = [dict(p) for p in data["prizes"]]
        tournament = services.tournament_create(club=club, user=request.user, **lookups, **data)
        return Response(presenters.tournament_data(tournament), status=status.HTTP_201_CREATED)


class TournamentDetailApi(TournamentApi):
    """A tournament: its settings, seed, participants, series, tables and byes (members)."""

    @extend_schema(responses=TournamentSerializer)
    def get(self, request: Request, slug: str, tournament_id: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id)
        return Response(presenters.tournament_data(tournament))


class ParticipantJoinApi(TournamentApi):
    """Add a player of the club (member or guest) from the next draw on (organisers)."""

    class InputSerializer(serializers.Serializer[Any]):
        player = serializers.IntegerField(min_value=1)

    @extend_schema(request=InputSerializer, responses={201: ParticipantSerializer})
    def post(self, request: Request, slug: str, tournament_id: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id, Role.ADMIN)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = Player.objects.filter(
            club_id=tournament.club_id, pk=serializer.validated_data["player"]
        ).first()
        if player is None:
            raise serializers.ValidationError({"player": [_("No such player in this club.")]})
        joined = services.participant_join(tournament=tournament, player=player)
        return Response(
            {
                "start_number": joined.start_number,
                "player_id": player.pk,
                "name": player.display_name,
                "active": True,
                "guest": player.user_id is None,
            },
            status=status.HTTP_201_CREATED,
        )


class ParticipantLeaveApi(TournamentApi):
    """A participant leaves between series (organisers); his start number stays his."""

    @extend_schema(request=None, responses=ParticipantSerializer)
    def post(self, request: Request, slug: str, tournament_id: int, number: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id, Role.ADMIN)
        participant = (
            tournament.participants.select_related("player").filter(start_number=number).first()
        )
        if participant is None:
            raise Http404
        left = services.participant_leave(tournament=tournament, participant=participant)
        return Response(
            {
                "start_number": left.start_number,
                "player_id": left.player_id,
                "name": participant.player.display_name,
                "active": False,
                "guest": participant.player.user_id is None,
            }
        )


class SeriesDrawApi(TournamentApi):
    """Draw the next series as a proposal to look at (organisers): tables, seats, byes.
    Drawing again replaces the proposal; ``…/confirm/`` opens the tables."""

    class InputSerializer(serializers.Serializer[Any]):
        seeding = serializers.ChoiceField(
            choices=[s.value for s in Seeding], required=False, default=Seeding.RANDOM.value
        )
        leftover = serializers.ChoiceField(
            choices=[s.value for s in Leftover], required=False, default=Leftover.BYE.value
        )
        table_size = serializers.IntegerField(
            required=False,
            allow_null=True,
            default=None,
            min_value=4,
            max_value=6,
            help_text="players at a table (Fuchsen 4, 5 or 6; Königrufen 4); default 4",
        )

    @extend_schema(request=InputSerializer, responses={201: SeriesSerializer})
    def post(self, request: Request, slug: str, tournament_id: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id, Role.ADMIN)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        series = services.series_draw(tournament=tournament, **serializer.validated_data)
        names = {p["start_number"]: p["name"] for p in presenters.participants_data(tournament)}
        return Response(presenters.series_data(series, names), status=status.HTTP_201_CREATED)


class SeriesConfirmApi(TournamentApi):
    """Confirm a drawn series (organisers): each table's evening is opened."""

    @extend_schema(request=None, responses=SeriesSerializer)
    def post(self, request: Request, slug: str, tournament_id: int, series: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id, Role.ADMIN)
        confirmed = services.series_confirm(
            series=access.series_of(tournament, series), user=request.user
        )
        names = {p["start_number"]: p["name"] for p in presenters.participants_data(tournament)}
        return Response(presenters.series_data(confirmed, names))


class SheetApi(TournamentApi):
    """A table's sheet in a series: deals played and still to play, each seat's total,
    who confirmed (members)."""

    @extend_schema(responses=SheetSerializer)
    def get(
        self, request: Request, slug: str, tournament_id: int, series: int, table: int
    ) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id)
        return Response(presenters.sheet_data(access.table_of(tournament, series, table)))


class SheetConfirmApi(TournamentApi):
    """Agree to a table's sheet (the participant himself, or an organiser for him). When
    all at the table have, the sheet and the table's evening are closed."""

    class InputSerializer(serializers.Serializer[Any]):
        start_number = serializers.IntegerField(min_value=1)

    @extend_schema(request=InputSerializer, responses=SheetSerializer)
    def post(
        self, request: Request, slug: str, tournament_id: int, series: int, table: int
    ) -> Response:
        tournament, role = access.tournament_for(request.user, slug, tournament_id)
        found = access.table_of(tournament, series, table)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        participant = (
            tournament.participants.select_related("player")
            .filter(start_number=serializer.validated_data["start_number"])
            .first()
        )
        if participant is None:
            raise serializers.ValidationError({"start_number": [_("No such start number.")]})
        access.may_confirm(request.user, role, participant)
        services.sheet_confirm(table=found, participant=participant, user=request.user)
        return Response(presenters.sheet_data(access.table_of(tournament, series, table)))


_SERIES = OpenApiParameter(
    "series", OpenApiTypes.INT, description="the ranking after this series (default: in all)"
)


def _up_to(request: Request) -> int | None:
    raw = request.query_params.get("series")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= services.MAX_SERIES:
        raise serializers.ValidationError({"series": [_("A series number.")]})
    return int(raw)


class RankingApi(TournamentApi):
    """The ranking across all tables, in all or after a series (members)."""

    @extend_schema(parameters=[_SERIES], responses=RankingSerializer)
    def get(self, request: Request, slug: str, tournament_id: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id)
        return Response(presenters.ranking_data(tournament, _up_to(request)))


class RankingCsvApi(TournamentApi):
    """The ranking as a CSV file (members)."""

    @extend_schema(parameters=[_SERIES], responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, slug: str, tournament_id: int) -> HttpResponse:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id)
        response = HttpResponse(
            presenters.ranking_csv(tournament, _up_to(request)), content_type="text/csv"
        )
        response["Content-Disposition"] = f'attachment; filename="turnier-{tournament.pk}.csv"'
        return response


class TournamentCloseApi(TournamentApi):
    """Close the tournament (organisers): the final ranking and the prizes are frozen
    and the prizes less the entry fees booked into the ledger."""

    @extend_schema(request=None, responses=RankingSerializer)
    def post(self, request: Request, slug: str, tournament_id: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id, Role.ADMIN)
        closed = services.tournament_close(tournament=tournament, user=request.user)
        return Response(presenters.ranking_data(closed))


class SettlementApi(TournamentApi):
    """Who owes whom over the tournament: its tables' results, payments for them, and the
    fees and prizes booked at the close; the fewest transfers that clear them (members)."""

    @extend_schema(responses=SettlementSerializer)
    def get(self, request: Request, slug: str, tournament_id: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id)
        plan = selectors.settlement(tournament=tournament)
        return Response(
            {
                "balances": {plan.names[k]: v for k, v in plan.balances.items()},
                "transfers": [
                    {"payer": plan.names[a], "payee": plan.names[b], "amount": amount}
                    for a, b, amount in plan.transfers
                ],
            }
        )


def _link_data(request: Request, link: TournamentLink) -> dict[str, Any]:
    return {
        "id": link.pk,
        "url": request.build_absolute_uri(reverse("tournament-link-page", args=[link.key])),
        "created_at": serializers.DateTimeField().to_representation(link.created_at),
    }


class LinkListCreateApi(TournamentApi):
    """The open ranking links for a screen in the room, and opening one (organisers)."""

    @extend_schema(responses=LinkSerializer(many=True))
    def get(self, request: Request, slug: str, tournament_id: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id, Role.ADMIN)
        links = tournament.links.filter(revoked_at__isnull=True).order_by("-created_at", "-id")
        return Response([_link_data(request, link) for link in links])

    @extend_schema(request=None, responses={201: LinkSerializer})
    def post(self, request: Request, slug: str, tournament_id: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id, Role.ADMIN)
        link = services.ranking_link_create(tournament=tournament)
        return Response(_link_data(request, link), status=status.HTTP_201_CREATED)


class LinkRevokeApi(TournamentApi):
    """Revoke a ranking link: it answers 404 from now on (organisers)."""

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request, slug: str, tournament_id: int, link_id: int) -> Response:
        tournament, _role = access.tournament_for(request.user, slug, tournament_id, Role.ADMIN)
        link = tournament.links.filter(pk=link_id).first()
        if link is None:
            raise Http404
        services.ranking_link_revoke(link=link)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LinkRankingApi(TournamentApi):
    """The live ranking behind a link, for anyone holding it (no login; 404 when revoked)."""

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(responses=RankingSerializer)
    def get(self, request: Request, key: str) -> Response:
        tournament = selectors.link_tournament(key=key)
        if tournament is None:
            raise Http404
        return Response(presenters.ranking_data(tournament))
