"""Accounts: logging in for a token, signing up, changing the password, who one is."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import (
    authenticate,
    get_user_model,
    password_validation,
    update_session_auth_hash,
)
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import services
from clubs.models import ApiToken, Membership
from clubs.names import username_clean
from stichbuch.throttling import AuthRateThrottle


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
