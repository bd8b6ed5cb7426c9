"""URLs of the account and club pages."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

import clubs.converters  # noqa: F401  (registers <invitation_token:...>)
from clubs import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", views.password_change, name="password-change"),
    path("clubs/new/", views.club_create, name="club-create-page"),
    path("clubs/<slug:slug>/", views.club_page, name="club-page"),
    path(
        "clubs/<slug:slug>/invitations/new/",
        views.invitation_create,
        name="invitation-create-page",
    ),
    path("join/<invitation_token:token>/", views.invitation_accept, name="invitation-accept"),
]
