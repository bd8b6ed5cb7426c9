"""The pages of the live app: a game's history and an evening's change log (members
read); the live table behind a link (anyone holding it, read-only) and its members'
twin on the evening page; opening, showing (QR code) and revoking links (scorers)."""

from __future__ import annotations

import io
import json
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth import get_user
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs import selectors as club_selectors
from clubs.models import Club, Role
from games.models import Evening, Game
from games.vocabulary import card_view, contract_names, level_names, money
from live import access, selectors, services, stream
from live.models import LiveLink
from live.services import link_key
from stichbuch.pages import shows_secret


def event_labels() -> dict[str, str]:
    return {
        "deal": _("Deal"),
        "call": _("Call"),
        "bid": _("Bid"),
        "pass": _("Pass"),
        "join": _("Joins"),
        "play": _("Card played"),
        "raise": _("Raise"),
        "end_raising": _("First trick collected"),
        "show": _("Cards shown"),
        "tally": _("Result entered"),
        "forfeit": _("Forfeit"),
        "annul": _("Annulled"),
        "undo": _("Undo"),
    }


def log_labels() -> dict[str, str]:
    return {
        "game_started": _("Game started"),
        "game_annulled": _("Game annulled"),
        "game_reopened": _("Game taken back into play"),
        "evening_closed": _("Evening closed"),
        "evening_reopened": _("Evening opened again"),
        "payment_booked": _("Payment booked"),
        "payment_reversed": _("Payment reversed"),
        "settlement_paid": _("Settlement transfer marked paid"),
    }


def _names(club: Club) -> dict[str, str]:
    return {str(p.pk): p.display_name for p in club_selectors.player_list(club=club)}


def event_text(
    payload: dict[str, Any], names: dict[str, str], *, face: str | None = None, kind: str = ""
) -> str:
    """The event's fields in words: players by name, cards by their names ("Schellen-
    Zehner", not "S10"), levels and contracts as the table says them, won or lost."""
    face = face or Club.CardFace.GERMAN
    levels, contracts = level_names(), contract_names()

    def who(value: Any) -> str:
        return names.get(str(value), str(value))

    def card(value: Any) -> str:
        text = str(value)
        if len(text) < 2 or text[0] not in "EGRS":
            return text
        return str(card_view(text, face, kind)["name"])

    parts = []
    for key in ("player", "dealer", "card", "called", "cards", "level", "contract", "won"):
        if key not in payload:
            continue
        value = payload[key]
        if key in ("player", "dealer"):
            parts.append(who(value))
        elif key in ("card", "called"):
            parts.append(card(value))
        elif key == "cards" and isinstance(value, list):
            parts.append(", ".join(card(v) for v in value))
        elif key == "level":
            parts.append(levels.get(str(value or ""), _("no Kontra")))
        elif key == "contract":
            parts.append(contracts.get(str(value), str(value)))
        elif key == "won":
            parts.append(_("won") if value else _("lost"))
    if payload.get("alone"):
        parts.append(contracts.get("alone", _("alone")))
    if payload.get("partner"):
        parts.append(_("partner %(p)s") % {"p": who(payload["partner"])})
    if payload.get("silent"):
        parts.append(_("Stilles Spiel"))
    if payload.get("fuchs"):
        parts.append(_("Fuchs announced"))
    if isinstance(payload.get("augen"), int):
        parts.append(_("%(n)s Augen") % {"n": payload["augen"]})
    if payload.get("losers"):
        parts.append(_("lost: %(p)s") % {"p": ", ".join(who(p) for p in payload["losers"])})
    if payload.get("reason"):
        parts.append(str(payload["reason"]))
    return " · ".join(parts)


@login_required
def game_history(request: HttpRequest, game_id: int) -> HttpResponse:
    game = access.game_for(request.user, game_id)
    club = game.evening.club
    game = Game.objects.select_related("created_by", "evening", "evening__club").get(pk=game.pk)
    history = selectors.game_history(game=game)
    names = _names(club)
    labels = event_labels()
    rows = [
        {
            "e": event,
            "label": labels.get(event.type, event.type),
            "text": event_text(event.payload, names, face=club.card_face, kind=game.game_kind),
        }
        for event in history.events
    ]
    return render(
        request,
        "live/game_history.html",
        {"club": club, "game": game, "evening": game.evening, "history": history, "rows": rows},
    )


@login_required
def evening_log(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = access.evening_for(request.user, evening_id)
    labels = log_labels()
    rows = [
        {
            "e": entry,
            "label": labels[entry.kind],
            "amount": money(entry.amount, evening.club) if entry.amount is not None else "",
        }
        for entry in selectors.evening_log(evening=evening)
    ]
    return render(
        request,
        "live/evening_log.html",
        {"club": evening.club, "evening": evening, "rows": rows},
    )


# --- The live table ------------------------------------------------------------------------------


def _link_evening(token: str) -> Evening:
    """The evening of an active, genuine link; 404 for a revoked, tampered or made-up one."""
    key = link_key(token)
    link = selectors.live_link_get(key=key) if key is not None else None
    if link is None:
        raise Http404
    return link.evening


def live_words() -> dict[str, Any]:
    """The names live.js shows for the engine's codes (levels, contracts, kinds of
    entry), in the page's language: data keyed by code, as the history pages name them.
    The view's sentences are the JS catalogue's (``/jsi18n/<language>/``)."""
    return {"levels": level_names(), "contracts": contract_names(), "events": event_labels()}


def _live_context(evening: Evening, state_url: str, stream_url: str) -> dict[str, Any]:
    return {
        "live_config": {"state": state_url, "stream": stream_url, "words": live_words()},
        "live_state": json.loads(stream.state_json(evening.pk)),
    }


@require_GET
def live_page(request: HttpRequest, token: str) -> HttpResponse:
    """The live table for anyone holding the link: read-only, no account needed."""
    evening = _link_evening(token)
    context = _live_context(
        evening,
        reverse("live-state", args=[token]),
        reverse("live-events", args=[token]),
    )
    response = render(request, "live/live.html", {"evening": evening, **context})
    response["Referrer-Policy"] = "no-referrer"  # the token never leaves in a Referer
    response["X-Robots-Tag"] = "noindex"
    return response


@require_GET
def live_state(request: HttpRequest, token: str) -> HttpResponse:
    """The live state as JSON (the view polls it when it has no push connection)."""
    evening = _link_evening(token)
    return HttpResponse(stream.state_json(evening.pk), content_type="application/json")


@require_GET
async def live_events(request: HttpRequest, token: str) -> HttpResponseBase:
    """The live state pushed as server-sent events."""
    key = link_key(token)
    if key is None:
        raise Http404

    def still_allowed() -> Evening:
        return _link_evening(token)

    def find() -> stream.Viewer:
        evening = still_allowed()
        return stream.Viewer(evening.pk, f"link:{key}", f"link:{key}", still_allowed)

    return await stream.stream_response(request, find)


def _member_evening(user: Any, evening_id: int) -> Evening:
    return access.evening_for(user, evening_id)


@login_required
@require_GET
def evening_live_state(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = _member_evening(request.user, evening_id)
    return HttpResponse(stream.state_json(evening.pk), content_type="application/json")


@require_GET
async def evening_live_events(request: HttpRequest, evening_id: int) -> HttpResponseBase:
    """The members' live stream of the evening (the evening and game pages).

    The session is read in the streams' pool (``stream.stream_response``), not in the
    request's own thread: a burst of streams opens no connection each."""

    def find() -> stream.Viewer:
        user = get_user(request)
        if not user.is_authenticated:
            raise Http404
        evening = _member_evening(user, evening_id)
        session_key = request.session.session_key or ""
        session_store = type(request.session)

        def still_allowed() -> Evening:
            # Logged out (the session gone) or no longer a member: the stream ends.
            if not session_store().exists(session_key):
                raise Http404
            return _member_evening(user, evening_id)

        holder = f"member:{user.pk}"
        return stream.Viewer(
            evening.pk, holder, f"{holder}:{session_key}:{evening.pk}", still_allowed
        )

    return await stream.stream_response(request, find)


def member_live_context(evening: Evening) -> dict[str, Any]:
    """What the evening and game pages include to show the live view to members."""
    return _live_context(
        evening,
        reverse("evening-live-state", args=[evening.pk]),
        reverse("evening-live-events", args=[evening.pk]),
    )


@login_required
@require_POST
def live_link_new(request: HttpRequest, evening_id: int) -> HttpResponse:
    """A scorer (or admin) opens a live link for the evening; it shows on the evening page."""
    evening = access.evening_for(request.user, evening_id, Role.SCORER)
    # One link per evening is what a table needs: the one that exists is shown again
    # rather than a new one made at every tap (a revoked one is gone, then a new one).
    if not selectors.live_links(evening=evening):
        services.live_link_create(evening=evening, user=request.user)
    messages.success(request, _("The live link is open: show its QR code at the table."))
    return redirect(reverse("evening-page", args=[evening.pk]) + "#live-links")


def _scorer_link(request: HttpRequest, evening_id: int, link_id: int) -> LiveLink:
    evening = access.evening_for(request.user, evening_id, Role.SCORER)
    link = LiveLink.objects.filter(pk=link_id, evening=evening, revoked_at__isnull=True).first()
    if link is None:
        raise Http404
    return link


@login_required
@require_POST
def live_link_revoke(request: HttpRequest, evening_id: int, link_id: int) -> HttpResponse:
    link = _scorer_link(request, evening_id, link_id)
    services.live_link_revoke(link=link)
    messages.success(request, _("The live link is revoked: it no longer opens."))
    return redirect(reverse("evening-page", args=[evening_id]) + "#live-links")


@login_required
@require_GET
def live_link_qr(request: HttpRequest, evening_id: int, link_id: int) -> HttpResponse:
    """The link's QR code (SVG), for the scorer to show at the table."""
    link = _scorer_link(request, evening_id, link_id)
    url = request.build_absolute_uri(reverse("live-page", args=[services.link_token(link)]))
    svg = io.BytesIO()
    segno.make(url, error="m").save(svg, kind="svg", scale=6, border=2, xmldecl=False)
    response = HttpResponse(svg.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-store"
    return response


def live_links_context(request: HttpRequest, evening: Evening) -> list[dict[str, Any]]:
    """The evening's open links, with URL and QR code address, for its scorers."""
    links = list(selectors.live_links(evening=evening))
    if links:
        shows_secret(request)  # a link opens the table to anyone holding it
    return [
        {
            "link": link,
            "url": request.build_absolute_uri(
                reverse("live-page", args=[services.link_token(link)])
            ),
            "qr": reverse("live-link-qr", args=[evening.pk, link.pk]),
            "revoke": reverse("live-link-revoke", args=[evening.pk, link.pk]),
        }
        for link in links
    ]


# --- Installable: the service worker and the web manifest -------------------------------------


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: served from the site's root so that its scope is the whole site."""
    path = finders.find("js/sw.js")
    assert isinstance(path, str)
    with open(path, encoding="utf-8") as source:
        response = HttpResponse(source.read(), content_type="application/javascript")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``: every browser asks the site's root for it, whatever the page
    links (the pages link ``img/favicon.svg`` and this file as well)."""
    path = finders.find("img/favicon.ico")
    assert isinstance(path, str)
    with open(path, "rb") as source:
        response = HttpResponse(source.read(), content_type="image/x-icon")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_GET
def web_manifest(request: HttpRequest) -> JsonResponse:
    response = JsonResponse(
        {
            "name": _("Stichbuch"),
            "short_name": _("Stichbuch"),
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": "#1f4d3a",
            "lang": "de",
            "icons": [{"src": static("img/favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
        }
    )
    response["Content-Type"] = "application/manifest+json"
    return response
