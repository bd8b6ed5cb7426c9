"""Site-wide page matters that are no app's: the answer to a failed CSRF check, pages
that show a secret (never cached), and logging out (the browser's copies cleared)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a page of the site's own (Django's inlines a ``<style>``,
    which the Content-Security-Policy blocks), saying in German what to do: load the
    form again and send it once more. ``reason`` (Django's, in English) is not shown."""
    return render(request, "403_csrf.html", status=403)


# --- Pages with secrets: no copy kept, by any cache ---------------------------------------------

_SHOWS_SECRET = "_stichbuch_shows_secret"


def shows_secret(request: HttpRequest) -> None:
    """Mark the page of ``request`` as showing a secret (an invitation or live link, a
    password link, one's devices): ``no_copy_of_secrets`` answers it ``no-store``, which
    the service worker (``static/js/sw.js``) never caches either — a page kept for
    offline use would show it to whoever opens the phone after a logout."""
    setattr(request, _SHOWS_SECRET, True)


def no_copy_of_secrets(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[..., Any]:
    """Middleware: pages marked by ``shows_secret`` get Django's never-cache headers."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if getattr(request, _SHOWS_SECRET, False):
            add_never_cache_headers(response)
        return response

    return middleware


class LogoutView(auth_views.LogoutView):
    """Logging out clears what the browser keeps of the site: its caches (the service
    worker's pages) and its storage (the outbox of queued events, the service worker
    itself), by ``Clear-Site-Data``. Offline after a logout, no page of the account
    opens from the phone, and nothing queued is sent in the next user's name."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response
