"""The live app's REST API: a game's history, an evening's change log (members read);
live links (scorers open and revoke them) and the live state behind a link (anyone)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.http import Http404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Role
from games.models import Game
from live import access, selectors, services
from live.models import LiveLink


class HistoryEventSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    payload = serializers.DictField()
    recorded_by = serializers.CharField(allow_null=True)
    recorded_at = serializers.DateTimeField()
    undone_by = serializers.IntegerField(
        allow_null=True, help_text="seq of the undo that removed this event"
    )
    annulled = serializers.BooleanField(help_text="it stands, but the game was annulled")
    after_decision = serializers.BooleanField(help_text="a show once the game was decided")
    status = serializers.CharField(
        allow_null=True, help_text="the game's status after it, where it changed"
    )


class GameHistorySerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    started_by = serializers.CharField(allow_null=True)
    started_at = serializers.DateTimeField()
    events = HistoryEventSerializer(many=True)


class LogEntrySerializer(serializers.Serializer[Any]):
    at = serializers.DateTimeField()
    kind = serializers.ChoiceField(choices=selectors.KINDS)
    by = serializers.CharField(allow_null=True)
    game_id = serializers.IntegerField(allow_null=True)
    game_number = serializers.IntegerField(allow_null=True)
    seq = serializers.IntegerField(allow_null=True)
    payment_id = serializers.IntegerField(allow_null=True)
    amount = serializers.IntegerField(allow_null=True)
    payer = serializers.CharField(allow_null=True)
    payee = serializers.CharField(allow_null=True)
    reverses = serializers.IntegerField(allow_null=True)


_datetime = serializers.DateTimeField()


def history_data(game: Game) -> dict[str, Any]:
    history = selectors.game_history(game=game)
    return {
        "game": game.pk,
        "number": game.number,
        "status": game.status,
        "started_by": history.started_by,
        "started_at": _datetime.to_representation(history.started_at),
        "events": [
            {**asdict(event), "recorded_at": _datetime.to_representation(event.recorded_at)}
            for event in history.events
        ],
    }


class GameHistoryApi(APIView):
    """Who recorded each event of the game and when; undone and annulled ones marked."""

    @extend_schema(responses=GameHistorySerializer)
    def get(self, request: Request, game_id: int) -> Response:
        game = access.game_for(request.user, game_id)
        return Response(history_data(game))


class EveningLogApi(APIView):
    """The evening's change log: games started, annulled, reopened; the evening closed
    and reopened; payments booked and reversed; settlement transfers marked paid."""

    @extend_schema(responses=LogEntrySerializer(many=True))
    def get(self, request: Request, evening_id: int) -> Response:
        evening = access.evening_for(request.user, evening_id)
        return Response(
            [
                {**asdict(entry), "at": _datetime.to_representation(entry.at)}
                for entry in selectors.evening_log(evening=evening)
            ]
        )


class LiveLinkSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.CharField(help_text="The read-only live view; its token is the secret.")
    created_at = serializers.DateTimeField()


def _link_data(request: Request, link: LiveLink) -> dict[str, Any]:
    return {
        "id": link.pk,
        "url": request.build_absolute_uri(reverse("live-page", args=[services.link_token(link)])),
        "created_at": _datetime.to_representation(link.created_at),
    }


class LiveLinkListCreateApi(APIView):
    """The evening's open live links (scorers and up), and opening a new one."""

    @extend_schema(responses=LiveLinkSerializer(many=True))
    def get(self, request: Request, evening_id: int) -> Response:
        evening = access.evening_for(request.user, evening_id, Role.SCORER)
        return Response(
            [_link_data(request, link) for link in selectors.live_links(evening=evening)]
        )

    @extend_schema(request=None, responses={201: LiveLinkSerializer})
    def post(self, request: Request, evening_id: int) -> Response:
        evening = access.evening_for(request.user, evening_id, Role.SCORER)
        link = services.live_link_create(evening=evening, user=request.user)
        return Response(_link_data(request, link), status=status.HTTP_201_CREATED)


class LiveLinkRevokeApi(APIView):
    """Revoke a live link: it answers 404 from now on."""

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request, evening_id: int, link_id: int) -> Response:
        evening = access.evening_for(request.user, evening_id, Role.SCORER)
        link = LiveLink.objects.filter(pk=link_id, evening=evening).first()
        if link is None:
            raise Http404
        services.live_link_revoke(link=link)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LiveStateApi(APIView):
    """The live state behind a link, for anyone holding it (no account); read-only."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: None})
    def get(self, request: Request, token: str) -> Response:
        key = services.link_key(token)
        link = selectors.live_link_get(key=key) if key is not None else None
        if link is None:
            raise Http404
        return Response(selectors.live_state(evening=link.evening))
