"""Writes of the clubs app: keyword-only functions, each one transaction.

They raise Django's ``ValidationError`` (keyed by field where one is to blame)
for anything a user can get wrong; the API turns that into a 400. Permission
to call them is checked by the caller (``clubs.permissions``), except the rules
that depend on *who* acts on *whom* — an admin may not make an owner — which
live here, next to the write they guard.
"""

from __future__ import annotations

import datetime
import logging
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.signals import user_logged_in
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs import listeners
from clubs.models import (
    ROLE_RANK,
    ApiToken,
    Club,
    GameKind,
    Invitation,
    Membership,
    Player,
    Role,
    RuleProfile,
    Season,
    role_at_least,
    validate_time_zone,
)
from clubs.names import normalise_name

logger = logging.getLogger(__name__)

INVITATION_LIFETIME = datetime.timedelta(days=14)
# Slugs that would shadow a fixed URL under /clubs/ or /api/clubs/.
RESERVED_SLUGS = frozenset({"create", "new", "join", "admin", "api", "static"})


# --- Clubs ------------------------------------------------------------------------


# --- Accounts -------------------------------------------------------------------------------


@transaction.atomic
def account_password_change(
    *,
    user: Any,
    old_password: str,
    new_password: str,
    issue_token: bool = False,
    device: str = "API",
) -> str | None:
    """Change ``user``'s password; with ``issue_token``, return the key of a new API
    token for ``device`` (the one that asked).

    Raises ``ValidationError`` (``old_password``: it is wrong; ``new_password``:
    Django's password validators' messages) and changes nothing then. Every API
    token the account had is deleted: a password changed because it leaked must
    not leave a device logged in with a token (sessions elsewhere end too, as their
    hash no longer matches; the caller keeps its own with ``update_session_auth_hash``).
    """
    if not user.check_password(old_password):
        raise ValidationError({"old_password": _("The current password is wrong.")})
    try:
        password_validation.validate_password(new_password, user)
    except ValidationError as error:
        raise ValidationError({"new_password": list(error.messages)}) from None
    user.set_password(new_password)
    user.save(update_fields=["password"])
    account_tokens_revoke(user=user)
    return api_token_create(user=user, name=device) if issue_token else None


def account_tokens_revoke(*, user: Any) -> None:
    """Delete every API token of ``user`` (after his password changed or was reset)."""
    ApiToken.objects.filter(user=user).delete()


def api_token_create(*, user: Any, name: str) -> str:
    """A new API token for ``user``'s device ``name``; returns its key, which is stored
    nowhere (only its digest): one token per device, so an older one of that name ends.
    It expires after ``settings.API_TOKEN_DAYS`` days."""
    key = secrets.token_urlsafe(32)
    name = name.strip()[:100] or "API"
    with transaction.atomic():
        ApiToken.objects.filter(user=user, name=name).delete()
        ApiToken.objects.create(
            user=user,
            name=name,
            digest=ApiToken.digest_of(key),
            expires_at=timezone.now() + datetime.timedelta(days=settings.API_TOKEN_DAYS),
        )
    return key


def api_token_revoke(*, user: Any, token_id: int) -> bool:
    """End ``user``'s token ``token_id`` (a lost phone, say); False if he has no such token."""
    deleted, _by_model = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return deleted > 0


def _unique_slug(base: str) -> str:
    base = slugify(base)[:50] or "club"
    slug, n = base, 1
    while slug in RESERVED_SLUGS or Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _user_display_name(user: Any) -> str:
    return (user.get_full_name() or user.username)[:60]


@transaction.atomic
def club_create(
    *,
    creator: Any,
    name: str,
    slug: str | None = None,
    time_zone: str = "Europe/Vienna",
    currency_unit: str = Club.CurrencyUnit.CENT,
    card_face: str = Club.CardFace.GERMAN,
) -> Club:
    """Create a club; its creator becomes its owner and one of its players."""
    if slug:
        if slug in RESERVED_SLUGS:
            raise ValidationError({"slug": _("This address is reserved.")})
        if Club.objects.filter(slug=slug).exists():
            raise ValidationError({"slug": _("This address is already taken.")})
    else:
        slug = _unique_slug(name)
    club = Club(
        name=name,
        slug=slug,
        time_zone=time_zone,
        currency_unit=currency_unit,
        card_face=card_face,
    )
    club.full_clean()
    club.save()
    Membership.objects.create(club=club, user=creator, role=Role.OWNER)
    _player_for_member(club=club, user=creator)
    return club


@transaction.atomic
def club_update(
    *,
    club: Club,
    name: str | None = None,
    time_zone: str | None = None,
    currency_unit: str | None = None,
    card_face: str | None = None,
) -> Club:
    """Change a club's settings; its slug (its address) never changes."""
    if name is not None:
        club.name = name
    if time_zone is not None:
        validate_time_zone(time_zone)
        club.time_zone = time_zone
    if currency_unit is not None:
        club.currency_unit = currency_unit
    if card_face is not None:
        club.card_face = card_face
    club.full_clean()
    club.save()
    return club


# --- Memberships --------------------------------------------------------------------


def _lock_club(club: Club) -> Club:
    # Role changes and season openings lock the club row, so two admins acting at
    # once are serialized: otherwise both could demote "the other" last owner.
    return Club.objects.select_for_update().get(pk=club.pk)


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


class PasswordLinkTokenGenerator(PasswordResetTokenGenerator):
    """The tokens of password links: Django's password-reset tokens, bound to the admin
    who made the link (so its use can check him again) and salted apart from the
    mailed reset links' (neither works as the other).

    Like Django's, a token ends when the account's password changes or when it logs in
    (its last login is part of the hash), and after ``PASSWORD_RESET_TIMEOUT``.
    """

    key_salt = "stichbuch.clubs.password-link"

    def __init__(self, *, actor_id: int) -> None:
        super().__init__()
        self.actor_id = actor_id

    def _make_hash_value(self, user: Any, timestamp: int) -> str:
        return f"{super()._make_hash_value(user, timestamp)}|by:{self.actor_id}"


def _check_may_make_password_link(*, actor: Any, user: Any) -> None:
    """Raise ``ValidationError`` unless ``actor`` may hold a password link for ``user``:
    never for himself, never for staff, and only ranking strictly above ``user`` as an
    admin or owner in every club ``user`` belongs to."""
    if actor is None or not getattr(actor, "is_active", False):
        raise ValidationError(_("Whoever made this link can no longer make it."))
    if user.pk == actor.pk:
        raise ValidationError(_("Change your own password on the password page."))
    if user.is_staff or user.is_superuser:
        raise ValidationError(
            _("Staff accounts set their passwords with the site's administrators.")
        )
    actor_roles = dict(Membership.objects.filter(user=actor).values_list("club_id", "role"))
    for club_id, role in Membership.objects.filter(user=user).values_list("club_id", "role"):
        mine = actor_roles.get(club_id)
        if (
            mine is None
            or ROLE_RANK[mine] <= ROLE_RANK[role]
            or not role_at_least(mine, Role.ADMIN)
        ):
            raise ValidationError(
                _(
                    "Only someone who ranks above %(user)s in every club he belongs to can "
                    "make him a password link; he can ask the site's administrators."
                )
                % {"user": user.get_username()}
            )


def password_link_create(*, membership: Membership, actor: Any) -> tuple[str, datetime.datetime]:
    """A link for ``membership``'s account to set a new password, made by a club admin
    for a member who has no e-mail address (or cannot read it); the admin passes it on.

    Returns the link's path and when it expires (``PASSWORD_RESET_TIMEOUT`` from now). It
    works once: setting a password, or any login of the account (page or API token),
    ends it; the API tokens of the account end when it is used.

    Whoever holds the link holds the account, in every club it belongs to. So the actor
    must rank strictly above the account in each of its clubs (an owner above an admin,
    an admin above a scorer or member), never for himself, and never for staff — when
    the link is made and again when it is used (``password_link_check``).
    """
    user = membership.user
    _check_may_make_password_link(actor=actor, user=user)
    token = PasswordLinkTokenGenerator(actor_id=actor.pk).make_token(user)
    path = reverse(
        "password-link-confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "actor": urlsafe_base64_encode(force_bytes(actor.pk)),
            "token": token,
        },
    )
    logger.info(
        "password link made for user %s by user %s (club %s)",
        user.pk,
        getattr(actor, "pk", None),
        membership.club_id,
    )
    expires = timezone.now() + datetime.timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)
    return path, expires


def password_link_check(*, actor_id: int, user: Any) -> None:
    """Check, as a password link is used, that its maker may still make it for ``user``
    (he may have been demoted, or ``user`` may have founded a club of his own since).

    Raises ``ValidationError`` with the reason; the caller refuses the link then.
    """
    actor = get_user_model().objects.filter(pk=actor_id).first()
    try:
        _check_may_make_password_link(actor=actor, user=user)
    except ValidationError:
        raise ValidationError(
            _(
                "This link no longer works: whoever made it no longer ranks above you in "
                "every club you belong to. Ask an admin of your club for a new one."
            )
        ) from None


def account_token_login(*, user: Any, request: Any, device: str = "API") -> str:
    """Log ``user`` in for the API on ``device``: the key of a new token for it (one
    per device: an older token of that device ends).

    It is a login like the page's (Django's ``user_logged_in``: the last login is
    recorded, which ends his password links, and django-axes logs the access).
    """
    user_logged_in.send(sender=type(user), request=request, user=user)
    return api_token_create(user=user, name=device)


def _role_of(user: Any, club: Club) -> str:
    role = Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()
    if role is None:
        raise ValidationError(_("You are not a member of this club."))
    return role


# --- Players ------------------------------------------------------------------------


def _check_display_name_free(
    *, club: Club, display_name: str, exclude_pk: int | None = None
) -> None:
    clash = Player.objects.filter(club=club, display_name__iexact=display_name)
    if exclude_pk is not None:
        clash = clash.exclude(pk=exclude_pk)
    if clash.exists():
        raise ValidationError({"display_name": _("This club already has a player of that name.")})


def _clean_display_name(display_name: str) -> str:
    try:
        return normalise_name(display_name)
    except ValidationError as error:
        raise ValidationError({"display_name": error.messages}) from None


@transaction.atomic
def player_create(*, club: Club, display_name: str, user: Any | None = None) -> Player:
    """Add a player: a guest (no ``user``) or the player of one of the club's members.

    The name is normalised and refused with invisible characters (``clubs.names``).
    """
    display_name = _clean_display_name(display_name)
    if not display_name:
        raise ValidationError({"display_name": _("A player needs a name.")})
    _check_display_name_free(club=club, display_name=display_name)
    if user is not None:
        if not Membership.objects.filter(club=club, user=user).exists():
            raise ValidationError({"user": _("Only a member of the club can be linked.")})
        if Player.objects.filter(club=club, user=user).exists():
            raise ValidationError({"user": _("This member already has a player.")})
    player = Player(club=club, display_name=display_name, user=user)
    player.full_clean()
    player.save()
    return player


@transaction.atomic
def players_create(*, club: Club, display_names: list[str]) -> list[Player]:
    """Add several guests at once (the table sitting down for the first evening): each
    as ``player_create`` adds one, all or none. A name twice in the list is refused as
    a name the club has already."""
    return [player_create(club=club, display_name=name) for name in display_names]


@transaction.atomic
def player_update(
    *, player: Player, display_name: str | None = None, is_active: bool | None = None
) -> Player:
    """Rename a player or (de)activate him; inactive players leave the pickers, not history."""
    if display_name is not None:
        display_name = _clean_display_name(display_name)
        if not display_name:
            raise ValidationError({"display_name": _("A player needs a name.")})
        _check_display_name_free(club=player.club, display_name=display_name, exclude_pk=player.pk)
        player.display_name = display_name
    if is_active is not None:
        player.is_active = is_active
    player.full_clean()
    player.save()
    return player


def _player_for_member(*, club: Club, user: Any) -> Player:
    """Make sure a member has a player in ``club``, named after the account."""
    existing = Player.objects.filter(club=club, user=user).first()
    if existing is not None:
        return existing
    base = _user_display_name(user)
    name, n = base, 1
    while Player.objects.filter(club=club, display_name__iexact=name).exists():
        n += 1
        name = f"{base} ({n})"
    return Player.objects.create(club=club, display_name=name, user=user)


# --- Invitations -------------------------------------------------------------------


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


# --- Seasons --------------------------------------------------------------------------


@transaction.atomic
def season_create(
    *,
    club: Club,
    name: str,
    game_kind: str,
    start: datetime.date,
    end: datetime.date | None = None,
    rule_profile: RuleProfile | None = None,
) -> Season:
    """Open a season. A club has at most one open season per game."""
    if game_kind not in GameKind.values:
        raise ValidationError({"game_kind": _("Unknown game.")})
    _lock_club(club)
    if Season.objects.filter(club=club, game_kind=game_kind, status=Season.Status.OPEN).exists():
        raise ValidationError(
            {"game_kind": _("This club already has an open season for this game: close it first.")}
        )
    if end is not None and end < start:
        raise ValidationError({"end": _("A season cannot end before it starts.")})
    _check_rule_profile_fits(club=club, game_kind=game_kind, rule_profile=rule_profile)
    season = Season(
        club=club,
        name=name,
        game_kind=game_kind,
        start=start,
        end=end,
        rule_profile=rule_profile,
    )
    season.full_clean()
    season.save()
    return season


def _check_rule_profile_fits(
    *, club: Club, game_kind: str, rule_profile: RuleProfile | None
) -> None:
    if rule_profile is None:
        return
    if rule_profile.club_id != club.pk:
        raise ValidationError({"rule_profile": _("This rule profile belongs to another club.")})
    if rule_profile.game_kind != game_kind:
        raise ValidationError({"rule_profile": _("This rule profile is for another game.")})


@transaction.atomic
def season_close(
    *, season: Season, end: datetime.date | None = None, user: Any | None = None
) -> Season:
    """Close an open season and, with it, its open evenings; its end defaults to today
    in the club's time zone.

    Nothing changes a closed season's figures: its evenings are closed here (each on
    its change log, by ``user``; games left in progress stay so, as at an evening's
    close) and stay closed (``evening_reopen`` refuses), and no evening opens in it
    (``evening_create`` refuses). The season's row is locked first, as those two lock
    it, then the evenings' rows: a recording that holds an evening's lock finishes
    before the evening is closed, and one that comes later finds it closed.
    """
    end = end or season.end or timezone.localdate(timezone=season.club.zone)
    if end < season.start:
        raise ValidationError({"end": _("A season cannot end before it starts.")})
    # ``no_key``: the projections' inserts that reference the season are not held up.
    locked = (
        Season.objects.select_for_update(no_key=True)
        .filter(pk=season.pk, status=Season.Status.OPEN)
        .first()
    )
    if locked is None:
        raise ValidationError(_("This season is already closed."))
    # The games app closes the season's open evenings (``games.services.evenings``).
    listeners.season_closing(season=locked, user=user)
    Season.objects.filter(pk=season.pk).update(
        status=Season.Status.CLOSED, end=end, closed_at=timezone.now()
    )
    season.refresh_from_db()
    return season


@transaction.atomic
def season_reopen(*, season: Season) -> Season:
    """Open a closed season again (closed by mistake, or a late evening to add): its
    end date is cleared, as the season goes on. Refused while another season of the
    same game is open (a club has at most one), or if it is open."""
    club = _lock_club(season.club)  # as ``season_create``: one open season per game
    if (
        Season.objects.filter(club=club, game_kind=season.game_kind, status=Season.Status.OPEN)
        .exclude(pk=season.pk)
        .exists()
    ):
        raise ValidationError(
            _("Another season of this game is open: close it before opening this one again.")
        )
    # Conditional update: of two concurrent reopens exactly one changes the row.
    changed = Season.objects.filter(pk=season.pk, status=Season.Status.CLOSED).update(
        status=Season.Status.OPEN, end=None, closed_at=None
    )
    if changed != 1:
        raise ValidationError(_("This season is open."))
    season.refresh_from_db()
    return season


# --- Rule profiles -------------------------------------------------------------------


def rule_overrides_validate(*, game_kind: str, overrides: object) -> None:
    """Check house-rule overrides against the engine's rules of ``game_kind``.

    Raises ``ValidationError({"overrides": [...]})`` with one message per bad key,
    each naming the key.
    """
    import engine  # the engine is pure Python; imported here so clubs loads without it

    if not isinstance(overrides, dict):
        raise ValidationError({"overrides": _("House rules must be an object of settings.")})
    messages = []
    # One key at a time, so every bad key is reported, not only the first.
    for key, value in overrides.items():
        try:
            engine.validate_rules(game_kind, {key: value})
        except engine.InvalidRules as error:
            messages.append(ValidationError(str(error), code="invalid_rule", params={"key": key}))
    if messages:
        raise ValidationError({"overrides": messages})


def _check_rule_profile_name_free(
    *, club: Club, game_kind: str, name: str, exclude_pk: int | None = None
) -> None:
    clash = RuleProfile.objects.filter(club=club, game_kind=game_kind, name__iexact=name)
    if exclude_pk is not None:
        clash = clash.exclude(pk=exclude_pk)
    if clash.exists():
        raise ValidationError(
            {"name": _("This club already has rules of that name for this game.")}
        )


@transaction.atomic
def rule_profile_create(
    *, club: Club, game_kind: str, name: str, overrides: dict[str, Any] | None = None
) -> RuleProfile:
    """Save a named set of house rules; unknown keys or wrong values are refused."""
    if game_kind not in GameKind.values:
        raise ValidationError({"game_kind": _("Unknown game.")})
    overrides = {} if overrides is None else overrides
    rule_overrides_validate(game_kind=game_kind, overrides=overrides)
    _check_rule_profile_name_free(club=club, game_kind=game_kind, name=name)
    profile = RuleProfile(club=club, game_kind=game_kind, name=name, overrides=overrides)
    profile.full_clean()
    profile.save()
    return profile


@transaction.atomic
def rule_profile_update(
    *,
    rule_profile: RuleProfile,
    name: str | None = None,
    overrides: dict[str, Any] | None = None,
) -> RuleProfile:
    """Rename a rule profile or replace its overrides.

    Games already created keep the copy of the rules they started with.
    """
    if name is not None:
        _check_rule_profile_name_free(
            club=rule_profile.club,
            game_kind=rule_profile.game_kind,
            name=name,
            exclude_pk=rule_profile.pk,
        )
        rule_profile.name = name
    if overrides is not None:
        rule_overrides_validate(game_kind=rule_profile.game_kind, overrides=overrides)
        rule_profile.overrides = overrides
    rule_profile.full_clean()
    rule_profile.save()
    return rule_profile
