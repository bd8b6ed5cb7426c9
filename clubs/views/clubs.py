"""A club's page and settings, and its seasons; the helpers the club page's forms share."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import selectors, services
from clubs.forms import ClubCreateForm, ClubSettingsForm, PlayerCreateForm, SeasonCreateForm
from clubs.house_rules import changes_from_defaults
from clubs.models import ROLE_RANK, Membership, Role, role_at_least
from clubs.permissions import membership_for
from stichbuch.pages import shows_secret


@login_required
@require_http_methods(["GET", "POST"])
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.club_create(creator=request.user, **form.as_service_kwargs())
        except ValidationError as error:
            for field, field_errors in error.message_dict.items():
                form.add_error(field if field in form.fields else None, field_errors)
        else:
            return redirect("club-page", slug=club.slug)
    return render(request, "clubs/club_create.html", {"form": form})


@login_required
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(request.user, slug)
    return _club_page(request, membership)


def _club_page(
    request: HttpRequest,
    membership: Membership,
    *,
    player_form: PlayerCreateForm | None = None,
    season_form: SeasonCreateForm | None = None,
) -> HttpResponse:
    """The club page; a form given here is one that came back with errors (answered 400)."""
    club = membership.club
    is_admin = role_at_least(membership.role, Role.ADMIN)
    if season_form is None and is_admin:
        today = timezone.localdate(timezone=club.zone)
        # Filled as most clubs would: the year as its name, from today (one tap to open).
        season_form = SeasonCreateForm(club=club, initial={"start": today, "name": str(today.year)})
    players = list(selectors.player_list(club=club))
    memberships = list(selectors.membership_list(club=club))
    context = {
        "club": club,
        "membership": membership,
        "is_admin": is_admin,
        "is_scorer": role_at_least(membership.role, Role.SCORER),
        "is_owner": membership.role == Role.OWNER,
        "roles": Role.choices,
        "memberships": memberships,
        # Those the viewer may make a password link for, as far as this club tells
        # (the service checks their other clubs too).
        "outranked": {m.pk for m in memberships if ROLE_RANK[m.role] < ROLE_RANK[membership.role]}
        if is_admin
        else set(),
        "players": players,
        "guests": [p for p in players if p.is_guest and p.is_active],
        "seasons": selectors.season_list(club=club),
        "rule_profiles": [
            (profile, changes_from_defaults(profile.game_kind, profile.overrides))
            for profile in selectors.rule_profile_list(club=club)
        ],
        "invitations": selectors.invitation_list(club=club, pending_only=True) if is_admin else [],
        "player_form": player_form or PlayerCreateForm(),
        "season_form": season_form,
        "can_open_evening": club.pk in selectors.clubs_to_open_an_evening_in(user=membership.user),
    }
    failed = any(form is not None and form.is_bound for form in (player_form, season_form))
    if context["invitations"]:
        shows_secret(request)  # the open invitation links
    # Dates and times on a club's pages are the club's local ones.
    with timezone.override(club.zone):
        return render(request, "clubs/club_page.html", context, status=400 if failed else 200)


@login_required
@require_http_methods(["GET", "POST"])
def club_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """An admin changes the club's name, time zone, unit of amounts and cards."""
    club = membership_for(request.user, slug, Role.ADMIN).club
    form = ClubSettingsForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            services.club_update(club=club, **form.as_service_kwargs())
        except ValidationError as error:
            club.refresh_from_db()  # the service changed the object before refusing
            _form_errors(form, error)
        else:
            messages.success(request, _("The club's settings are saved."))
            return redirect("club-page", slug=club.slug)
    status = 400 if form.is_bound else 200
    return render(request, "clubs/club_settings.html", {"club": club, "form": form}, status=status)


def _form_errors(form: forms.Form, error: ValidationError) -> None:
    """A service's refusal, shown at the form's fields it names (else above the form)."""
    if hasattr(error, "error_dict"):
        for field, field_errors in error.message_dict.items():
            form.add_error(field if field in form.fields else None, field_errors)
    else:
        form.add_error(None, error.messages)


def _done(request: HttpRequest, action: Callable[[], object], success: Callable[[], str]) -> bool:
    """Run a service call for a button on a page: its refusal becomes error messages
    (nothing was written), else ``success()`` is shown. True if it was done."""
    try:
        action()
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return False
    messages.success(request, success())
    return True


@login_required
@require_http_methods(["POST"])
def season_create(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(request.user, slug, Role.ADMIN)
    club = membership.club
    form = SeasonCreateForm(request.POST, club=club)
    if form.is_valid():
        try:
            season = services.season_create(club=club, **form.cleaned_data)
        except ValidationError as error:
            _form_errors(form, error)
        else:
            messages.success(
                request,
                _("The season %(name)s is open.") % {"name": season.name},
                extra_tags="at-seasons",
            )
            return redirect(reverse("club-page", args=[club.slug]) + "#seasons")
    return _club_page(request, membership, season_form=form)


@login_required
@require_http_methods(["POST"])
def season_close(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """Close a season today (its balances stay; a new one can then be opened)."""
    club = membership_for(request.user, slug, Role.ADMIN).club
    season = get_object_or_404(selectors.season_list(club=club), pk=season_id)
    _done(
        request,
        lambda: services.season_close(season=season, user=request.user),
        lambda: _("The season %(name)s is closed.") % {"name": season.name},
    )
    return redirect("club-page", slug=club.slug)


@login_required
@require_http_methods(["POST"])
def season_reopen(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """Open a closed season again (one open season per game)."""
    club = membership_for(request.user, slug, Role.ADMIN).club
    season = get_object_or_404(selectors.season_list(club=club), pk=season_id)
    _done(
        request,
        lambda: services.season_reopen(season=season),
        lambda: _("The season %(name)s is open again.") % {"name": season.name},
    )
    return redirect("club-page", slug=club.slug)
