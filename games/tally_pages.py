""" "Ergebnis eintragen" pages: the evening's next deal as the table counted it (a
``tally``), and a game under way (its rest as a tally, its partner named, a Fuchs found
forgotten afterwards).

The form is server-rendered; every tap posts it (through htmx where it runs, as a
plain form otherwise) and the answer is the form drawn again with the next choices.
The form itself, step by step, is ``games.tally_form`` (Königrufen's steps
``games.tally_koenig``, the offline drawing ``games.tally_scratch``); here it is only
opened on the record, previewed and saved. Saving is one request: the deal, the call
or the auction, the tally (and a forgotten Fuchs' ``show``) go to the services together.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.models import GameKind, Role
from games import selectors, services
from games.access import evening_for, game_for, player_names
from games.models import Evening, Game
from games.tally_form import (
    Choices,
    TallyForm,
    result_of,
    seat_rows,
    table_state,
)
from games.tally_fuchsen import FuchsenTallyForm
from games.tally_koenig import KoenigTallyForm
from games.tally_scratch import fuchsen_scratch, koenig_scratch
from games.vocabulary import card_view


def form_class(kind: str) -> type[TallyForm]:
    """The form of the game's kind (its own contract steps)."""
    return FuchsenTallyForm if kind == GameKind.FUCHSEN else KoenigTallyForm


def evening_form(
    request: HttpRequest, evening: Evening, data: QueryDict | None = None
) -> TallyForm:
    """The evening's "Ergebnis eintragen" form for the choices in ``data`` (none: a fresh one)."""
    club = evening.club
    names = player_names(club)
    choices = Choices.from_post(data if data is not None else QueryDict())
    form = form_class(evening.game_kind)(
        kind=evening.game_kind, choices=choices, club=club, names=names
    )
    proposal = selectors.next_deal(evening=evening)
    if proposal.event is None:
        form.step = "no_deal"
        return form
    deal = form.choose_dealer(proposal.event)
    house_rules = selectors.evening_house_rules(evening=evening)
    record = {"game": evening.game_kind, "rules": house_rules or None, "events": [deal]}
    form.choose_contract(record)
    form.events = [deal, *form.events]
    form.decorate()
    if data is None and evening.game_kind == GameKind.FUCHSEN:
        form.extra["scratch"] = fuchsen_scratch(evening, record, names, club)
    elif data is None:
        form.extra["scratch"] = koenig_scratch(evening, record, names, club)
    # What the phone queues when "Save" meets a dead network: the API's body for this
    # tally (the server judges it when it arrives; the page holds no rule).
    form.extra["offline"] = {
        "api": reverse("game-start", args=[evening.pk]),
        "evening": evening.pk,
        "body": {"events": form.events},
    }

    def run(*, dry_run: bool) -> dict[str, Any]:
        return result_of(
            services.game_started(
                evening=evening, user=request.user, events=form.events, dry_run=dry_run
            )
        )

    form.preview(run, {**record, "events": form.events})
    return form


def _called_card(record: dict[str, Any]) -> str | None:
    """The called card of the record's standing call or winning bid (for naming the partner)."""
    stand: list[dict[str, Any]] = []
    for event in record["events"]:
        if event.get("type") == "undo":
            if stand:
                stand.pop()
        else:
            stand.append(event)
    card = None
    for event in stand:
        if event.get("type") == "call":
            card = event.get("card")
        if event.get("type") == "bid":
            card = event.get("called")
    return card if isinstance(card, str) else None


def game_form(request: HttpRequest, game: Game, data: QueryDict | None = None) -> TallyForm:
    """The form for a game already under way (late tally), or its partner, or a forgotten Fuchs."""
    club = game.evening.club
    names = player_names(club)
    choices = Choices.from_post(data if data is not None else QueryDict())
    form = form_class(game.game_kind)(kind=game.game_kind, choices=choices, club=club, names=names)
    record = selectors.game_record(game=game)
    state = table_state(record)
    form.seats = seat_rows(state, names)
    called = _called_card(record)
    result = state.get("result") or {}
    if state.get("tally"):
        form.ask_tally(record)
    elif result.get("awaiting") == "partner" and called:
        # The partner is named by his showing the called card (hindsight rule 4).
        form.step = "name_partner"
        candidates = [s for s in form.seats if s["id"] not in (result.get("declarers") or [])]
        form.extra["candidates"] = [
            {**s, "on": choices.get("partner") == s["id"]} for s in candidates
        ]
        form.extra["called_card"] = card_view(called, club.card_face, game.game_kind)
        if choices.get("partner") in {s["id"] for s in candidates}:
            form.events = [{"type": "show", "player": choices.get("partner"), "cards": [called]}]
            form.ready = True
    elif (
        game.game_kind == GameKind.FUCHSEN
        and state.get("status") == "finished"
        and result.get("contract") == "partner"
        and result.get("reason") != "fuchs_forgotten"
        and len(result.get("declarers") or []) == 2
    ):
        form.step = "forgotten"
        hilfer = str((result.get("declarers") or ["", ""])[1])
        form.extra["hilfer"] = names.get(hilfer, hilfer)
        if choices.get("forgotten"):
            form.events = [{"type": "show", "player": hilfer, "cards": ["GO"]}]
            form.ready = True
    else:
        form.step = "no_tally"
    form.decorate()
    # Queued offline with the seq the form was drawn at: if the game moved on since,
    # the server answers 409 and the phone shows it (nothing is appended blindly).
    form.extra["offline"] = {
        "api": reverse("game-event-append", args=[game.pk]),
        "evening": game.evening_id,
        "body": {"expected_seq": game.last_seq, "events": form.events},
    }

    def run(*, dry_run: bool) -> dict[str, Any]:
        append = services.game_events_judge if dry_run else services.game_events_append
        return result_of(
            append(game=game, user=request.user, expected_seq=game.last_seq, events=form.events)
        )

    form.preview(run, {**record, "events": [*record["events"], *form.events]})
    form.extra["game_result"] = result
    return form


def render_form(request: HttpRequest, form: TallyForm, context: dict[str, Any]) -> HttpResponse:
    context = {**context, "form": form, "x": form.extra}
    if getattr(request, "htmx", False):
        return render(request, "games/_tally_form.html", context)
    return render(request, "games/tally.html", context)


def saved(request: HttpRequest, to: str) -> HttpResponse:
    if getattr(request, "htmx", False):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = to
        return response
    return redirect(to)


@login_required
@require_http_methods(["GET", "POST"])
def evening_tally(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Record the evening's next deal from what the table counted, in one saving request."""
    evening, _membership = evening_for(request, evening_id, Role.SCORER)
    data = request.POST if request.method == "POST" else None
    form = evening_form(request, evening, data)
    result = form.save() if request.method == "POST" and request.POST.get("save") == "1" else None
    if result is not None:
        # Said below the form (at-tally), so that nothing above it moves.
        if result.get("awaiting") == "partner":
            messages.success(
                request,
                _("Saved. The game waits for its partner to be named."),
                extra_tags="at-tally",
            )
        else:
            messages.success(request, _("The result is saved."), extra_tags="at-tally")
        # Back at the form for the next deal: htmx reloads the evening page where it
        # is (the browser keeps the scroll position; a redirect to "#deal" on the
        # same page would only scroll); without it, the page opens at the form.
        if getattr(request, "htmx", False):
            response = HttpResponse(status=204)
            response["HX-Refresh"] = "true"
            return response
        return redirect(reverse("evening-page", args=[evening.pk]) + "#deal")
    return render_form(
        request,
        form,
        {
            "club": evening.club,
            "evening": evening,
            "action": reverse("evening-tally", args=[evening.pk]),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def game_tally(request: HttpRequest, game_id: int) -> HttpResponse:
    """The rest of a game recorded card by card, as a tally ("Rest nicht mitschreiben");
    the partner of a game that waits for him; a Fuchs found forgotten afterwards."""
    game, _membership = game_for(request, game_id, Role.SCORER)
    data = request.POST if request.method == "POST" else None
    form = game_form(request, game, data)
    if request.method == "POST" and request.POST.get("save") == "1" and form.save() is not None:
        messages.success(request, _("The result is saved."))
        return saved(request, reverse("evening-page", args=[game.evening_id]))
    return render_form(
        request,
        form,
        {
            "club": game.evening.club,
            "evening": game.evening,
            "game": game,
            "action": reverse("game-tally", args=[game.pk]),
        },
    )
