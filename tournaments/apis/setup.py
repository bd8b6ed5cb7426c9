"""Setting up a tournament and reading it; participants joining and leaving."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import Player, Role, RuleProfile, Season
from stichbuch.api import StrictCharField, StrictDateField, paginated_response
from tournaments import access, presenters, selectors, services
from tournaments.apis.common import (
    ParticipantSerializer,
    TournamentApi,
    TournamentSerializer,
)


class TournamentListItemSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game_kind = serializers.CharField()
    date = serializers.DateField()
    status = serializers.CharField()


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
