"""The HTML pages of accounts and clubs: thin views over the same services as the API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import INTERNAL_RESET_SESSION_TOKEN
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme, urlsafe_base64_decode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.throttling import SimpleRateThrottle

from clubs import selectors, services
from clubs.forms import (
    ClubCreateForm,
    ClubSettingsForm,
    PasswordChangeForm,
    PlayerCreateForm,
    PlayerRenameForm,
    SeasonCreateForm,
    SignupForm,
    form_messages,
    id_param,
)
from clubs.house_rules import changes_from_defaults
from clubs.models import (
    ROLE_RANK,
    Invitation,
    Membership,
    Role,
    role_at_least,
)
from clubs.permissions import membership_for
from stichbuch.pages import shows_secret
from stichbuch.throttling import ClientAddressRateThrottle


def _next_url(request: HttpRequest, default: str = "/") -> str:
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return default


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = SignupForm(request.POST)
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome to Stichbuch!"))
            return redirect(_next_url(request))
    else:
        form = SignupForm()
    return render(
        request, "registration/signup.html", {"form": form, "next": _next_url(request, "")}
    )


@login_required
@require_http_methods(["GET", "POST"])
def password_change(request: HttpRequest) -> HttpResponse:
    """Change one's password (the current one first); other devices must log in again."""
    form = PasswordChangeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.account_password_change(
                user=request.user,
                old_password=form.cleaned_data["old_password"],
                new_password=form.cleaned_data["new_password1"],
            )
        except ValidationError as error:
            for field, field_errors in error.message_dict.items():
                form.add_error("new_password1" if field == "new_password" else field, field_errors)
        else:
            user: Any = request.user  # logged in (login_required)
            update_session_auth_hash(request, user)
            messages.success(
                request,
                _("Your password is changed. Other devices have to log in again."),
            )
            return redirect(_next_url(request))
    context = {
        "form": form,
        "next": _next_url(request, ""),
        "api_tokens": selectors.api_token_list(user=request.user),
    }
    shows_secret(request)  # one's devices
    return render(request, "registration/password_change.html", context)


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """End one API token of one's own (a lost phone, an app no longer used)."""
    if services.api_token_revoke(user=request.user, token_id=token_id):
        messages.success(request, _("The token is revoked: that device has to log in again."))
    return redirect(reverse("password-change") + "#api-tokens")


class _ResetThrottle(ClientAddressRateThrottle):
    """DRF's "auth" rate for the reset form, per client address: the form mails a
    member, so it must not be a way to flood his inbox."""

    scope = "auth"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": "password-reset", "ident": self.get_ident(request)}


class _ResetAccountThrottle(SimpleRateThrottle):
    """Reset mails per account (the address asked for), from however many client
    addresses: a fresh address per request must not flood one inbox either. Counted
    whether or not an account has that address, so the answer tells nobody."""

    scope = "password-reset-account"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        email = str(request.POST.get("email", "")).strip().casefold()
        if not email:
            return None  # the form refuses it; nothing is mailed
        return self.cache_format % {"scope": self.scope, "ident": email}


class PasswordResetView(auth_views.PasswordResetView):
    """Ask for a link to set a new password, mailed to the account's address.

    The answer is the same whether or not an account has that address (nobody learns
    who is a member); too many requests from one client address, or for one e-mail
    address, get a 429."""

    template_name = "registration/password_reset.html"
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    success_url = reverse_lazy("password-reset-done")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # DRF's throttles on a plain Django request: they read the client address
        # (request.META) or the form, and keep their counts in Django's cache.
        throttles: list[Any] = [_ResetThrottle(), _ResetAccountThrottle()]
        for throttle in throttles:
            if not throttle.allow_request(request, None):
                form = self.get_form()
                form.is_valid()
                form.add_error(None, _("Too many requests from here. Please wait a minute."))
                response = self.render_to_response(self.get_context_data(form=form))
                response.status_code = 429
                return response
        return super().post(request, *args, **kwargs)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Set a new password from the mailed link; the account's API tokens end too."""

    template_name = "registration/password_reset_confirm.html"
    success_url = reverse_lazy("password-reset-complete")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        services.account_tokens_revoke(user=form.user)
        return response


class PasswordLinkConfirmView(PasswordResetConfirmView):
    """Set a new password from a password link an admin made (``services.password_link_create``).

    On every step (opening the link, sending the form) the link's token is checked
    against its maker and, if good, the maker's rank again: a link whose maker no
    longer outranks the account everywhere is refused with the reason.
    """

    refusal: str | None = None

    def dispatch(self, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            actor_id = int(urlsafe_base64_decode(kwargs["actor"]).decode())
        except (ValueError, UnicodeDecodeError):
            actor_id = 0  # no account: the token cannot match
        self.actor_id = actor_id
        self.token_generator = services.PasswordLinkTokenGenerator(actor_id=actor_id)
        return super().dispatch(*args, **kwargs)

    def get_user(self, uidb64: str) -> Any:
        user = super().get_user(uidb64)
        if user is None:
            return None
        token = self.kwargs["token"]
        if token == self.reset_url_token:
            token = self.request.session.get(INTERNAL_RESET_SESSION_TOKEN)
        # Only a good token learns why the link is refused; a bad one is "used up".
        if self.token_generator.check_token(user, token):
            try:
                services.password_link_check(actor_id=self.actor_id, user=user)
            except ValidationError as error:
                self.refusal = " ".join(error.messages)
                return None
        return user

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["refusal"] = self.refusal
        return context


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
