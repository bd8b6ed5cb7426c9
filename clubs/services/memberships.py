"""Who belongs to a club: a member's role, removing a member, and invitations."""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import ROLE_RANK, Club, Invitation, Membership, Player, Role, role_at_least
from clubs.services.clubs import _lock_club
from clubs.services.players import _player_for_member

INVITATION_LIFETIME = datetime.timedelta(days=14)


def _check_actor_may_manage(*, actor_role: str, target_role: str, new_role: str | None) -> None:
    if not role_at_least(actor_role, Role.ADMIN):
        raise ValidationError(_("Only owners and admins manage memberships."))
    if Role.OWNER in (target_role, new_role) and actor_role != Role.OWNER:
        raise ValidationError({"role": _("Only an owner can grant or take the owner role.")})


def _owner_count(club: Club) -> int:
    return Membership.objects.filter(club=club, role=Role.OWNER).count()


@transaction.atomic
def membership_change_role(*, membership: Membership, role: str, actor: Any) -> Membership:
    """Give ``membership`` the role ``role``; the last owner cannot be demoted."""
    if role not in Role.values:
        raise ValidationError({"role": _("Unknown role.")})
    _lock_club(membership.club)
    membership.refresh_from_db()
    actor_role = _role_of(actor, membership.club)
    _check_actor_may_manage(actor_role=actor_role, target_role=membership.role, new_role=role)
    if membership.role == Role.OWNER and role != Role.OWNER and _owner_count(membership.club) <= 1:
        raise ValidationError({"role": _("A club needs an owner: make someone else owner first.")})
    demoted = ROLE_RANK[role] < ROLE_RANK[membership.role]
    membership.role = role
    membership.save(update_fields=["role"])
    if demoted:
        _withdraw_invitations_of(user_id=membership.user_id, club=membership.club)
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, actor: Any) -> None:
    """Remove a member from a club (a member may also leave by himself).

    The member's player stays, with its games and balances; only the account's
    access to the club ends.
    """
    _lock_club(membership.club)
    membership.refresh_from_db()
    if membership.user_id != getattr(actor, "pk", None):
        _check_actor_may_manage(
            actor_role=_role_of(actor, membership.club), target_role=membership.role, new_role=None
        )
    if membership.role == Role.OWNER and _owner_count(membership.club) <= 1:
        raise ValidationError(_("A club needs an owner: make someone else owner first."))
    _withdraw_invitations_of(user_id=membership.user_id, club=membership.club)
    membership.delete()


def _withdraw_invitations_of(*, user_id: int, club: Club) -> None:
    """Withdraw the open invitation links ``user_id`` made in ``club``, as he is demoted or
    leaves: a link must not hand out a role its maker no longer holds. Used ones stay
    as records."""
    Invitation.objects.filter(club=club, created_by_id=user_id, accepted_at__isnull=True).delete()


def _role_of(user: Any, club: Club) -> str:
    role = Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()
    if role is None:
        raise ValidationError(_("You are not a member of this club."))
    return role


@transaction.atomic
def invitation_create(
    *,
    club: Club,
    created_by: Any,
    role: str = Role.MEMBER,
    player: Player | None = None,
    lifetime: datetime.timedelta = INVITATION_LIFETIME,
) -> Invitation:
    """Create an invitation link; it may offer a guest player to claim.

    Nobody can invite to a role above his own.
    """
    if role not in Role.values:
        raise ValidationError({"role": _("Unknown role.")})
    creator_role = _role_of(created_by, club)
    if not role_at_least(creator_role, role):
        raise ValidationError({"role": _("You cannot invite someone to a role above your own.")})
    if player is not None:
        if player.club_id != club.pk:
            raise ValidationError({"player": _("This player belongs to another club.")})
        if player.user_id is not None:
            raise ValidationError({"player": _("This player already has an account.")})
    return Invitation.objects.create(
        club=club,
        role=role,
        player=player,
        created_by=created_by,
        token=secrets.token_urlsafe(32),
        expires_at=timezone.now() + lifetime,
    )


@transaction.atomic
def invitation_accept(*, token: str, user: Any) -> Membership:
    """Accept an invitation: ``user`` joins the club with the invitation's role.

    A user who is already a member keeps his role, or gets the invitation's if it
    is higher; a member with nothing to gain (no higher role, no guest to claim)
    is refused, and the invitation stays unused. If the invitation offers a guest
    player, that player becomes the user's; otherwise the user gets a player
    named after his account. An invitation is good for one acceptance, before
    it expires, and only while its maker may still grant its role (an admin of
    the club ranking at least as high as the role), else it is refused.
    """
    # Locks in one order, the club's row first, as membership_change_role and
    # membership_remove take it (Zulip's rule): the club, then the invitation. Taking
    # the invitation first deadlocked against a demotion of its maker, which holds the
    # club and deletes the maker's invitations, while this insert of a membership
    # waited for a KEY SHARE lock on the club.
    club_id = Invitation.objects.filter(token=token).values_list("club_id", flat=True).first()
    if club_id is None:
        raise ValidationError({"token": _("This invitation does not exist.")})
    Club.objects.select_for_update().filter(pk=club_id).values_list("pk", flat=True).first()
    # Lock the invitation: two accepts of one link must not both succeed.
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(token=token)
    ).first()
    if invitation is None:  # withdrawn while this waited for the club
        raise ValidationError(
            {
                "token": _(
                    "This invitation has been withdrawn: ask an admin of the club for a new link."
                )
            }
        )
    if invitation.is_accepted:
        raise ValidationError({"token": _("This invitation has already been used.")})
    if invitation.is_expired():
        raise ValidationError({"token": _("This invitation has expired.")})
    club = invitation.club
    _check_creator_may_still_grant(invitation)

    membership = Membership.objects.filter(club=club, user=user).first()
    if (
        membership is not None
        and role_at_least(membership.role, invitation.role)
        and invitation.player_id is None
    ):
        # Nothing to gain: keep the link unused for the person it was meant for.
        raise ValidationError({"token": _("You are already a member of this club.")})
    if membership is None:
        membership = Membership.objects.create(club=club, user=user, role=invitation.role)
    elif not role_at_least(membership.role, invitation.role):
        membership.role = invitation.role
        membership.save(update_fields=["role"])

    if invitation.player_id is not None:
        guest = Player.objects.select_for_update().get(pk=invitation.player_id)
        if guest.user_id is not None and guest.user_id != user.pk:
            raise ValidationError({"player": _("This player has been claimed by someone else.")})
        if Player.objects.filter(club=club, user=user).exclude(pk=guest.pk).exists():
            raise ValidationError({"player": _("You already have a player in this club.")})
        guest.user = user
        guest.save(update_fields=["user"])
    else:
        _player_for_member(club=club, user=user)

    invitation.accepted_by = user
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    return membership


def _check_creator_may_still_grant(invitation: Invitation) -> None:
    """An invitation grants only what its maker may grant *now*: he must still be an
    admin (or owner) of the club, ranking at least as high as the invitation's role.

    Demotion and removal withdraw a member's links (``_withdraw_invitations_of``); this
    check is the guarantee behind it (an account deleted, a role changed by other means).
    """
    creator_role = None
    if invitation.created_by_id is not None:
        creator_role = (
            Membership.objects.filter(club_id=invitation.club_id, user_id=invitation.created_by_id)
            .values_list("role", flat=True)
            .first()
        )
    if (
        creator_role is None
        or not role_at_least(creator_role, Role.ADMIN)
        or not role_at_least(creator_role, invitation.role)
    ):
        raise ValidationError(
            {
                "token": _(
                    "This invitation no longer works: whoever made it can no longer grant "
                    "the role %(role)s. Ask an admin of the club for a new link."
                )
                % {"role": Role(invitation.role).label}
            }
        )


@transaction.atomic
def invitation_revoke(*, invitation: Invitation) -> None:
    """Withdraw an unused invitation; a used one stays as a record."""
    if invitation.is_accepted:
        raise ValidationError(_("This invitation has already been used."))
    invitation.delete()
