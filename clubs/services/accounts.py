"""A user's account: the password, API tokens, and the password links an admin hands on."""

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
from django.utils.translation import gettext as _

from clubs.models import ROLE_RANK, ApiToken, Membership, Role, role_at_least

logger = logging.getLogger(__name__)


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
