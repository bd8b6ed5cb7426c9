"""The clubs REST API: one view per operation, validate → service → serialize.

Everything of a club lives under ``/api/clubs/{slug}/``; a non-member gets a 404
for all of it, a member whose role is too low a 403 (``clubs.permissions``).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib.auth import (
    authenticate,
    get_user_model,
    password_validation,
    update_session_auth_hash,
)
from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import engine
from clubs import selectors, services
from clubs.models import (
    ApiToken,
    Club,
    GameKind,
    Invitation,
    Membership,
    Player,
    Role,
    RuleProfile,
    Season,
)
from clubs.names import username_clean
from clubs.permissions import membership_for
from stichbuch.api import (
    StrictBooleanField,
    StrictCharField,
    StrictDateField,
    StrictSlugField,
    paginated_response,
)
from stichbuch.schema_fields import ObjectField, TimeZoneField
from stichbuch.throttling import AuthRateThrottle

T = TypeVar("T")


def get_or_404(getter: Callable[..., T], **kwargs: Any) -> T:
    """Call a selector's ``*_get``; a missing object (in this club) is a 404."""
    try:
        return getter(**kwargs)
    except ObjectDoesNotExist:
        raise Http404 from None


# --- Output serializers shared by several views ------------------------------------------


class ClubOutputSerializer(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["slug", "name", "time_zone", "currency_unit", "card_face", "created_at"]


class MembershipOutputSerializer(serializers.ModelSerializer[Membership]):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = Membership
        fields = ["id", "username", "role", "joined_at"]


class PlayerOutputSerializer(serializers.ModelSerializer[Player]):
    username = serializers.CharField(source="user.username", default=None, allow_null=True)

    class Meta:
        model = Player
        fields = ["id", "display_name", "username", "is_active", "is_guest"]


class InvitationOutputSerializer(serializers.ModelSerializer[Invitation]):
    club = serializers.CharField(source="club.slug")
    club_name = serializers.CharField(source="club.name")
    player = serializers.IntegerField(source="player_id", read_only=True, allow_null=True)
    player_name = serializers.CharField(source="player.display_name", default=None, allow_null=True)
    created_by = serializers.CharField(
        source="created_by.username",
        default=None,
        allow_null=True,
        read_only=True,
        help_text="The username of the member who made the link (null: his account is gone).",
    )
    accept_url = serializers.SerializerMethodField()
    is_expired = serializers.SerializerMethodField()

    class Meta:
        model = Invitation
        fields = [
            "id",
            "club",
            "club_name",
            "role",
            "token",
            "accept_url",
            "expires_at",
            "is_expired",
            "player",
            "player_name",
            "created_by",
            "created_at",
            "accepted_at",
        ]

    def get_accept_url(self, invitation: Invitation) -> str:
        return reverse("invitation-accept", kwargs={"token": invitation.token})

    def get_is_expired(self, invitation: Invitation) -> bool:
        return invitation.is_expired()


class InvitationPreviewSerializer(InvitationOutputSerializer):
    """What the invitee sees before accepting: no token of anyone else's, no ids."""

    class Meta(InvitationOutputSerializer.Meta):
        fields = ["club", "club_name", "role", "expires_at", "is_expired", "player_name"]


class SeasonOutputSerializer(serializers.ModelSerializer[Season]):
    class Meta:
        model = Season
        fields = ["id", "name", "game_kind", "start", "end", "status", "closed_at", "rule_profile"]


class RuleProfileOutputSerializer(serializers.ModelSerializer[RuleProfile]):
    class Meta:
        model = RuleProfile
        fields = ["id", "name", "game_kind", "overrides", "updated_at"]


# --- Accounts -------------------------------------------------------------------------------


class _AddressOrNullField(serializers.EmailField):
    """An account's e-mail address, or null when it has none (never "")."""

    def to_representation(self, value: Any) -> Any:
        return str(value) if value else None


class UserOutputSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    email = _AddressOrNullField(allow_null=True)
    clubs = serializers.SerializerMethodField()

    def get_clubs(self, user: Any) -> list[dict[str, str]]:
        memberships = Membership.objects.filter(user=user).select_related("club")
        return [
            {"slug": m.club.slug, "name": m.club.name, "role": m.role}
            for m in memberships.order_by("club__name", "club_id")
        ]


class AuthTokenApi(APIView):
    """Exchange a username and password for an API token of one device (send it as
    ``Token <key>``). One token per device: asking again for the same ``device`` ends
    the older token. Tokens expire (``API_TOKEN_DAYS``) and can be revoked on the
    account page."""

    authentication_classes: list[type] = []  # no session: no CSRF needed to log in
    permission_classes = [AllowAny]
    # Per client address, whatever the username: axes locks one name out, this slows
    # down guessing across many names (settings: DEFAULT_THROTTLE_RATES["auth"]).
    throttle_classes = [AuthRateThrottle]
    throttle_scope = "auth"

    class InputSerializer(serializers.Serializer[Any]):
        username = serializers.CharField()
        password = serializers.CharField(trim_whitespace=False, style={"input_type": "password"})
        device = serializers.CharField(
            max_length=100,
            required=False,
            default="API",
            help_text="The device or app the token is for, as the account page lists it.",
        )

    @extend_schema(
        request=InputSerializer,
        responses=inline_serializer("AuthToken", {"token": serializers.CharField()}),
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        # The plain Django request: django-axes counts failures and locks out on it,
        # and its middleware turns a lockout into a 429.
        user = authenticate(
            request._request,
            username=serializer.validated_data["username"],
            password=serializer.validated_data["password"],
        )
        if user is None or not user.is_active:
            return Response(
                {"non_field_errors": [_("Username or password is wrong.")]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        key = services.account_token_login(
            user=user, request=request._request, device=serializer.validated_data["device"]
        )
        return Response({"token": key})


class AuthSignupApi(APIView):
    """Create an account; the answer carries an API token for it."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    throttle_classes = [AuthRateThrottle]
    throttle_scope = "auth"

    class InputSerializer(serializers.Serializer[Any]):
        username = serializers.CharField(
            max_length=150, help_text="Letters, digits and @ . + - _ (normalised: NFKC)."
        )
        email = serializers.EmailField(required=False, allow_blank=True, default="")
        password = serializers.CharField(trim_whitespace=False, style={"input_type": "password"})

        def validate_username(self, value: str) -> str:
            try:
                return username_clean(value)
            except DjangoValidationError as error:
                raise serializers.ValidationError(error.messages) from None

    @extend_schema(
        request=InputSerializer,
        responses={
            201: inline_serializer(
                "AuthSignup",
                {"username": serializers.CharField(), "token": serializers.CharField()},
            )
        },
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        User = get_user_model()
        candidate = User(username=data["username"], email=data["email"])
        try:
            password_validation.validate_password(data["password"], candidate)
        except DjangoValidationError as error:
            raise serializers.ValidationError({"password": list(error.messages)}) from None
        with transaction.atomic():
            user = User.objects.create_user(
                username=data["username"], email=data["email"], password=data["password"]
            )
            token = services.api_token_create(user=user, name="API")
        return Response({"username": user.username, "token": token}, status=status.HTTP_201_CREATED)


class AuthPasswordApi(APIView):
    """Change one's password. Every token of the account is replaced by the one in the
    answer; other sessions end."""

    # Guessing the current password through a stolen token or session is slowed
    # down like logging in.
    throttle_classes = [AuthRateThrottle]
    throttle_scope = "auth"

    class InputSerializer(serializers.Serializer[Any]):
        old_password = serializers.CharField(
            trim_whitespace=False, max_length=4096, style={"input_type": "password"}
        )
        new_password = serializers.CharField(
            trim_whitespace=False, max_length=4096, style={"input_type": "password"}
        )

    @extend_schema(
        request=InputSerializer,
        responses=inline_serializer("AuthPassword", {"token": serializers.CharField()}),
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            token = services.account_password_change(
                user=request.user,
                old_password=serializer.validated_data["old_password"],
                new_password=serializer.validated_data["new_password"],
                issue_token=True,
                # The new token is for the device that asked (a session's: "API").
                device=request.auth.name if isinstance(request.auth, ApiToken) else "API",
            )
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.message_dict) from None
        # A session that made the change stays logged in (the page's own calls).
        user: Any = request.user  # authenticated (the default permission)
        update_session_auth_hash(request._request, user)
        return Response({"token": token})


class AuthMeApi(APIView):
    """Who am I, and of which clubs am I a member."""

    @extend_schema(responses=UserOutputSerializer)
    def get(self, request: Request) -> Response:
        return Response(UserOutputSerializer(request.user).data)


# --- Clubs ----------------------------------------------------------------------------------


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


# --- Memberships ------------------------------------------------------------------------------


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


# --- Invitations ------------------------------------------------------------------------------


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


# --- Players ----------------------------------------------------------------------------------


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


# --- Seasons ----------------------------------------------------------------------------------


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
        name = serializers.CharField(max_length=100)
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


# --- Rule profiles ----------------------------------------------------------------------------


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
