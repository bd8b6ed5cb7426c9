"""The evenings: list, open, show, close, reopen, delete, seat and unseat players."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import GameKind, Player, Role, RuleProfile, Season
from clubs.permissions import membership_for
from games import selectors, services
from games.apis.base import ConflictSerializer, GamesApi
from games.apis.serializers import EveningDetailSerializer, EveningOutputSerializer
from games.checks import MAX_ID
from stichbuch.api import StrictCharField, paginated_response

# --- Evenings -------------------------------------------------------------------------------


class EveningListCreateApi(GamesApi):
    """GET: the club's evenings, newest first. POST: open an evening (scorers and up)."""

    class FilterSerializer(serializers.Serializer[Any]):
        season = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)

    class InputSerializer(serializers.Serializer[Any]):
        season = serializers.IntegerField(min_value=1, max_value=MAX_ID)
        game_kind = serializers.ChoiceField(choices=GameKind.choices, required=False)
        date = serializers.DateField(required=False, help_text="Default: today, club time.")
        place = StrictCharField(max_length=100, required=False, allow_blank=True, default="")
        players = serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
            min_length=4,
            max_length=6,
            help_text="Player ids in clockwise seat order (Fuchsen 4–6, Königrufen 4).",
        )
        rule_profile = serializers.IntegerField(
            required=False, allow_null=True, min_value=1, max_value=MAX_ID
        )

    @extend_schema(parameters=[FilterSerializer], responses=EveningOutputSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug).club
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        season = None
        if "season" in filters.validated_data:
            season = Season.objects.filter(club=club, pk=filters.validated_data["season"]).first()
            if season is None:
                raise Http404
        return paginated_response(
            serializer_class=EveningOutputSerializer,
            queryset=selectors.evening_list(club=club, season=season),
            request=request,
            view=self,
        )

    @extend_schema(request=InputSerializer, responses={201: EveningDetailSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug, Role.SCORER).club
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        season = Season.objects.filter(club=club, pk=data.pop("season")).first()
        if season is None:
            raise serializers.ValidationError({"season": [_("No such season in this club.")]})
        profile_id = data.pop("rule_profile", None)
        profile = None
        if profile_id is not None:
            profile = RuleProfile.objects.filter(club=club, pk=profile_id).first()
            if profile is None:
                raise serializers.ValidationError(
                    {"rule_profile": [_("No such rule profile in this club.")]}
                )
        evening = services.evening_create(
            club=club, user=request.user, season=season, rule_profile=profile, **data
        )
        return Response(EveningDetailSerializer(evening).data, status=status.HTTP_201_CREATED)


class EveningDetailApi(GamesApi):
    """An evening with its seats, its games and the proposed next deal."""

    @extend_schema(responses=EveningDetailSerializer)
    def get(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.MEMBER)
        return Response(EveningDetailSerializer(evening).data)


class EveningCloseApi(GamesApi):
    """Close the evening: no more games, seats or events (409 if already closed)."""

    @extend_schema(request=None, responses={200: EveningDetailSerializer, 409: ConflictSerializer})
    def post(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.SCORER)
        evening = services.evening_close(evening=evening, user=request.user)
        return Response(EveningDetailSerializer(evening).data)


class EveningReopenApi(GamesApi):
    """Open a closed evening again (admins and up; 409 if it is open or its season closed)."""

    @extend_schema(request=None, responses={200: EveningDetailSerializer, 409: ConflictSerializer})
    def post(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.ADMIN)
        evening = services.evening_reopen(evening=evening, user=request.user)
        return Response(EveningDetailSerializer(evening).data)


class EveningDeleteApi(GamesApi):
    """Delete an evening opened by mistake, while nothing is recorded in it (scorers
    and up; 409 once it holds a game, payment or plan). 204, also if it is gone."""

    @extend_schema(request=None, responses={204: None, 409: ConflictSerializer})
    def post(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.SCORER)
        services.evening_delete(evening=evening)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EveningSeatAddApi(GamesApi):
    """Seat a player between games; those at ``position`` and after move one seat on."""

    class InputSerializer(serializers.Serializer[Any]):
        player = serializers.IntegerField(min_value=1, max_value=MAX_ID)
        position = serializers.IntegerField(
            min_value=1,
            max_value=1000,
            required=False,
            allow_null=True,
            help_text="1 = first seat; default last.",
        )

    @extend_schema(
        request=InputSerializer, responses={201: EveningDetailSerializer, 409: ConflictSerializer}
    )
    def post(self, request: Request, evening_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.SCORER)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = Player.objects.filter(
            club_id=evening.club_id, pk=serializer.validated_data["player"]
        ).first()
        if player is None:
            raise serializers.ValidationError({"player": [_("No such player in this club.")]})
        services.evening_seat_add(
            evening=evening, player=player, position=serializer.validated_data.get("position")
        )
        return Response(EveningDetailSerializer(evening).data, status=status.HTTP_201_CREATED)


class EveningSeatRemoveApi(GamesApi):
    """The player leaves the table between games (his seat stays in the history)."""

    @extend_schema(request=None, responses={204: None, 409: ConflictSerializer})
    def delete(self, request: Request, evening_id: int, player_id: int) -> Response:
        evening = self.evening_for(request, evening_id, Role.SCORER)
        player = Player.objects.filter(club_id=evening.club_id, pk=player_id).first()
        if player is None:
            raise Http404
        services.evening_seat_remove(evening=evening, player=player)
        return Response(status=status.HTTP_204_NO_CONTENT)
