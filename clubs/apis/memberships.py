"""Members, their roles and password links, and the invitations that make a member."""

from __future__ import annotations

import datetime
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors, services
from clubs.apis.common import (
    InvitationOutputSerializer,
    InvitationPreviewSerializer,
    MembershipOutputSerializer,
    get_or_404,
)
from clubs.models import Invitation, Player, Role
from clubs.permissions import membership_for
from stichbuch.api import paginated_response


class MembershipListApi(APIView):
    @extend_schema(responses=MembershipOutputSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug).club
        return paginated_response(
            serializer_class=MembershipOutputSerializer,
            queryset=selectors.membership_list(club=club),
            request=request,
            view=self,
        )


class MembershipRoleChangeApi(APIView):
    """Give a member another role (owner/admin; only an owner grants or takes "owner")."""

    class InputSerializer(serializers.Serializer[Any]):
        role = serializers.ChoiceField(choices=Role.choices)

    @extend_schema(request=InputSerializer, responses=MembershipOutputSerializer)
    def post(self, request: Request, slug: str, membership_id: int) -> Response:
        club = membership_for(request.user, slug, Role.ADMIN).club
        target = get_or_404(selectors.membership_get, club=club, membership_id=membership_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        target = services.membership_change_role(
            membership=target, role=serializer.validated_data["role"], actor=request.user
        )
        return Response(MembershipOutputSerializer(target).data)


class MembershipPasswordLinkApi(APIView):
    """Make a member a one-time link to set a new password, for a member without e-mail
    (owner/admin, ranking above him in every club he belongs to). The answer is the
    only place the link appears; it is not stored."""

    @extend_schema(
        request=None,
        responses={
            201: inline_serializer(
                "PasswordLink",
                {"url": serializers.URLField(), "expires_at": serializers.DateTimeField()},
            )
        },
    )
    def post(self, request: Request, slug: str, membership_id: int) -> Response:
        club = membership_for(request.user, slug, Role.ADMIN).club
        target = get_or_404(selectors.membership_get, club=club, membership_id=membership_id)
        path, expires = services.password_link_create(membership=target, actor=request.user)
        response = Response(
            {
                "url": request.build_absolute_uri(path),
                "expires_at": serializers.DateTimeField().to_representation(expires),
            },
            status=status.HTTP_201_CREATED,
        )
        response["Cache-Control"] = "no-store"
        return response


class MembershipRemoveApi(APIView):
    """Remove a member (owner/admin), or leave the club yourself (anyone)."""

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request, slug: str, membership_id: int) -> Response:
        mine = membership_for(request.user, slug)
        target = get_or_404(selectors.membership_get, club=mine.club, membership_id=membership_id)
        if target.pk != mine.pk:
            membership_for(request.user, slug, Role.ADMIN)
        services.membership_remove(membership=target, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationListApi(APIView):
    """The club's invitations with their links (owner/admin: the tokens are secrets)."""

    @extend_schema(responses=InvitationOutputSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug, Role.ADMIN).club
        return paginated_response(
            serializer_class=InvitationOutputSerializer,
            queryset=selectors.invitation_list(club=club),
            request=request,
            view=self,
        )


class InvitationCreateApi(APIView):
    """Create an invitation link, optionally offering a guest player to claim."""

    class InputSerializer(serializers.Serializer[Any]):
        role = serializers.ChoiceField(choices=Role.choices, default=Role.MEMBER)
        player = serializers.IntegerField(required=False, allow_null=True, min_value=1)
        days_valid = serializers.IntegerField(min_value=1, max_value=90, default=14)

    @extend_schema(request=InputSerializer, responses={201: InvitationOutputSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = membership_for(request.user, slug, Role.ADMIN).club
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        player = None
        if data.get("player") is not None:
            player = Player.objects.filter(club=club, pk=data["player"]).first()
            if player is None:
                raise serializers.ValidationError({"player": [_("No such player in this club.")]})
        invitation = services.invitation_create(
            club=club,
            created_by=request.user,
            role=data["role"],
            player=player,
            lifetime=datetime.timedelta(days=data["days_valid"]),
        )
        return Response(InvitationOutputSerializer(invitation).data, status=status.HTTP_201_CREATED)


class InvitationRevokeApi(APIView):
    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request, slug: str, invitation_id: int) -> Response:
        club = membership_for(request.user, slug, Role.ADMIN).club
        invitation = Invitation.objects.filter(club=club, pk=invitation_id).first()
        if invitation is None:
            raise Http404
        services.invitation_revoke(invitation=invitation)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationDetailApi(APIView):
    """What an invitation offers, for anyone logged in who holds its token."""

    @extend_schema(responses=InvitationPreviewSerializer)
    def get(self, request: Request, token: str) -> Response:
        invitation = get_or_404(selectors.invitation_get_by_token, token=token)
        return Response(InvitationPreviewSerializer(invitation).data)


class InvitationAcceptApi(APIView):
    """Accept an invitation: join its club with its role (and claim its guest player)."""

    @extend_schema(request=None, responses=MembershipOutputSerializer)
    def post(self, request: Request, token: str) -> Response:
        get_or_404(selectors.invitation_get_by_token, token=token)
        membership = services.invitation_accept(token=token, user=request.user)
        data = MembershipOutputSerializer(membership).data
        data["club"] = membership.club.slug
        return Response(data)
