"""Writes of the clubs app: keyword-only functions, each one transaction.

They raise Django's ``ValidationError`` (keyed by field where one is to blame)
for anything a user can get wrong; the API turns that into a 400. Permission
to call them is checked by the caller (``clubs.permissions``), except the rules
that depend on *who* acts on *whom* — an admin may not make an owner — which
live here, next to the write they guard.

One module per use case: ``accounts`` (the password, API tokens, password links),
``clubs`` (clubs and their seasons), ``memberships`` (roles and invitations),
``players``, ``rules`` (rule profiles); this package re-exports their functions.
"""

from clubs.services.accounts import (
    PasswordLinkTokenGenerator,
    account_password_change,
    account_token_login,
    account_tokens_revoke,
    api_token_create,
    api_token_revoke,
    password_link_check,
    password_link_create,
)
from clubs.services.clubs import (
    RESERVED_SLUGS,
    club_create,
    club_update,
    season_close,
    season_create,
    season_reopen,
)
from clubs.services.memberships import (
    INVITATION_LIFETIME,
    invitation_accept,
    invitation_create,
    invitation_revoke,
    membership_change_role,
    membership_remove,
)
from clubs.services.players import player_create, player_update, players_create
from clubs.services.rules import rule_overrides_validate, rule_profile_create, rule_profile_update

__all__ = [
    "INVITATION_LIFETIME",
    "RESERVED_SLUGS",
    "PasswordLinkTokenGenerator",
    "account_password_change",
    "account_token_login",
    "account_tokens_revoke",
    "api_token_create",
    "api_token_revoke",
    "club_create",
    "club_update",
    "invitation_accept",
    "invitation_create",
    "invitation_revoke",
    "membership_change_role",
    "membership_remove",
    "password_link_check",
    "password_link_create",
    "player_create",
    "player_update",
    "players_create",
    "rule_overrides_validate",
    "rule_profile_create",
    "rule_profile_update",
    "season_close",
    "season_create",
    "season_reopen",
]
