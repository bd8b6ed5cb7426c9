"""The house-rule pages: every member reads a rule profile, an admin writes one.

In the games app (not clubs) because the form edits the games' rules in the games'
words (``games.rule_form``, ``games.vocabulary``); the profiles themselves are the
clubs app's (``clubs.services.rule_profile_create`` / ``_update``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import selectors, services
from clubs.models import (
    GameKind,
    Membership,
    Role,
    RuleProfile,
    role_at_least,
)
from clubs.permissions import membership_for
from clubs.views import _form_errors
from games.rule_form import HouseRulesForm


def _rule_profile_page(
    request: HttpRequest,
    membership: Membership,
    form: HouseRulesForm,
    profile: RuleProfile | None,
    *,
    status: int = 200,
) -> HttpResponse:
    club = membership.club
    context = {
        "club": club,
        "profile": profile,
        "game_kind": GameKind(form.game_kind),
        "form": form,
        "can_edit": role_at_least(membership.role, Role.ADMIN),
    }
    return render(request, "clubs/rule_profile.html", context, status=status)


def _rules_saved(
    request: HttpRequest,
    form: HouseRulesForm,
    save: Callable[[str, dict[str, Any]], RuleProfile],
) -> HttpResponse | None:
    """Save a valid form's name and overrides with ``save``; the redirect to the saved
    profile, or None with the refusal put on the form."""
    if not form.is_valid():
        return None
    try:
        profile = save(form.cleaned_data["name"], form.cleaned_overrides())
    except ValidationError as error:
        _form_errors(form, error)
        return None
    messages.success(request, _("The house rules %(name)s are saved.") % {"name": profile.name})
    return redirect("rule-profile-page", slug=profile.club.slug, profile_id=profile.pk)


@login_required
@require_http_methods(["GET", "POST"])
def rule_profile_new(request: HttpRequest, slug: str, game_kind: str) -> HttpResponse:
    """New house rules for one game, starting from the defaults."""
    membership = membership_for(request.user, slug, Role.ADMIN)
    club = membership.club
    if game_kind not in GameKind.values:
        raise Http404
    if request.method != "POST":
        form = HouseRulesForm(game_kind=game_kind, face=club.card_face)
        return _rule_profile_page(request, membership, form, None)
    form = HouseRulesForm(request.POST, game_kind=game_kind, face=club.card_face)
    saved = _rules_saved(
        request,
        form,
        lambda name, overrides: services.rule_profile_create(
            club=club, game_kind=game_kind, name=name, overrides=overrides
        ),
    )
    return saved or _rule_profile_page(request, membership, form, None, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def rule_profile_page(request: HttpRequest, slug: str, profile_id: int) -> HttpResponse:
    """Every member reads a profile's rules; an admin changes them (later games only)."""
    membership = membership_for(request.user, slug)
    club = membership.club
    profile = get_object_or_404(selectors.rule_profile_list(club=club), pk=profile_id)
    if request.method != "POST":
        form = HouseRulesForm(
            game_kind=profile.game_kind,
            face=club.card_face,
            overrides=profile.overrides,
            initial={"name": profile.name},
        )
        return _rule_profile_page(request, membership, form, profile)
    membership = membership_for(request.user, slug, Role.ADMIN)
    form = HouseRulesForm(request.POST, game_kind=profile.game_kind, face=club.card_face)
    saved = _rules_saved(
        request,
        form,
        lambda name, overrides: services.rule_profile_update(
            rule_profile=profile, name=name, overrides=overrides
        ),
    )
    return saved or _rule_profile_page(request, membership, form, profile, status=400)
