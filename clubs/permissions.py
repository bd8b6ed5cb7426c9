"""Who may see and do what in a club — reusable by every app.

A club is invisible to those who are not its members: they get a 404 for
everything under it, so a slug reveals nothing. A member whose role is too low
for an operation gets a 403. Roles rank owner > admin > scorer > member:

- member: reads everything of the club;
- scorer: also records games and adds guest players at the table;
- admin: also manages players, seasons, rule profiles, invitations and roles;
- owner: also grants and takes the owner role.

Both helpers raise Django's ``Http404`` / ``PermissionDenied``, which DRF turns
into 404 / 403 and Django's page views into their error pages. Anonymous
visitors never get here on the API: the views' ``IsAuthenticated`` answers 401.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from clubs.models import Membership, Role, role_at_least


def membership_for(user: Any, slug: str, min_role: str = Role.MEMBER) -> Membership:
    """Return ``user``'s membership of the club ``slug`` (with ``.club`` loaded).

    Raises ``Http404`` if there is no such club or ``user`` is not a member of it
    (anonymous users included) and ``PermissionDenied`` if the member's role
    ranks below ``min_role``.
    """
    if user is None or not user.is_authenticated:
        raise Http404
    membership = (
        Membership.objects.select_related("club").filter(club__slug=slug, user=user).first()
    )
    require_role(membership.role if membership is not None else None, min_role)
    assert membership is not None
    return membership


def require_role(role: str | None, min_role: str) -> None:
    """Decide on a role already read (e.g. with the object, in one query): ``Http404``
    for a non-member (``role`` None), ``PermissionDenied`` if ``role`` ranks below
    ``min_role``. Every role check of the apps ends here."""
    if role is None:
        raise Http404
    if not role_at_least(role, min_role):
        raise PermissionDenied(
            _("This needs the role %(role)s or higher in this club.")
            % {"role": Role(min_role).label}
        )
