"""The clubs REST API: one view per operation, validate → service → serialize.

Everything of a club lives under ``/api/clubs/{slug}/``; a non-member gets a 404
for all of it, a member whose role is too low a 403 (``clubs.permissions``).

One module per use case: ``accounts`` (logging in, signing up, the password,
oneself), ``clubs`` (clubs and their seasons), ``memberships`` (members, their
roles and invitations), ``players``, ``rules`` (rule profiles and the house
rules); the output serializers several of them answer with are in ``common``.
"""

from clubs.apis.accounts import (
    AuthMeApi,
    AuthPasswordApi,
    AuthSignupApi,
    AuthTokenApi,
    UserOutputSerializer,
)
from clubs.apis.clubs import (
    ClubCreateApi,
    ClubDetailApi,
    ClubListApi,
    ClubUpdateApi,
    SeasonCloseApi,
    SeasonCreateApi,
    SeasonListApi,
    SeasonReopenApi,
)
from clubs.apis.common import (
    ClubOutputSerializer,
    InvitationOutputSerializer,
    InvitationPreviewSerializer,
    MembershipOutputSerializer,
    PlayerOutputSerializer,
    RuleProfileOutputSerializer,
    SeasonOutputSerializer,
    get_or_404,
)
from clubs.apis.memberships import (
    InvitationAcceptApi,
    InvitationCreateApi,
    InvitationDetailApi,
    InvitationListApi,
    InvitationRevokeApi,
    MembershipListApi,
    MembershipPasswordLinkApi,
    MembershipRemoveApi,
    MembershipRoleChangeApi,
)
from clubs.apis.players import PlayerCreateApi, PlayerListApi, PlayerUpdateApi
from clubs.apis.rules import (
    HouseRuleListApi,
    RuleProfileCreateApi,
    RuleProfileListApi,
    RuleProfileUpdateApi,
)

__all__ = [
    "AuthMeApi",
    "AuthPasswordApi",
    "AuthSignupApi",
    "AuthTokenApi",
    "ClubCreateApi",
    "ClubDetailApi",
    "ClubListApi",
    "ClubOutputSerializer",
    "ClubUpdateApi",
    "HouseRuleListApi",
    "InvitationAcceptApi",
    "InvitationCreateApi",
    "InvitationDetailApi",
    "InvitationListApi",
    "InvitationOutputSerializer",
    "InvitationPreviewSerializer",
    "InvitationRevokeApi",
    "MembershipListApi",
    "MembershipOutputSerializer",
    "MembershipPasswordLinkApi",
    "MembershipRemoveApi",
    "MembershipRoleChangeApi",
    "PlayerCreateApi",
    "PlayerListApi",
    "PlayerOutputSerializer",
    "PlayerUpdateApi",
    "RuleProfileCreateApi",
    "RuleProfileListApi",
    "RuleProfileOutputSerializer",
    "RuleProfileUpdateApi",
    "SeasonCloseApi",
    "SeasonCreateApi",
    "SeasonListApi",
    "SeasonOutputSerializer",
    "SeasonReopenApi",
    "UserOutputSerializer",
    "get_or_404",
]
