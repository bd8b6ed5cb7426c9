"""A club's players: the list, adding one, renaming or retiring one."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors, services
from clubs.apis.common import PlayerOutputSerializer, get_or_404
from clubs.models import Role
from clubs.permissions import membership_for
from stichbuch.api import StrictBooleanField, StrictCharField, paginated_response


class PlayerListApi(APIView):
    class FilterSerializer(serializers.Serializer[Any]):
        active = serializers.BooleanField(required=False, allow_null=True, default=None)

    @extend_schema(parameters=[FilterSerializer], responses=PlayerOutputSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug).club
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        return paginated_response(
            serializer_class=PlayerOutputSerializer,
            queryset=selectors.player_list(club=club, active=filters.validated_data["active"]),
            request=request,
            view=self,
        )


class PlayerCreateApi(APIView):
    """Add a guest player (scorers too: a guest turns up at the table)."""

    class InputSerializer(serializers.Serializer[Any]):
        display_name = StrictCharField(max_length=60)

    @extend_schema(request=InputSerializer, responses={201: PlayerOutputSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug, Role.SCORER).club
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = services.player_create(club=club, **serializer.validated_data)
        return Response(PlayerOutputSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerUpdateApi(APIView):
    class InputSerializer(serializers.Serializer[Any]):
        display_name = StrictCharField(max_length=60, required=False)
        is_active = StrictBooleanField(required=False)

    @extend_schema(request=InputSerializer, responses=PlayerOutputSerializer)
    def post(self, request: Request, slug: str, player_id: int) -> Response:
        club = membership_for(request.user, slug, Role.ADMIN).club
        player = get_or_404(selectors.player_get, club=club, player_id=player_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = services.player_update(player=player, **serializer.validated_data)
        return Response(PlayerOutputSerializer(player).data)
