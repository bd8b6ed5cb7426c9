"""Dealing the next game and recording it at the table.

The recording page draws the table in the browser (``static/js/record.js``) from the
same JSON the API answers, so a tap is one POST and nothing else. Its sentences are
the JavaScript catalogue's (``djangojs``, served at ``/jsi18n/<language>/``); this
module sends the page only data: the game, the names, and the words the server
pages share with it (``record_words``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from clubs.models import Club, GameKind, Role, role_at_least
from games import selectors, services
from games.access import evening_for, game_for, player_names
from games.errors import GamesError
from games.pages.refusals import report_refusal
from games.presenters import deck_rows, game_detail_data, safe_rules
from games.vocabulary import (
    CONTRACTS,
    KOENIG_CONTRACTS,
    WITH_CALLED,
    WITH_FACE_DOWN,
    card_view,
    contract_names,
    error_titles,
    level_names,
    rank_labels,
    rank_names,
    reason_names,
    suit_names,
)

# --- A new game ----------------------------------------------------------------------------------


def _parse_hand(text: str) -> list[str]:
    return [c.strip().upper() for c in text.replace(",", " ").split() if c.strip()]


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Deal the next game: the dealer (next clockwise) is pre-filled; hands are optional."""
    evening, _membership = evening_for(request, evening_id, Role.SCORER)
    club = evening.club
    proposal = selectors.next_deal(evening=evening)
    seats = selectors.evening_seats(evening=evening)
    rules = safe_rules(evening.game_kind, selectors.evening_house_rules(evening=evening))
    six = evening.game_kind == GameKind.FUCHSEN and len(seats) == 6
    named_sit_out = six and rules.get("sit_out") == "named"
    quick = request.POST.get("quick") == "1"
    if request.method == "POST" and proposal.event is not None:
        deal: dict[str, Any] | None = None
        if not quick:
            seated = [str(seat.player_id) for seat in seats]
            dealer = request.POST.get("dealer", "")
            deal = dict(proposal.event)
            if dealer in seated:
                deal["dealer"] = dealer
            if named_sit_out:
                out = request.POST.get("sitting_out", "")
                if out in seated:
                    deal["sitting_out"] = out
            hands = {}
            for pid in seated:
                cards = _parse_hand(request.POST.get(f"hand{pid}", ""))
                if cards:
                    hands[pid] = cards
            if hands:
                deal["hands"] = hands
        try:
            game = services.game_start(evening=evening, user=request.user, deal=deal)
        except (ValidationError, GamesError) as error:
            # A quick deal's refusal stands at the evening page's deal button.
            report_refusal(request, error, club, at="at-record" if quick else "")
        else:
            return redirect("game-page", game_id=game.pk)
        if quick:
            return redirect(reverse("evening-page", args=[evening.pk]) + "#deal")
    return render(
        request,
        "games/game_new.html",
        {
            "club": club,
            "evening": evening,
            "proposal": proposal,
            "seats": seats,
            "named_sit_out": named_sit_out,
            "six": six,
            "posted": request.POST if request.method == "POST" else {},
            "deck": [
                [card_view(c, club.card_face, evening.game_kind) if c else None for c in row]
                for row in deck_rows(
                    evening.game_kind, 5 if six else len(seats), rules.get("removed_cards", [])
                )
            ],
        },
    )


# --- Recording a game ----------------------------------------------------------------------------


def record_words(face: str) -> dict[str, Any]:
    """The names record.js shows for the engine's codes, in the page's language: the
    club's suits and ranks (``face``), levels, contracts, result reasons and the
    headings of the engine's errors. Data keyed by code, shared with the server's
    pages through ``games.vocabulary``; the page's sentences are the JS catalogue's."""
    return {
        "suits": suit_names(face),
        "rank_labels": rank_labels(face),
        "rank_names": rank_names(face),
        "levels": level_names(),
        "contracts": contract_names(),
        "reasons": reason_names(),
        "errors": error_titles(),
    }


def _offline_extras(kind: str, record: dict[str, Any], state: dict[str, Any]) -> dict[str, bool]:
    """What the offline grid may add to a card it queues, as the engine offered it at
    page load: a Fuchs announcement where its table view of the record up to the
    standing call offers a tally's ``fuchs`` (a partner game: someone may say it), a
    turned card played face down where that view offers face-down cards. The page
    offers them unchecked; the engine judges each entry when it is sent. (Königrufen's
    bids offline are those of the last table the server drew: its ``legal``.)"""
    if kind != GameKind.FUCHSEN:
        return {}
    events = record.get("events") or []
    effective = [events[i] for i in state.get("effective") or [] if i < len(events)]
    calls = [i for i, e in enumerate(effective) if e.get("type") == "call"]
    if not calls:
        return {"fuchs": False, "turned": False}
    view = selectors.table_state(record={**record, "events": effective[: calls[-1] + 1]})
    fields = (view.get("tally") or {}).get("fields") or {}
    return {
        "fuchs": "fuchs" in fields,
        "turned": bool((view.get("legal") or {}).get("face_down")),
    }


@login_required
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """Record a game at the table (or look at it, for members who do not score)."""
    game, membership = game_for(request, game_id)
    club = game.evening.club
    rules = safe_rules(game.game_kind, game.house_rules)
    data = game_detail_data(game)
    names = player_names(club)
    names.update(data.get("players") or {})
    values = (data.get("state") or {}).get("values") or {}
    config = {
        "game_id": game.pk,
        "kind": game.game_kind,
        "face": club.card_face,
        "names": names,
        "game_api": reverse("game-detail", args=[game.pk]),
        "events_api": reverse("game-event-append", args=[game.pk]),
        "evening_url": reverse("evening-page", args=[game.evening_id]),
        "new_game_url": reverse("game-new", args=[game.evening_id]),
        "replay_url": reverse("game-replay", args=[game.pk]),
        "change_url": reverse("game-result-change", args=[game.pk]),
        # The engine's contracts one may bid (an entry of the auction changed offers them).
        "bids": list(CONTRACTS) if game.game_kind == GameKind.KOENIGRUFEN else [],
        "readonly": not role_at_least(membership.role, Role.SCORER) or not game.evening.is_open,
        "removed_cards": rules.get("removed_cards", ["S7", "G7"]),
        # The game's value at each level or contract under its house rules, as the
        # engine's table view gives it (Königrufen: the contracts the page lists).
        "level_values": values if game.game_kind == GameKind.FUCHSEN else {},
        "contract_values": {c: values.get(c, 0) for c in KOENIG_CONTRACTS}
        if game.game_kind == GameKind.KOENIGRUFEN
        else {},
        "with_called": list(WITH_CALLED),
        "with_face_down": list(WITH_FACE_DOWN),
        # The deck of this game as the engine's table view lays it out: offline, the
        # recording page offers these cards (unchecked) without a table view to ask.
        "deck": (data.get("state") or {}).get("deck") or [],
        "offline": _offline_extras(
            game.game_kind, selectors.game_record(game=game), data.get("state") or {}
        ),
        "points": club.currency_unit == Club.CurrencyUnit.POINTS,
        "words": record_words(club.card_face),
    }
    return render(
        request,
        "games/record.html",
        {
            "club": club,
            "game": game,
            "evening": game.evening,
            "config": config,
            "data": {
                "state": data["state"],
                "last_seq": data["last_seq"],
                "events": [{"type": e["type"], **e["payload"]} for e in data["events"]],
                "explanation": data["explanation"],
                "reasons": data["reasons"],
            },
        },
    )
