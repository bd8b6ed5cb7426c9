"""The web pages of evenings and games: thin views over the games selectors and services.

Who sees what follows ``clubs.permissions``: anonymous visitors are sent to the
login page, non-members of the club get a 404, members read, scorers record.
The recording page draws the table in the browser (``static/js/record.js``)
from the same JSON the API answers, so a tap is one POST and nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs import selectors as club_selectors
from clubs.forms import form_messages, id_param
from clubs.models import Club, GameKind, Role, Season, role_at_least
from clubs.permissions import membership_for
from engine.view import table_view
from games import selectors, services
from games.access import evening_for, game_for, player_names
from games.change_pages import entry_change_strings
from games.checks import check_import_records
from games.engine_text import explain
from games.errors import EngineRejected, GamesError
from games.forms import EveningNewForm
from games.models import Evening, Game
from games.presenters import (
    deck_rows,
    game_detail_data,
    game_summary,
    safe_rules,
)
from games.vocabulary import (
    CONTRACTS,
    KOENIG_CONTRACTS,
    WITH_CALLED,
    WITH_FACE_DOWN,
    card_view,
    contract_names,
    error_titles,
    level_names,
    money,
    rank_labels,
    rank_names,
    reason_names,
    suit_names,
)

# --- Access --------------------------------------------------------------------------------------


def _report(request: HttpRequest, error: Exception, club: Club | None = None, at: str = "") -> None:
    """Put a service's refusal on the page as a message, in plain words.

    An engine refusal reads as its heading and the engine's sentence in the page's
    language, with the names of ``club``'s players for their ids. ``at`` (an
    "at-<form>" tag) shows it next to that form instead of at the top.
    """
    if isinstance(error, EngineRejected):
        code = str(error.error.get("code", ""))
        title = error_titles().get(code, _("Not accepted"))
        sentence = explain(
            error.error,
            player_names(club) if club is not None else None,
            face=club.card_face if club is not None else None,
        )
        # An unknown sentence comes with its heading already.
        messages.error(
            request,
            sentence if sentence.startswith(title) else f"{title}: {sentence}",
            extra_tags=at,
        )
    elif isinstance(error, GamesError):
        messages.error(request, error.message, extra_tags=at)
    elif isinstance(error, ValidationError):
        for message in error.messages:
            messages.error(request, message, extra_tags=at)


# Evenings on one page of the club's list: a season of weekly evenings fits on one.
EVENINGS_PER_PAGE = 30


@login_required
def evening_archive(request: HttpRequest, slug: str) -> HttpResponse:
    """Every evening of the club, the latest first, a page at a time; ``?season=``
    narrows it to one of the club's seasons (another id: 404)."""
    membership = membership_for(request.user, slug)
    club = membership.club
    seasons = club_selectors.season_list(club=club)
    season: Season | None = None
    chosen = request.GET.get("season", "")
    if chosen:
        wanted = id_param(chosen)
        season = seasons.filter(pk=wanted).first() if wanted else None
        if season is None:
            raise Http404
    paginator = Paginator(selectors.evening_archive(club=club, season=season), EVENINGS_PER_PAGE)
    # ``get_page``: a page number that is no number gives the first page, one past
    # the end the last.
    page = paginator.get_page(request.GET.get("page"))
    return render(
        request,
        "games/evening_archive.html",
        {"club": club, "seasons": seasons, "season": season, "page": page},
    )


@login_required
@require_http_methods(["GET", "POST"])
def evening_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Open an evening: the season and who sits where, clockwise."""
    membership = membership_for(request.user, slug, Role.SCORER)
    club = membership.club
    seasons = list(club_selectors.season_list(club=club).filter(status=Season.Status.OPEN))
    players = list(club_selectors.player_list(club=club, active=True))
    chosen: list[str] = [""] * 6
    # The club's last evening: its season is the one chosen first (if still open), and
    # its table is offered again ("dieselben Plätze wie beim letzten Mal").
    last = selectors.evening_list(club=club).first()
    season_chosen = ""
    last_seats: list[str] = []
    place = ""
    if last is not None:
        if any(s.pk == last.season_id for s in seasons):
            season_chosen = str(last.season_id)
        playing = {str(p.pk) for p in players}
        last_seats = [
            str(seat.player_id)
            for seat in selectors.evening_seats(evening=last)
            if str(seat.player_id) in playing
        ][:6]
        if request.GET.get("seats") == "last":
            chosen = last_seats + [""] * (6 - len(last_seats))
            place = last.place
    if request.method == "POST":
        season_chosen = request.POST.get("season", "")
        place = request.POST.get("place", "")
        chosen = [request.POST.get(f"seat{i}", "") for i in range(1, 7)]
        form = EveningNewForm(request.POST)
        valid = form.is_valid()
        ids = form.seat_ids() if valid else []
        season = next((s for s in seasons if str(s.pk) == form.cleaned_data.get("season")), None)
        if not valid:
            form_messages(request, form)
        elif season is None:
            messages.error(request, _("Choose an open season."))
        elif len(set(ids)) != len(ids):
            messages.error(request, _("A player cannot sit at two places."))
        else:
            try:
                evening = services.evening_create(
                    club=club,
                    user=request.user,
                    season=season,
                    players=ids,
                    place=form.cleaned_data["place"],
                )
            except (ValidationError, GamesError) as error:
                _report(request, error)
            else:
                return redirect("evening-page", evening_id=evening.pk)
    return render(
        request,
        "games/evening_new.html",
        {
            "club": club,
            "seasons": seasons,
            "season_chosen": season_chosen,
            "place": place,
            "players": players,
            "seats": [(i, chosen[i - 1]) for i in range(1, 7)],
            "last": last if len(last_seats) >= 4 else None,
            "last_names": ", ".join(
                next(p.display_name for p in players if str(p.pk) == pid) for pid in last_seats
            ),
        },
    )


def _evening_done(
    request: HttpRequest,
    evening_id: int,
    role: str,
    act: Callable[[Evening], object],
    done: str,
    then: Callable[[Evening], HttpResponse] | None = None,
) -> HttpResponse:
    """Do ``act`` to the evening (for members with ``role``) and say ``done``, or why
    it was refused; then ``then`` (by default back to the evening's page; a refusal
    always goes back there)."""
    evening, _membership = evening_for(request, evening_id, role)
    try:
        act(evening)
    except (ValidationError, GamesError) as error:
        _report(request, error)
        return redirect("evening-page", evening_id=evening.pk)
    messages.success(request, done)
    if then is not None:
        return then(evening)
    return redirect("evening-page", evening_id=evening.pk)


@login_required
@require_POST
def evening_close(request: HttpRequest, evening_id: int) -> HttpResponse:
    return _evening_done(
        request,
        evening_id,
        Role.SCORER,
        lambda evening: services.evening_close(evening=evening, user=request.user),
        _("The evening is closed."),
    )


@login_required
@require_POST
def evening_reopen(request: HttpRequest, evening_id: int) -> HttpResponse:
    """An admin opens a closed evening again (a game to type in afterwards)."""
    return _evening_done(
        request,
        evening_id,
        Role.ADMIN,
        lambda evening: services.evening_reopen(evening=evening, user=request.user),
        _("The evening is open again: games can be recorded."),
    )


@login_required
@require_POST
def evening_delete(request: HttpRequest, evening_id: int) -> HttpResponse:
    """A scorer deletes an evening opened by mistake (nothing recorded in it yet)."""
    return _evening_done(
        request,
        evening_id,
        Role.SCORER,
        lambda evening: services.evening_delete(evening=evening),
        _("The evening is deleted."),
        then=lambda evening: redirect("club-book", slug=evening.club.slug),
    )


@login_required
@require_POST
def seat_leave(request: HttpRequest, evening_id: int, player_id: int) -> HttpResponse:
    """A player gets up between games; his seat stays in the evening's history."""
    evening, _membership = evening_for(request, evening_id, Role.SCORER)
    player = club_selectors.player_list(club=evening.club).filter(pk=player_id).first()
    if player is None:
        raise Http404
    try:
        services.evening_seat_remove(evening=evening, player=player)
    except (ValidationError, GamesError) as error:
        _report(request, error, at="at-seats")
    return redirect(reverse("evening-page", args=[evening.pk]) + "#seats")


@login_required
@require_POST
def evening_import(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Upload a JSON file of records (one, a list, or an evening's export) into the evening."""
    evening, _membership = evening_for(request, evening_id, Role.SCORER)
    # Its outcome stands beside the import form (at-records), whatever it is.
    at = "at-records"
    back = redirect(reverse("evening-page", args=[evening.pk]) + "#records")
    upload = request.FILES.get("records")
    if upload is None or (upload.size or 0) > 2_000_000:
        messages.error(request, _("Choose a JSON file of at most 2 MB."), extra_tags=at)
        return back
    try:
        body = json.loads(upload.read().decode("utf-8"))
    except RecursionError:
        messages.error(request, _("The JSON is nested too deeply."), extra_tags=at)
        return back
    except ValueError:  # not UTF-8, or not JSON
        messages.error(request, _("This file is not JSON."), extra_tags=at)
        return back
    records = (
        body
        if isinstance(body, list)
        else body.get("records", [body])
        if isinstance(body, dict)
        else []
    )
    if not isinstance(records, list):
        records = [records]
    try:
        # The API's checks, before anything is stored or shown: nesting, valid
        # Unicode (a lone surrogate cannot even be written into the page that
        # reports it), NUL characters, size.
        check_import_records(records)
        outcomes = services.games_import(evening=evening, user=request.user, records=records)
    except (ValidationError, GamesError) as error:
        _report(request, error, at=at)
        return back
    imported = sum(1 for o in outcomes if o.imported)
    messages.success(
        request,
        _("%(n)d of %(total)d records imported.") % {"n": imported, "total": len(outcomes)},
        extra_tags=at,
    )
    for outcome in outcomes:
        if not outcome.imported:
            messages.error(
                request,
                _("Record %(i)d rejected: %(why)s")
                % {"i": outcome.index + 1, "why": outcome.detail or outcome.reason},
                extra_tags=at,
            )
    return back


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
            _report(request, error, club, at="at-record" if quick else "")
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


def record_strings() -> dict[str, Any]:
    """Every text record.js shows, translated here so the pages need no JS catalogue."""
    return {
        "money": _("%(v)s ct"),
        "suit_g": suit_names(Club.CardFace.GERMAN),
        "suit_f": suit_names(Club.CardFace.FRENCH),
        "rank_g": rank_labels(Club.CardFace.GERMAN),
        "rank_f": rank_labels(Club.CardFace.FRENCH),
        "rank_name_g": rank_names(Club.CardFace.GERMAN),
        "rank_name_f": rank_names(Club.CardFace.FRENCH),
        "card_name": _("%(rank)s of %(suit)s"),
        "levels": level_names(),
        "contracts": contract_names(),
        "reasons": reason_names(),
        "errors": error_titles(),
        "face_down": _("face down"),
        "seats": _("Seats, clockwise"),
        "dealer": _("dealer"),
        "sits_out": _("sits out"),
        "macher": _("Macher"),
        "hilfer": _("Hilfer"),
        "declarer": _("declarer"),
        "partner": _("partner"),
        "trump": _("Trump"),
        "on_table": _("The trick on the table"),
        "st_finished": _("Game over"),
        "st_annulled": _("Annulled"),
        "st_invalid": _("The record is invalid"),
        "st_unavailable": _("The table cannot be shown just now: reload the page."),
        "st_deal": _("Deal the cards"),
        "st_call": _("%(p)s calls"),
        "st_call_unknown": _("The Macher calls"),
        "st_bid": _("%(p)s bids"),
        "st_play": _("%(p)s plays"),
        "st_lead": _("%(p)s leads"),
        "st_raise_or_end": _("The first trick is complete: raise, or collect it"),
        "st_partner": _("Who is the partner?"),
        "st_hilfer": _("Who is the Hilfer?"),
        "alone": _("alone (Herausspielen)"),
        "called": _("called:"),
        "no_level": pgettext("tally in the replay", "no raise"),
        "fuchs_said": _("Fuchs!"),
        "augen_so_far": _("Augen: Macher's side %(d)s, opponents %(o)s"),
        "last_trick": _("Trick %(n)s went to %(p)s"),
        "augen_final": _("Augen: Macher's side %(d)s, opponents %(o)s"),
        "say_level": _("Say %(l)s (%(v)s)?"),
        "end_hint": _("No more raising: the first trick is collected."),
        "end_raising": _("Trick done (Stich fertig)"),
        "fuchs_toggle": _("Fuchs! — announce with this card"),
        "turned_toggle": _("This is the turned card (face down)"),
        "tap_card": _("Tap the card %(p)s plays"),
        "no_legal": _("No card is legal now: undo the last entry or check the record."),
        "call_title": _("The call"),
        "who_macher": _("Who has the Eichel-Ober (Macher)?"),
        "call_partner": _("Call a partner"),
        "call_alone": _("Play alone"),
        "pick_called": _("Tap the called card:"),
        "turn_q": _("Did %(p)s turn a card?"),
        "turn_q_macher": _("Did the Macher turn a card?"),
        "turn_none": _("No"),
        "turn_unknown": _("Yes, card unknown"),
        "turned_short": _("turned a card"),
        "do_call": _("%(p)s calls %(c)s"),
        "call_pick_macher": _("First tap the Macher"),
        "call_pick_card": _("Now tap the called card"),
        "do_alone": _("%(p)s plays alone"),
        "bid_title": _("Auction — %(p)s speaks"),
        "with_called": _("calls a card"),
        "join": _("Join (mitbetteln / mitplaudern)"),
        "join_hint": _("becomes the declarer's partner"),
        # The join's words by the highest bid it joins (``joinLabel`` in record.js).
        "join_as": {
            "bettler": _("Join the Bettler (mitbetteln)"),
            "plauderer": _("Join the Plauderer (mitplaudern)"),
        },
        "pass": _("Pass (gut / weiter)"),
        "pass_hint": _("out of the auction"),
        "pick_bid_called": _("%(b)s: tap the called card"),
        "do_bid_called": _("%(b)s, calling %(c)s"),
        "calls_card": _("calls %(c)s"),
        "face_down_toggle": _("With the face-down card (optional)"),
        "pick_face_down": _("%(b)s: tap the card laid face down"),
        "do_face_down": _("%(b)s, face down: %(c)s"),
        "lays_down": _("face down: %(c)s"),
        "partner_q": _("Who holds %(c)s?"),
        "partner_hint": _("The result depends on the partner: name him."),
        "hilfer_hint": _("The result depends on the Hilfer: name him."),
        "won": _("%(p)s won"),
        "lost": _("%(p)s lost"),
        "won_pl": pgettext("several players", "%(p)s won"),
        "lost_pl": pgettext("several players", "%(p)s lost"),
        "value_is": _("value %(v)s"),
        "annulled_hint": _("Nobody pays for this game."),
        "new_game": _("New game"),
        "other_dealer": _("Another dealer, or type in the hands"),
        "schurln_loser": _("Loser: %(p)s"),
        "schurln_losers": _("Losers: %(p)s"),
        "schurln_count": _("%(p)s with %(n)s aces and tens"),
        "redeal": _("Deal again — %(p)s deals"),
        "redeal_hint": _("The deal was taken back. Who deals now?"),
        "to_evening": _("Back to the evening"),
        "replay": _("Replay"),
        "undo": _("Undo"),
        "undo_title": _("Take back the latest entry"),
        "undo_confirm_title": _("Reopen the finished game?"),
        "undo_confirm": _(
            "Undo takes back the latest entry: the game is open again, and its payout "
            "leaves the balances until it is finished again."
        ),
        "undo_confirm_do": _("Yes, take it back"),
        "fix_entry": _("Trick %(n)s: %(p)s played %(c)s — this entry is wrong."),
        "fix_do": _("Correct this entry"),
        "fix_title": _("Trick %(n)s: which card did %(p)s play?"),
        "fix_hint": _("Instead of %(c)s. The later entries are recorded again."),
        "refused_generic": _("This card may not be played now."),
        "refused_hint": _(
            "Tap a bright card — or, if an earlier entry was wrong, correct that entry."
        ),
        "show": _("Show"),
        "forfeit": _("Forfeit"),
        "annul": _("Annul"),
        "last": _("Latest entry:"),
        "all_entries": _("All entries (%(n)s)"),
        "show_title": _("Show cards"),
        "show_hint": _(
            "A player shows cards without playing them, e.g. the partner after an early end."
        ),
        "show_do": _("Show"),
        "cancel": _("Cancel"),
        "forfeit_title": _("Forfeit (table penalty)"),
        "forfeit_hint": _("The game ends; this player's side loses."),
        "forfeit_do": _("Forfeit the game"),
        "reason": _("Reason (optional)"),
        "annul_title": _("Annul the game"),
        "annul_hint": _("Misdeal or new deal: the game is void, nobody pays."),
        "annul_do": _("Annul the game"),
        "tricks_title": _("Tricks"),
        "concerns": _("Entry:"),
        "hint_holds": _("The record shows %(p)s holds %(c)s."),
        "hint_turn": _("It is %(p)s's turn."),
        "retry": _("Send again"),
        "err_stale": _("Someone else recorded in the meantime: the table has been reloaded."),
        "err_network": _("No connection. Nothing was lost: send again when you have a signal."),
        "err_forbidden": _("Only scorers may record games."),
        "err_generic": _("Not accepted"),
        "ev_deal": _("%(p)s deals"),
        "ev_call": _("%(p)s calls %(c)s"),
        "ev_alone": _("%(p)s plays alone"),
        "ev_play": _("%(p)s plays %(c)s"),
        "ev_raise": _("%(p)s says %(l)s"),
        "ev_end_raising": _("Trick done, the raising is over"),
        "ev_bid": _("%(p)s bids %(b)s"),
        "ev_pass": _("%(p)s passes"),
        "ev_join": _("%(p)s joins"),
        "ev_show": _("%(p)s shows %(c)s"),
        "ev_forfeit": _("%(p)s forfeits"),
        "ev_annul": _("The game is annulled"),
        "ev_undo": _("Undo"),
        "readonly": _(
            "You are looking on: only scorers record, and only while the evening is open."
        ),
        "unconfirmed": _("not yet confirmed"),
        "undoing": _("Taking back: %(e)s"),
        "off_waiting": _("Entries not yet sent: %(n)s"),
        "off_title": _("No network: recording unchecked"),
        "off_hint": _(
            "Tap who, then the card. Nobody has checked these entries: the rules judge "
            "each one when the network is back."
        ),
        "off_who": _("Who?"),
        "off_play": _("plays the card"),
        "off_call": _("calls the card"),
        "off_raise": _("%(p)s says %(l)s"),
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
    strings = {**record_strings(), **entry_change_strings()}
    if club.currency_unit == Club.CurrencyUnit.POINTS:
        strings["money"] = _("%(v)s pt")
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
        "t": strings,
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


# --- Replay --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Words:
    """What the replay's sentences need: the club's names and cards, the game's words."""

    names: dict[str, str]
    face: str
    kind: str
    levels: dict[str, str]
    contracts: dict[str, str]

    def who(self, pid: Any) -> str:
        return self.names.get(str(pid), str(pid))

    def card(self, code: str) -> dict[str, Any]:
        return card_view(code, self.face, self.kind)


def _event_text(event: dict[str, Any], words: _Words) -> tuple[str, str]:
    """A standing event as the replay shows it: (its kind for the page's styling, its
    sentence), or ("", "") for an event the page does not tell (a plain card, the deal)."""
    typ = event.get("type")
    p = words.who(event.get("player"))
    if typ == "call":
        if event.get("alone"):
            text = _("%(p)s plays alone") % {"p": p}
        else:
            text = _("%(p)s calls %(c)s") % {"p": p, "c": words.card(event["card"])["name"]}
        if event.get("turned"):
            text += " · " + _("turned a card")
        return "call", text
    if typ == "raise":
        return "raise", _("%(p)s says %(l)s") % {
            "p": p,
            "l": words.levels.get(event.get("level", ""), ""),
        }
    if typ == "bid":
        text = _("%(p)s bids %(b)s") % {
            "p": p,
            "b": words.contracts.get(event.get("contract", ""), ""),
        }
        if event.get("called"):
            text += " · " + _("calls %(c)s") % {"c": words.card(event["called"])["name"]}
        return "bid", text
    simple = {
        "pass": ("pass", _("%(p)s passes")),
        "join": ("join", _("%(p)s joins")),
        "forfeit": ("forfeit", _("%(p)s forfeits")),
    }
    if typ in simple:
        style, sentence = simple[typ]
        return style, sentence % {"p": p}
    if typ == "show":
        cards = ", ".join(words.card(c)["name"] for c in event.get("cards", []))
        return "show", _("%(p)s shows %(c)s") % {"p": p, "c": cards}
    if typ == "annul":
        return "annul", _("The game is annulled")
    if typ == "end_raising":
        return "end", _("Trick done, the raising is over")
    if typ == "play" and event.get("fuchs"):
        return "raise", _("%(p)s: Fuchs!") % {"p": p}
    if typ == "tally":
        return "tally", _tally_text(event, words)
    return "", ""  # the deal: the step shows the dealer and the seats already


def _tally_text(event: dict[str, Any], words: _Words) -> str:
    """What the table counted, in words (the fields the tally gave, nothing more)."""
    parts: list[str] = []
    if "level" in event:
        level = event.get("level")
        parts.append(
            words.levels.get(level, str(level))
            if level
            else pgettext("tally in the replay", "no raise")
        )
    if event.get("fuchs"):
        parts.append(pgettext("tally in the replay", "Fuchs announced"))
    if "won" in event:
        parts.append(
            pgettext("tally in the replay", "won")
            if event["won"]
            else pgettext("tally in the replay", "lost")
        )
    if "augen" in event:
        parts.append(pgettext("tally in the replay", "%(n)s Augen") % {"n": event["augen"]})
    if event.get("silent"):
        parts.append(pgettext("tally in the replay", "Stilles Spiel"))
    if event.get("partner"):
        # Fuchsen calls him the Hilfer, Königrufen the partner.
        partner = (
            pgettext("tally in the replay", "Hilfer %(p)s")
            if words.kind == GameKind.FUCHSEN
            else pgettext("tally in the replay", "partner %(p)s")
        )
        parts.append(partner % {"p": words.who(event["partner"])})
    if event.get("losers"):
        parts.append(
            pgettext("tally in the replay", "losers: %(p)s")
            % {"p": ", ".join(words.who(x) for x in event["losers"])}
        )
    return pgettext("tally in the replay", "As the table counted it: %(what)s") % {
        "what": " · ".join(parts) or "–"
    }


@dataclass
class _Notes:
    """The standing events' sentences, placed as the engine's view places them: before
    the first card, in a trick, or (a tally) after the tricks."""

    opening: list[str] = field(default_factory=list)
    per_trick: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    tally: list[str] = field(default_factory=list)


def _notes(record: dict[str, Any], view: dict[str, Any], words: _Words) -> _Notes:
    """The sentences of the record's standing events (the view's ``effective``: undos
    resolved), each in the trick the view puts it in (``event_tricks``)."""
    notes = _Notes()
    events = record["events"]
    standing = zip(view.get("effective") or [], view.get("event_tricks") or [], strict=True)
    for index, trick in standing:
        event = events[index]
        style, text = _event_text(event, words)
        if not text:
            continue
        if event.get("type") == "tally":
            notes.tally.append(text)
        elif trick < 0:
            notes.opening.append(text)
        else:
            notes.per_trick.setdefault(trick, []).append((style, text))
    return notes


def _steps(
    view: dict[str, Any], words: _Words, notes: _Notes, declarers: set[str]
) -> list[dict[str, Any]]:
    """One step per trick: its cards, its winner, its Augen (the engine's) and the
    running Augen of the declarers' side and the others'."""
    steps = []
    ours = theirs = 0
    for i, trick in enumerate(view.get("tricks") or []):
        augen = trick.get("augen") or 0
        if trick["winner"] in declarers:
            ours += augen
        else:
            theirs += augen
        steps.append(
            {
                "no": i + 1,
                "cards": [
                    {"who": words.who(p), "card": words.card(code), "won": p == trick["winner"]}
                    for p, code in trick["cards"]
                ],
                "winner": words.who(trick["winner"]),
                "augen": augen,
                "ours": ours,
                "theirs": theirs,
                "notes": notes.per_trick.get(i, []),
            }
        )
    return steps


@login_required
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a game trick by trick: who played what, the raises, the Augen, the payout."""
    game, _membership = game_for(request, game_id)
    club = game.evening.club
    words = _Words(
        names=player_names(club),
        face=club.card_face,
        kind=game.game_kind,
        levels=level_names(),
        contracts=contract_names(),
    )
    record = selectors.game_record(game=game)
    view = table_view(record).to_dict()
    result = view["result"]
    declarers = set(result.get("declarers") or view.get("declarers") or [])
    notes = _notes(record, view, words)
    steps = _steps(view, words, notes, declarers)
    payouts = sorted(
        (
            {"who": words.who(p), "amount": amount, "text": money(amount, club)}
            for p, amount in (result.get("payouts") or {}).items()
        ),
        key=lambda row: -row["amount"],
    )
    return render(
        request,
        "games/replay.html",
        {
            "club": club,
            "game": game,
            "evening": game.evening,
            "view": view,
            "result": result,
            "summary": game_summary(game, words.names, club),
            "opening": notes.opening,
            "steps": steps,
            "leftover": [
                {"who": words.who(p), "card": words.card(code), "won": False}
                for p, code in view.get("trick") or []
            ],
            "late_notes": [
                note
                for trick, trick_notes in sorted(notes.per_trick.items())
                if trick >= len(steps)
                for note in trick_notes
            ],
            "tally_notes": notes.tally,
            "payouts": payouts,
            "declarers": ", ".join(words.who(p) for p in result.get("declarers") or []),
            "is_fuchsen": words.kind == GameKind.FUCHSEN,
            "players": [words.who(p) for p in view.get("players") or []],
            "dealer": words.who(view.get("dealer")) if view.get("dealer") else "",
            "augen": result.get("augen"),
            # "Ergebnis ändern" beside the result (games.change_pages decides how).
            "can_change": role_at_least(_membership.role, Role.SCORER)
            and game.evening.is_open
            and game.status == Game.Status.FINISHED,
        },
    )
