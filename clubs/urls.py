"""URLs of the account and club pages."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

import clubs.converters  # noqa: F401  (registers <invitation_token:...>)
from clubs import views
from stichbuch.pages import LogoutView

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", LogoutView.as_view(), name="logout"),
    path("accounts/password/", views.password_change, name="password-change"),
    path(
        "accounts/tokens/<int:token_id>/revoke/",
        views.api_token_revoke,
        name="api-token-revoke",
    ),
    path("accounts/password/reset/", views.PasswordResetView.as_view(), name="password-reset"),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(
            template_name="registration/password_reset_sent.html"
        ),
        name="password-reset-done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password-reset-confirm",
    ),
    path(
        "accounts/password/reset/<uidb64>/<actor>/<token>/",
        views.PasswordLinkConfirmView.as_view(),
        name="password-link-confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="registration/password_reset_complete.html"
        ),
        name="password-reset-complete",
    ),
    path("clubs/new/", views.club_create, name="club-create-page"),
    path("clubs/<slug:slug>/", views.club_page, name="club-page"),
    path("clubs/<slug:slug>/settings/", views.club_settings, name="club-settings-page"),
    path(
        "clubs/<slug:slug>/invitations/new/",
        views.invitation_create,
        name="invitation-create-page",
    ),
    path("clubs/<slug:slug>/players/new/", views.player_create, name="player-create-page"),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/active/",
        views.player_active,
        name="player-active-page",
    ),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/rename/",
        views.player_rename,
        name="player-rename-page",
    ),
    path("clubs/<slug:slug>/seasons/new/", views.season_create, name="season-create-page"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/close/",
        views.season_close,
        name="season-close-page",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/reopen/",
        views.season_reopen,
        name="season-reopen-page",
    ),
    path(
        "clubs/<slug:slug>/members/<int:membership_id>/role/",
        views.membership_role,
        name="membership-role-page",
    ),
    path(
        "clubs/<slug:slug>/members/<int:membership_id>/remove/",
        views.membership_remove,
        name="membership-remove-page",
    ),
    path(
        "clubs/<slug:slug>/members/<int:membership_id>/password-link/",
        views.password_link,
        name="password-link-page",
    ),
    path(
        "clubs/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        views.invitation_revoke,
        name="invitation-revoke-page",
    ),
    path("join/<invitation_token:token>/", views.invitation_accept, name="invitation-accept"),
]
