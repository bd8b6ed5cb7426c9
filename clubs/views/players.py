"""The club page's player forms: add a player, retire or bring one back, rename one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from clubs import selectors, services
from clubs.forms import PlayerCreateForm, PlayerRenameForm, form_messages
from clubs.models import Role
from clubs.permissions import membership_for
from clubs.views.clubs import _club_page, _done, _form_errors


@login_required
@require_http_methods(["POST"])
def player_create(request: HttpRequest, slug: str) -> HttpResponse:
    """A scorer adds a guest who sits down at the table (as the API lets him)."""
    membership = membership_for(request.user, slug, Role.SCORER)
    form = PlayerCreateForm(request.POST)
    if form.is_valid():
        try:
            # Several names at once (the table's first evening), all or none.
            added = services.players_create(club=membership.club, display_names=form.names())
        except ValidationError as error:
            _form_errors(form, error)
        else:
            names = ", ".join(p.display_name for p in added)
            messages.success(
                request,
                ngettext(
                    "%(name)s is now a player of the club.",
                    "%(name)s are now players of the club.",
                    len(added),
                )
                % {"name": names},
                extra_tags="at-players",
            )
            return redirect(reverse("club-page", args=[membership.club.slug]) + "#players")
    return _club_page(request, membership, player_form=form)


@login_required
@require_http_methods(["POST"])
def player_active(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Take a player out of the pickers (he keeps his history) or bring him back."""
    club = membership_for(request.user, slug, Role.ADMIN).club
    player = get_object_or_404(selectors.player_list(club=club), pk=player_id)
    active = request.POST.get("active") == "1"
    services.player_update(player=player, is_active=active)
    if active:
        messages.success(request, _("%(name)s plays again.") % {"name": player.display_name})
    else:
        messages.success(
            request,
            _("%(name)s no longer appears when seats are chosen; his games stay.")
            % {"name": player.display_name},
        )
    return redirect("club-page", slug=club.slug)


@login_required
@require_http_methods(["POST"])
def player_rename(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """An admin corrects a player's name; his games and records keep him (by id)."""
    club = membership_for(request.user, slug, Role.ADMIN).club
    player = get_object_or_404(selectors.player_list(club=club), pk=player_id)
    form = PlayerRenameForm(request.POST)
    if not form.is_valid():
        form_messages(request, form)
        return redirect("player-page", slug=club.slug, player_id=player.pk)
    _done(
        request,
        lambda: services.player_update(
            player=player, display_name=form.cleaned_data["display_name"]
        ),
        lambda: _("The player is now called %(name)s.") % {"name": player.display_name},
    )
    return redirect("player-page", slug=club.slug, player_id=player.pk)
