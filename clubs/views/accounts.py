"""Account pages: sign up, the password (changed, reset, by an admin's link), API tokens."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import INTERNAL_RESET_SESSION_TOKEN
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme, urlsafe_base64_decode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.throttling import SimpleRateThrottle

from clubs import selectors, services
from clubs.forms import PasswordChangeForm, SignupForm
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
