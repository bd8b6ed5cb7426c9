"""Clubs and their seasons: list, make and change a club; open, close, reopen a season."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors, services
from clubs.apis.common import ClubOutputSerializer, SeasonOutputSerializer, get_or_404
from clubs.models import Club, GameKind, Role, RuleProfile
from clubs.permissions import membership_for
from stichbuch.api import StrictCharField, StrictDateField, StrictSlugField, paginated_response
from stichbuch.schema_fields import TimeZoneField


class ClubListApi(APIView):
    """The clubs I am a member of."""

    @extend_schema(responses=ClubOutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        return paginated_response(
            serializer_class=ClubOutputSerializer,
            queryset=selectors.club_list_for_user(user=request.user),
            request=request,
            view=self,
        )


class ClubCreateApi(APIView):
    """Found a club: its creator becomes its owner."""

    class InputSerializer(serializers.Serializer[Any]):
        name = StrictCharField(max_length=100)
        slug = StrictSlugField(max_length=60, required=False)
        time_zone = TimeZoneField(default="Europe/Vienna")
        currency_unit = serializers.ChoiceField(
            choices=Club.CurrencyUnit.choices, default=Club.CurrencyUnit.CENT
        )
        card_face = serializers.ChoiceField(
            choices=Club.CardFace.choices, default=Club.CardFace.GERMAN
        )

    @extend_schema(request=InputSerializer, responses={201: ClubOutputSerializer})
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        club = services.club_create(creator=request.user, **serializer.validated_data)
        return Response(ClubOutputSerializer(club).data, status=status.HTTP_201_CREATED)


class ClubDetailApi(APIView):
    class OutputSerializer(ClubOutputSerializer):
        my_role = serializers.SerializerMethodField()

        class Meta(ClubOutputSerializer.Meta):
            fields = [*ClubOutputSerializer.Meta.fields, "my_role"]

        def get_my_role(self, club: Club) -> str:
            return str(self.context["role"])

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, slug: str) -> Response:
        membership = membership_for(request.user, slug)
        return Response(
            self.OutputSerializer(membership.club, context={"role": membership.role}).data
        )


class ClubUpdateApi(APIView):
    """Change the club's name, time zone, unit or card faces (owner/admin)."""

    class InputSerializer(serializers.Serializer[Any]):
        name = StrictCharField(max_length=100, required=False)
        time_zone = TimeZoneField(required=False)
        currency_unit = serializers.ChoiceField(choices=Club.CurrencyUnit.choices, required=False)
        card_face = serializers.ChoiceField(choices=Club.CardFace.choices, required=False)

    @extend_schema(request=InputSerializer, responses=ClubOutputSerializer)
    def post(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug, Role.ADMIN).club
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        club = services.club_update(club=club, **serializer.validated_data)
        return Response(ClubOutputSerializer(club).data)


class SeasonListApi(APIView):
    class FilterSerializer(serializers.Serializer[Any]):
        game_kind = serializers.ChoiceField(choices=GameKind.choices, required=False)

    @extend_schema(parameters=[FilterSerializer], responses=SeasonOutputSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug).club
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        return paginated_response(
            serializer_class=SeasonOutputSerializer,
            queryset=selectors.season_list(
                club=club, game_kind=filters.validated_data.get("game_kind")
            ),
            request=request,
            view=self,
        )


class SeasonCreateApi(APIView):
    """Open a season (owner/admin); one open season per game at a time."""

    class InputSerializer(serializers.Serializer[Any]):
        name = StrictCharField(max_length=100)
        game_kind = serializers.ChoiceField(choices=GameKind.choices)
        start = serializers.DateField()
        end = StrictDateField(required=False, allow_null=True, default=None)
        rule_profile = serializers.IntegerField(required=False, allow_null=True, min_value=1)

    @extend_schema(request=InputSerializer, responses={201: SeasonOutputSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug, Role.ADMIN).club
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        profile_id = data.pop("rule_profile", None)
        profile = None
        if profile_id is not None:
            profile = RuleProfile.objects.filter(club=club, pk=profile_id).first()
            if profile is None:
                raise serializers.ValidationError(
                    {"rule_profile": [_("No such rule profile in this club.")]}
                )
        season = services.season_create(club=club, rule_profile=profile, **data)
        return Response(SeasonOutputSerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonCloseApi(APIView):
    class InputSerializer(serializers.Serializer[Any]):
        end = StrictDateField(required=False, allow_null=True, default=None)

    @extend_schema(request=InputSerializer, responses=SeasonOutputSerializer)
    def post(self, request: Request, slug: str, season_id: int) -> Response:
        club = membership_for(request.user, slug, Role.ADMIN).club
        season = get_or_404(selectors.season_get, club=club, season_id=season_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        season = services.season_close(
            season=season, end=serializer.validated_data["end"], user=request.user
        )
        return Response(SeasonOutputSerializer(season).data)


class SeasonReopenApi(APIView):
    """Open a closed season again (admins; 400 if it is open or another season of its
    game is)."""

    @extend_schema(request=None, responses=SeasonOutputSerializer)
    def post(self, request: Request, slug: str, season_id: int) -> Response:
        club = membership_for(request.user, slug, Role.ADMIN).club
        season = get_or_404(selectors.season_get, club=club, season_id=season_id)
        season = services.season_reopen(season=season)
        return Response(SeasonOutputSerializer(season).data)
