"""URLs of the clubs API, included under /api/."""

from __future__ import annotations

from django.urls import path

import clubs.converters  # noqa: F401  (registers <invitation_token:...>)
from clubs import apis

auth_patterns = [
    path("auth/token/", apis.AuthTokenApi.as_view(), name="auth-token"),
    path("auth/signup/", apis.AuthSignupApi.as_view(), name="auth-signup"),
    path("auth/me/", apis.AuthMeApi.as_view(), name="auth-me"),
    path("auth/password/", apis.AuthPasswordApi.as_view(), name="auth-password"),
]

club_patterns = [
    path("clubs/", apis.ClubListApi.as_view(), name="club-list"),
    path("clubs/create/", apis.ClubCreateApi.as_view(), name="club-create"),
    path("clubs/<slug:slug>/", apis.ClubDetailApi.as_view(), name="club-detail"),
    path("clubs/<slug:slug>/update/", apis.ClubUpdateApi.as_view(), name="club-update"),
    path(
        "clubs/<slug:slug>/memberships/",
        apis.MembershipListApi.as_view(),
        name="membership-list",
    ),
    path(
        "clubs/<slug:slug>/memberships/<int:membership_id>/role/",
        apis.MembershipRoleChangeApi.as_view(),
        name="membership-role-change",
    ),
    path(
        "clubs/<slug:slug>/memberships/<int:membership_id>/remove/",
        apis.MembershipRemoveApi.as_view(),
        name="membership-remove",
    ),
    path(
        "clubs/<slug:slug>/memberships/<int:membership_id>/password-link/",
        apis.MembershipPasswordLinkApi.as_view(),
        name="membership-password-link",
    ),
    path(
        "clubs/<slug:slug>/invitations/",
        apis.InvitationListApi.as_view(),
        name="invitation-list",
    ),
    path(
        "clubs/<slug:slug>/invitations/create/",
        apis.InvitationCreateApi.as_view(),
        name="invitation-create",
    ),
    path(
        "clubs/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        apis.InvitationRevokeApi.as_view(),
        name="invitation-revoke",
    ),
    path("clubs/<slug:slug>/players/", apis.PlayerListApi.as_view(), name="player-list"),
    path("clubs/<slug:slug>/players/create/", apis.PlayerCreateApi.as_view(), name="player-create"),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/update/",
        apis.PlayerUpdateApi.as_view(),
        name="player-update",
    ),
    path("clubs/<slug:slug>/seasons/", apis.SeasonListApi.as_view(), name="season-list"),
    path("clubs/<slug:slug>/seasons/create/", apis.SeasonCreateApi.as_view(), name="season-create"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/close/",
        apis.SeasonCloseApi.as_view(),
        name="season-close",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/reopen/",
        apis.SeasonReopenApi.as_view(),
        name="season-reopen",
    ),
    path(
        "clubs/<slug:slug>/rule-profiles/",
        apis.RuleProfileListApi.as_view(),
        name="rule-profile-list",
    ),
    path(
        "clubs/<slug:slug>/rule-profiles/create/",
        apis.RuleProfileCreateApi.as_view(),
        name="rule-profile-create",
    ),
    path(
        "clubs/<slug:slug>/rule-profiles/<int:rule_profile_id>/update/",
        apis.RuleProfileUpdateApi.as_view(),
        name="rule-profile-update",
    ),
]

invitation_patterns = [
    path(
        "invitations/<invitation_token:token>/",
        apis.InvitationDetailApi.as_view(),
        name="invitation-detail",
    ),
    path(
        "invitations/<invitation_token:token>/accept/",
        apis.InvitationAcceptApi.as_view(),
        name="invitation-accept-api",
    ),
]

rule_patterns = [
    path("house-rules/<str:game_kind>/", apis.HouseRuleListApi.as_view(), name="house-rule-list"),
]

urlpatterns = auth_patterns + club_patterns + invitation_patterns + rule_patterns
