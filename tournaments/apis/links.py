"""Ranking links for a screen in the room: opened, listed, revoked, and the ranking behind one."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import Role
from tournaments import access, presenters, selectors, services
from tournaments.apis.common import (
    TournamentApi,
)
from tournaments.apis.ranking import RankingSerializer
from tournaments.models import TournamentLink


class LinkSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.CharField()
    created_at = serializers.DateTimeField()


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
