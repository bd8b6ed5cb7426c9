"""A club's rule profiles, and the house rules there are."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import engine
from clubs import selectors, services
from clubs.apis.common import RuleProfileOutputSerializer, get_or_404
from clubs.models import GameKind, Role
from clubs.permissions import membership_for
from stichbuch.api import StrictCharField, paginated_response
from stichbuch.schema_fields import ObjectField


class RuleProfileListApi(APIView):
    @extend_schema(responses=RuleProfileOutputSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug).club
        return paginated_response(
            serializer_class=RuleProfileOutputSerializer,
            queryset=selectors.rule_profile_list(club=club),
            request=request,
            view=self,
        )


class RuleProfileCreateApi(APIView):
    """Save house rules; a bad key or value is a 400 naming the key."""

    class InputSerializer(serializers.Serializer[Any]):
        name = StrictCharField(max_length=100)
        game_kind = serializers.ChoiceField(choices=GameKind.choices)
        overrides = ObjectField(default=dict)

    @extend_schema(request=InputSerializer, responses={201: RuleProfileOutputSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug, Role.ADMIN).club
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        profile = services.rule_profile_create(club=club, **serializer.validated_data)
        return Response(RuleProfileOutputSerializer(profile).data, status=status.HTTP_201_CREATED)


class RuleProfileUpdateApi(APIView):
    class InputSerializer(serializers.Serializer[Any]):
        name = StrictCharField(max_length=100, required=False)
        overrides = ObjectField(required=False)

    @extend_schema(request=InputSerializer, responses=RuleProfileOutputSerializer)
    def post(self, request: Request, slug: str, rule_profile_id: int) -> Response:
        club = membership_for(request.user, slug, Role.ADMIN).club
        profile = get_or_404(selectors.rule_profile_get, club=club, rule_profile_id=rule_profile_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        profile = services.rule_profile_update(rule_profile=profile, **serializer.validated_data)
        return Response(RuleProfileOutputSerializer(profile).data)


class HouseRuleListApi(APIView):
    """The house rules a club may change for a game, with their defaults."""

    @extend_schema(
        responses=inline_serializer(
            "HouseRule",
            {
                "key": serializers.CharField(),
                "default": serializers.JSONField(),
                "kind": serializers.CharField(),
                "doc": serializers.CharField(),
            },
            many=True,
        )
    )
    def get(self, request: Request, game_kind: str) -> Response:
        if game_kind not in GameKind.values:
            raise Http404
        return Response(
            [
                {"key": rule.key, "default": rule.default, "kind": rule.kind, "doc": rule.doc}
                for rule in engine.house_rules(game_kind).values()
            ]
        )
