"""Site-wide pages that are no app's: the answer to a failed CSRF check."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a page of the site's own (Django's inlines a ``<style>``,
    which the Content-Security-Policy blocks), saying in German what to do: load the
    form again and send it once more. ``reason`` (Django's, in English) is not shown."""
    return render(request, "403_csrf.html", status=403)
