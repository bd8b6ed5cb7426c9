"""``{% invited_club next as name %}``: the club an invitation link in ``next`` is for,
so that the login page a link leads to names the club that invites."""

from __future__ import annotations

from urllib.parse import urlparse

from django import template
from django.core.exceptions import ObjectDoesNotExist
from django.urls import Resolver404, resolve

from clubs import selectors

register = template.Library()


@register.simple_tag
def invited_club(next_url: object) -> str:
    """The name of the club whose invitation ``next_url`` opens, or "" (any other page,
    an unknown or spent link)."""
    if not isinstance(next_url, str) or not next_url:
        return ""
    try:
        match = resolve(urlparse(next_url).path)
    except Resolver404:
        return ""
    if match.url_name != "invitation-accept":
        return ""
    try:
        invitation = selectors.invitation_get_by_token(token=str(match.kwargs.get("token", "")))
    except ObjectDoesNotExist:
        return ""
    return str(invitation.club.name)
