"""``/jsi18n/<language>/``: the sentences the pages' scripts show, from the message
catalogue.

The scripts in ``static/js`` ask for their texts with ``gettext`` and ``pgettext``;
``makemessages -d djangojs`` collects them into ``locale/<lang>/LC_MESSAGES/djangojs.po``
and ``compilemessages`` into its ``.mo``. This view serves that catalogue through
Django's ``JavaScriptCatalog`` (which defines ``gettext``, ``pgettext``,
``interpolate`` … on ``window``) as a script file from this origin, so the CSP's
``script-src 'self'`` allows it and no page needs an inline script.

The language is in the URL, not taken from the cookie: a page links the catalogue of
its own language (``{% url 'javascript-catalog' LANGUAGE_CODE %}``), so each
language is a URL of its own for the browser's cache and for the service worker
(``static/js/sw.js``), which keeps both for the pages opened without a network.
Only the project's own catalogue (``LOCALE_PATHS``) is served, not those of the
installed apps (the admin's calendar words would triple its size).
"""

from __future__ import annotations

import functools
import hashlib

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.utils.http import quote_etag
from django.utils.translation.trans_real import DjangoTranslation
from django.views.decorators.http import condition, require_GET
from django.views.i18n import JavaScriptCatalog

CONTENT_TYPE = 'text/javascript; charset="utf-8"'


@functools.cache
def catalogue_script(language: str) -> tuple[bytes, str]:
    """The catalogue of ``language`` as a script and its ETag. Built once per process:
    the ``.mo`` files change only with a deploy, which starts new processes."""
    view = JavaScriptCatalog()
    with translation.override(language):
        view.translation = DjangoTranslation(
            language, domain=view.domain, localedirs=[str(p) for p in settings.LOCALE_PATHS]
        )
        body = view.render_to_response(view.get_context_data()).content
    return body, quote_etag(hashlib.sha256(body).hexdigest()[:32])


def _known(language: str) -> str:
    if language not in dict(settings.LANGUAGES):
        raise Http404
    return language


def _etag(request: HttpRequest, language: str) -> str:
    return catalogue_script(_known(language))[1]


@require_GET
@condition(etag_func=_etag)
def javascript_catalogue(request: HttpRequest, language: str) -> HttpResponse:
    """The djangojs catalogue of ``language`` (one of ``LANGUAGES``, else 404).
    ``no-cache``: the browser asks again each time, and a 304 (its ETag) is all it
    gets back unless a deploy changed the texts."""
    body, _etag_value = catalogue_script(_known(language))
    response = HttpResponse(body, content_type=CONTENT_TYPE)
    response["Cache-Control"] = "no-cache"
    return response
