"""The HTML pages of accounts and clubs: thin views over the same services as the API.

One module per use case: ``accounts`` (signing up, the password, its reset and
the links an admin hands on, API tokens), ``clubs`` (a club's page and settings,
its seasons), ``players``, ``memberships`` (members, their roles, invitations).
"""

from clubs.views.accounts import (
    PasswordLinkConfirmView,
    PasswordResetConfirmView,
    PasswordResetView,
    _ResetAccountThrottle,
    _ResetThrottle,
    api_token_revoke,
    password_change,
    signup,
)
from clubs.views.clubs import (
    _form_errors,
    club_create,
    club_page,
    club_settings,
    season_close,
    season_create,
    season_reopen,
)
from clubs.views.memberships import (
    invitation_accept,
    invitation_create,
    invitation_revoke,
    membership_remove,
    membership_role,
    password_link,
)
from clubs.views.players import player_active, player_create, player_rename

__all__ = [
    "PasswordLinkConfirmView",
    "PasswordResetConfirmView",
    "PasswordResetView",
    "_ResetAccountThrottle",
    "_ResetThrottle",
    "_form_errors",
    "api_token_revoke",
    "club_create",
    "club_page",
    "club_settings",
    "invitation_accept",
    "invitation_create",
    "invitation_revoke",
    "membership_remove",
    "membership_role",
    "password_change",
    "password_link",
    "player_active",
    "player_create",
    "player_rename",
    "season_close",
    "season_create",
    "season_reopen",
    "signup",
]
