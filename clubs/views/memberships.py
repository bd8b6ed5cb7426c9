"""The club page's member forms: invitations, a member's role, removal, a password link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import selectors, services
from clubs.forms import id_param
from clubs.models import Invitation, Role, role_at_least
from clubs.permissions import membership_for
from clubs.views.clubs import _done
from stichbuch.pages import shows_secret


@login_required
@require_http_methods(["POST"])
def invitation_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = membership_for(request.user, slug, Role.ADMIN).club
    role = request.POST.get("role", Role.MEMBER)
    # Optionally for a guest, whose games the new member then takes over.
    player = None
    if request.POST.get("player", "").strip():
        wanted = id_param(request.POST["player"])
        player = selectors.player_list(club=club).filter(pk=wanted).first() if wanted else None
        if player is None:
            messages.error(request, _("No such player in this club."))
            return redirect("club-page", slug=club.slug)
    try:
        services.invitation_create(club=club, created_by=request.user, role=role, player=player)
    except ValidationError as error:
        messages.error(request, "; ".join(error.messages), extra_tags="at-invitations")
    else:
        # Said beside the new link (at-invitations), with its share button, not at the top.
        messages.success(
            request,
            _("Invitation link created: share it with the new member."),
            extra_tags="at-invitations",
        )
    return redirect(reverse("club-page", args=[club.slug]) + "#invitations")


@login_required
@require_http_methods(["POST"])
def invitation_revoke(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    """Withdraw an unused invitation link: whoever holds it can no longer join."""
    club = membership_for(request.user, slug, Role.ADMIN).club
    invitation = get_object_or_404(selectors.invitation_list(club=club), pk=invitation_id)
    _done(
        request,
        lambda: services.invitation_revoke(invitation=invitation),
        lambda: _("The invitation link no longer works."),
    )
    return redirect(reverse("club-page", args=[club.slug]) + "#invitations")


@login_required
@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    shows_secret(request)  # the token is in the address
    invitation = Invitation.objects.select_related("club", "player").filter(token=token).first()
    if invitation is None:
        raise Http404
    error = None
    if request.method == "POST":
        try:
            membership = services.invitation_accept(token=token, user=request.user)
        except ValidationError as exc:
            error = " ".join(exc.messages)
        else:
            messages.success(
                request, _("You are now a member of %(club)s.") % {"club": membership.club.name}
            )
            return redirect("club-page", slug=membership.club.slug)
    return render(
        request,
        "clubs/invitation_accept.html",
        {"invitation": invitation, "error": error},
        status=400 if error else 200,
    )


@login_required
@require_http_methods(["POST"])
def membership_role(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    """An admin gives a member another role (only an owner grants or takes ownership)."""
    club = membership_for(request.user, slug, Role.ADMIN).club
    target = get_object_or_404(selectors.membership_list(club=club), pk=membership_id)
    _done(
        request,
        lambda: services.membership_change_role(
            membership=target, role=request.POST.get("role", ""), actor=request.user
        ),
        lambda: (
            _("%(user)s is now %(role)s.")
            % {"user": target.user.username, "role": target.get_role_display()}
        ),
    )
    return redirect(reverse("club-page", args=[club.slug]) + "#members")


@login_required
@require_http_methods(["POST"])
def membership_remove(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    """An admin removes a member, or a member leaves; the player and his games stay."""
    mine = membership_for(request.user, slug)
    club = mine.club
    target = get_object_or_404(selectors.membership_list(club=club), pk=membership_id)
    leaving = target.pk == mine.pk  # read first: deleting the row clears its pk
    if not leaving and not role_at_least(mine.role, Role.ADMIN):
        raise PermissionDenied
    done = _done(
        request,
        lambda: services.membership_remove(membership=target, actor=request.user),
        lambda: (
            _("You have left %(club)s.") % {"club": club.name}
            if leaving
            else _("%(user)s is no longer a member; his player and games stay.")
            % {"user": target.user.username}
        ),
    )
    if done and leaving:
        return redirect("home")
    return redirect(reverse("club-page", args=[club.slug]) + "#members")


@login_required
@require_http_methods(["POST"])
def password_link(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    """An admin makes a member a link to set a new password (for a member without
    e-mail) and is shown it once, to pass on; see ``services.password_link_create``."""
    club = membership_for(request.user, slug, Role.ADMIN).club
    target = get_object_or_404(selectors.membership_list(club=club), pk=membership_id)
    try:
        path, expires = services.password_link_create(membership=target, actor=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return redirect(reverse("club-page", args=[club.slug]) + "#members")
    context = {
        "club": club,
        "target": target,
        "link": request.build_absolute_uri(path),
        "expires": expires,
    }
    with timezone.override(club.zone):
        response = render(request, "clubs/password_link.html", context)
    # The link is as good as the password: no cache keeps it (nor the service worker).
    response["Cache-Control"] = "no-store"
    return response
