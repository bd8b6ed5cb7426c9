"""``{% live_panel evening %}``: the live view for members on the evening and game pages,
with the evening's live links for its scorers (kept out of the games app's views)."""

from __future__ import annotations

from typing import Any

from django import template

from clubs.models import Membership, Role, role_at_least
from games.models import Evening

register = template.Library()


@register.inclusion_tag("live/_panel.html", takes_context=True)
def live_panel(
    context: template.Context, evening: Evening, links: bool = True, hidden: bool = False
) -> dict[str, Any]:
    """``hidden``: the stream without the panel (the recording page is its own live view:
    it reloads its table when the stream says another phone appended)."""
    from live.pages import live_links_context, member_live_context

    request = context["request"]
    role = (
        Membership.objects.filter(club_id=evening.club_id, user=request.user)
        .values_list("role", flat=True)
        .first()
    )
    can_link = links and role is not None and role_at_least(role, Role.SCORER)
    return {
        "evening": evening,
        "hidden": hidden,
        "csrf_token": context.get("csrf_token"),
        "can_link": can_link,
        "links": live_links_context(request, evening) if can_link else [],
        **member_live_context(evening),
    }
