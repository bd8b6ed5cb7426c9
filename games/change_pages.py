""" "Ergebnis ändern": a saved result put right in one request.

The evening's games list and a game's result offer it. The form is the evening's
"Ergebnis eintragen" form (``games.tally_form``), opened filled with the choices
the game's record holds (its deal, call or auction, tally); saving undoes the
record's standing entries and enters the chosen ones in ONE append
(``services.game_result_reenter``): all or nothing, every step on record, the
ledger booked again in the same transaction. What the form offers and what the
result is stay the engine's word (its table view and the services' dry run).

A game recorded card by card is not re-entered as a result (its cards would be
lost): the page sends the scorer to the game's entries, each of which can be
changed there ("ändern" in "Alle Einträge").
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.models import GameKind, Role
from games import selectors
from games.access import game_for, player_names
from games.models import Game
from games.services import game_result_reenter
from games.services.result_change import standing_events
from games.tally_form import Choices, TallyForm, result_of
from games.tally_pages import form_class, render_form, saved

# The entries a result typed in is made of; a record with any other standing entry
# (a card played, a card shown that is no partner's, a forfeit) was not typed in so.
RESULT_ENTRIES = frozenset({"deal", "call", "bid", "pass", "join", "tally", "show"})


def recorded_choices(kind: str, standing: list[dict[str, Any]]) -> dict[str, str] | None:
    """The tally form's choices that make ``standing`` (a result typed in), or None if
    the form cannot make these entries (cards played, a card laid face down or turned,
    no tally): such a game is put right entry by entry on its own page."""
    if not standing or standing[0].get("type") != "deal":
        return None
    if any(e.get("type") not in RESULT_ENTRIES for e in standing):
        return None
    tallies = [e for e in standing if e.get("type") == "tally"]
    if len(tallies) != 1:
        return None
    deal, tally = standing[0], tallies[0]
    values = {name: "" for name in ("macher", "called", "auction", "forgotten")}
    values["dealer"] = str(deal.get("dealer") or "")
    steps: list[str] = []
    for event in standing[1:]:
        typ = event.get("type")
        if event.get("turned") or ("card" in event and typ in ("bid", "join")):
            return None  # a card turned or laid face down: the form has no such choice
        if typ == "call" and kind == GameKind.FUCHSEN:
            values["macher"] = str(event.get("player") or "")
            values["called"] = "alone" if event.get("alone") else str(event.get("card") or "")
        elif typ == "bid":
            step = f"bid:{event.get('contract')}"
            steps.append(f"{step}:{event['called']}" if event.get("called") else step)
        elif typ in ("pass", "join"):
            steps.append(str(typ))
        elif typ == "call":
            return None
    values["auction"] = "|".join(steps)
    level = tally.get("level", "")
    values["level"] = "-" if "level" in tally and level is None else str(level or "")
    values["won"] = {True: "1", False: "0"}.get(tally.get("won"), "")  # type: ignore[arg-type]
    values["augen"] = str(tally["augen"]) if isinstance(tally.get("augen"), int) else ""
    values["silent"] = "1" if tally.get("silent") else ""
    values["fuchs"] = "1" if tally.get("fuchs") else ""
    values["losers"] = ",".join(str(p) for p in tally.get("losers") or [])
    partner = str(tally.get("partner") or "")
    for event in standing:
        if event.get("type") != "show":
            continue
        if kind == GameKind.FUCHSEN and event.get("cards") == ["GO"]:
            values["forgotten"] = "1"
            partner = partner or str(event.get("player") or "")
        elif not partner:
            # The partner named after the result (he showed the called card).
            partner = str(event.get("player") or "")
    values["partner"] = partner
    return values


def change_form(
    request: HttpRequest, game: Game, data: QueryDict | None = None
) -> tuple[TallyForm | None, int]:
    """The form filled with the game's result (``data``: the choices posted since), and
    the seq it was drawn at; no form for a game whose result was not typed in."""
    club = game.evening.club
    names = player_names(club)
    record = selectors.game_record(game=game)
    standing = standing_events(record)
    filled = recorded_choices(game.game_kind, standing)
    if filled is None:
        return None, game.last_seq
    seq = game.last_seq
    if data is not None:
        choices = Choices.from_post(data)
        posted_seq = str(data.get("seq", ""))
        seq = int(posted_seq) if posted_seq.isdigit() else game.last_seq
    else:
        choices = Choices(filled)
    form = form_class(game.game_kind)(kind=game.game_kind, choices=choices, club=club, names=names)
    deal = form.choose_dealer(standing[0])
    base = {"game": record["game"], "rules": record.get("rules"), "events": [deal]}
    form.choose_contract(base)
    form.events = [deal, *form.events]
    form.decorate()
    form.extra["seq"] = seq
    form.extra["change"] = True

    def run(*, dry_run: bool) -> dict[str, Any]:
        return result_of(
            game_result_reenter(
                game=game, user=request.user, expected_seq=seq, events=form.events, dry_run=dry_run
            )
        )

    form.preview(run, {**base, "events": form.events})
    return form, seq


@login_required
@require_http_methods(["GET", "POST"])
def game_result_change(request: HttpRequest, game_id: int) -> HttpResponse:
    """A saved result, opened filled; "Save" undoes it and enters the new one in one request."""
    game, _membership = game_for(request, game_id, Role.SCORER)
    if not game.evening.is_open:
        messages.error(request, _("This evening is closed: its games cannot change any more."))
        return redirect("game-replay", game_id=game.pk)
    data = request.POST if request.method == "POST" else None
    form, _seq = change_form(request, game, data)
    if form is None:
        # Recorded card by card: each entry is changed on the game's page.
        messages.info(
            request,
            _("This game was recorded card by card: change the wrong entry under “All entries”."),
        )
        return redirect(reverse("game-page", args=[game.pk]) + "#entries")
    if request.method == "POST" and request.POST.get("save") == "1" and form.save() is not None:
        messages.success(request, _("The result is changed."))
        return saved(request, reverse("evening-page", args=[game.evening_id]))
    return render_form(
        request,
        form,
        {
            "club": game.evening.club,
            "evening": game.evening,
            "game": game,
            "action": reverse("game-result-change", args=[game.pk]),
            "changing": True,
        },
    )
