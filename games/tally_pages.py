""" "Ergebnis eintragen": a deal recorded as the table counted it (a ``tally``).

The form is server-rendered; every tap posts it (through htmx where it runs,
as a plain form otherwise) and the answer is the form drawn again with the
next choices. What the form offers comes from the engine's table view of the
record so far (its ``legal`` moves and its ``tally`` fields), and the payouts
it shows before saving from the services' dry run: no rule of the games is
written here. Saving is one request: the deal, the call or the auction, the
tally (and a forgotten Fuchs' ``show``) go to the services together.

The form's state travels in hidden fields; each choice is a submit button
``pick`` = ``"field:value"`` laid over that state, so the last tap always wins
whatever order a browser sends the fields in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.models import Club, GameKind, Role
from games import selectors, services
from games.access import evening_for, game_for, player_names
from games.engine_text import explain
from games.errors import EngineRejected, GamesError
from games.models import Evening, Game
from games.presenters import deck_rows, safe_rules
from games.vocabulary import (
    KOENIG_CONTRACTS,
    WITH_CALLED,
    card_view,
    contract_names,
    error_titles,
    level_names,
    money,
    signed_money,
)

# Königrufen: the called cards offered at once (the name of the game); the others fold away.
KINGS = ("EK", "GK", "RK", "SK")


@dataclass
class Choices:
    """What the page posted: the state so far (hidden fields) with the last tap laid over it."""

    values: dict[str, str]

    @classmethod
    def from_post(cls, data: QueryDict) -> Choices:
        values = {k: str(data.get(k, "")) for k in FIELDS}
        if "augen-typed" in data:  # the number pad, when drawn, holds the Augen
            values["augen"] = str(data.get("augen-typed", "")).strip()[:3]
        pick = str(data.get("pick", ""))
        name, _sep, value = pick.partition(":")
        if name == "auction":
            steps = [s for s in values["auction"].split("|") if s]
            if value == "back":
                steps = steps[:-1]
            else:
                steps.append(value)
            values["auction"] = "|".join(steps)
            # A changed auction makes its outcome a new question.
            for later in ("won", "partner", "losers"):
                values[later] = ""
        elif name == "losers":
            chosen = [p for p in values["losers"].split(",") if p]
            chosen = [p for p in chosen if p != value] if value in chosen else [*chosen, value]
            values["losers"] = ",".join(chosen)
        elif name == "full":
            # "full:1": the whole auction, bid by bid; "full:": only who played what.
            values["full"] = "1" if value else ""
            for later in ("auction", "declarer", "contract", "called", "joiner", "partner"):
                values[later] = ""
            for later in ("won", "losers"):
                values[later] = ""
        elif name == "won":
            # "won:silent": won as a Stilles Spiel, one tap (the engine judges both).
            values["won"] = "1" if value == "silent" else value
            values["silent"] = "1" if value == "silent" else ""
        elif name in ("silent", "fuchs", "forgotten"):
            values[name] = "" if values[name] else "1"
        elif name in FIELDS:
            values[name] = value
            if name in ("macher", "called", "dealer", "declarer", "contract", "joiner"):
                # Another call or deal: what the table view offered after it may differ.
                for later in ("partner", "level", "won", "augen", "silent", "fuchs", "forgotten"):
                    values[later] = ""
                values["losers"] = "" if name != "joiner" else values["losers"]
                if name == "dealer":
                    values["auction"] = values["macher"] = values["called"] = ""
                    values["declarer"] = values["contract"] = values["joiner"] = ""
                if name == "declarer":
                    values["contract"] = values["called"] = values["joiner"] = ""
                if name == "contract":
                    values["called"] = values["joiner"] = ""
        return cls(values)

    def get(self, name: str) -> str:
        return self.values.get(name, "")


FIELDS = (
    "dealer",
    "macher",
    "called",
    "partner",
    "level",
    "won",
    "augen",
    "silent",
    "fuchs",
    "forgotten",
    "auction",
    "losers",
    # Königrufen's quick result: who played what (and who joined), the auction left to
    # the engine; "full": the whole auction tapped bid by bid instead.
    "declarer",
    "contract",
    "joiner",
    "full",
)


@dataclass
class Form:
    """Everything the template draws; ``events``: the record's new events the choices make."""

    kind: str
    choices: Choices
    events: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    step: str = ""
    tally: dict[str, Any] | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    ready: bool = False
    result: dict[str, Any] | None = None
    payouts: list[dict[str, Any]] = field(default_factory=list)
    error: str = ""
    error_field: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def _error_text(error: dict[str, Any], club: Club) -> str:
    code = str(error.get("code", ""))
    title = error_titles().get(code, _("Not accepted"))
    sentence = explain(error, player_names(club), face=club.card_face)
    return sentence if sentence.startswith(title) else f"{title}: {sentence}"


def _state(record: dict[str, Any]) -> dict[str, Any]:
    return selectors.table_state(record=record)


def _ascii_digits(value: str) -> bool:
    """Is ``value`` (spaces around aside) a number in ASCII digits? ``str.isdigit``
    also takes "²" and "١", which ``int()`` refuses or reads as another number."""
    value = value.strip()
    return value.isascii() and value.isdigit()


def _tally_event(form: Form) -> dict[str, Any]:
    """The ``tally`` the choices make, with only the fields the table view allows now
    (``level`` only where it offers one: in a pure tally)."""
    c, fields = form.choices, form.fields
    event: dict[str, Any] = {"type": "tally"}
    if "level" in fields and c.get("level"):
        event["level"] = None if c.get("level") == "-" else c.get("level")
    if "won" in fields and c.get("won") in ("1", "0"):
        event["won"] = c.get("won") == "1"
    if "augen" in fields and _ascii_digits(c.get("augen")):
        event["augen"] = int(c.get("augen").strip()[:3])
    if "silent" in fields and c.get("silent"):
        event["silent"] = True
    if "fuchs" in fields and c.get("fuchs"):
        event["fuchs"] = True
    if "partner" in fields and c.get("partner") in fields["partner"].get("choices", []):
        event["partner"] = c.get("partner")
    if "losers" in fields:
        event["losers"] = [p for p in c.get("losers").split(",") if p]
    return event


def _needs_outcome(form: Form) -> bool:
    """Does the table view ask for ``won`` or ``augen`` before the result can stand?"""
    tally, fields, c = form.tally or {}, form.fields, form.choices
    if "level" in fields:
        chosen = None if c.get("level") in ("", "-") else c.get("level")
        key = "played_out_with_fuchs" if c.get("fuchs") else "played_out"
        for choice in fields["level"].get("choices", []):
            if choice.get("level") == chosen:
                return bool(choice.get(key))
        return True
    return bool(tally.get("needs_outcome"))


def _complete(form: Form) -> bool:
    """The choices the table view requires are made (the engine still judges them all)."""
    fields, c = form.fields, form.choices
    if "level" in fields and not c.get("level"):
        return False
    if "losers" in fields and not c.get("losers"):
        return False
    if fields.get("won", {}).get("required") and c.get("won") not in ("1", "0"):
        return False
    has_outcome = c.get("won") in ("1", "0") or _ascii_digits(c.get("augen"))
    return not (_needs_outcome(form) and not has_outcome)


def _payout_rows(result: dict[str, Any], club: Club, names: dict[str, str]) -> list[dict[str, Any]]:
    rows = [
        {"name": names.get(str(p), str(p)), "amount": v, "text": signed_money(v, club)}
        for p, v in (result.get("payouts") or {}).items()
    ]
    rows.sort(key=lambda row: -row["amount"])
    return rows


def _seat_rows(state: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    return [{"id": p, "name": names.get(p, p)} for p in state.get("active") or []]


# --- The evening's form: a whole deal -------------------------------------------------------------


def _deal(evening: Evening, choices: Choices) -> dict[str, Any] | None:
    proposal = selectors.next_deal(evening=evening)
    if proposal.event is None:
        return None
    deal = dict(proposal.event)
    if choices.get("dealer") in deal["players"] and "sitting_out" not in deal:
        deal["dealer"] = choices.get("dealer")
    choices.values["dealer"] = deal["dealer"]
    return deal


def _fuchsen_steps(form: Form, record: dict[str, Any], names: dict[str, str], club: Club) -> None:
    c = form.choices
    state = _state(record)
    form.seats = _seat_rows(state, names)
    if c.get("macher") not in {s["id"] for s in form.seats}:
        c.values["macher"] = ""
        form.step = "macher"
        return
    calls = (state.get("legal") or {}).get("calls") or {}
    face = club.card_face
    form.extra["called_cards"] = [
        [
            card_view(code, face, GameKind.FUCHSEN)
            for code in row
            if code is not None and code in calls.get("cards", [])
        ]
        for row in deck_rows(GameKind.FUCHSEN, len(form.seats), _removed(record))
    ]
    form.extra["can_alone"] = bool(calls.get("alone"))
    called = c.get("called")
    if not called or (called != "alone" and called not in calls.get("cards", [])):
        c.values["called"] = ""
        form.step = "called"
        return
    call: dict[str, Any] = {"type": "call", "player": c.get("macher")}
    if called == "alone":
        call["alone"] = True
    else:
        call["card"] = called
        form.extra["called_card"] = card_view(called, face, GameKind.FUCHSEN)
    form.events.append(call)
    _tally_steps(form, record)


def _removed(record: dict[str, Any]) -> list[str]:
    return list(safe_rules(GameKind.FUCHSEN, record.get("rules")).get("removed_cards", []))


def _koenig_steps(form: Form, record: dict[str, Any], names: dict[str, str], club: Club) -> None:
    c = form.choices
    state = _state(record)
    form.seats = _seat_rows(state, names)
    if not c.get("full") and not c.get("auction"):
        _koenig_quick(form, record, state, names, club)
        return
    form.extra["full"] = True
    history: list[str] = []
    kept: list[str] = []
    for step in [s for s in c.get("auction").split("|") if s]:
        if state.get("awaiting") != "bid" or not state.get("to_act"):
            break
        event = _auction_event(step, str(state["to_act"]))
        if event is None:
            break
        trial = {**record, "events": [*record["events"], *form.events, event]}
        after = _state(trial)
        if after.get("status") == "invalid":
            error = (after.get("result") or {}).get("error") or {}
            form.error = _error_text(error, club)
            break
        form.events.append(event)
        kept.append(step)
        history.append(_auction_line(event, names, club))
        state = after
    c.values["auction"] = "|".join(kept)
    form.extra["history"] = history
    if state.get("awaiting") == "bid":
        form.step = "auction"
        legal = state.get("legal") or {}
        to_act = str(state.get("to_act") or "")
        form.extra["to_act"] = names.get(to_act, to_act)
        face = club.card_face
        bids = []
        all_cards = [code for row in deck_rows(GameKind.KOENIGRUFEN, 4, []) for code in row if code]
        for contract in legal.get("bids", []):
            entry: dict[str, Any] = {"contract": contract, "name": contract_names()[contract]}
            if contract in WITH_CALLED:
                entry["kings"] = [card_view(k, face, GameKind.KOENIGRUFEN) for k in KINGS]
                entry["others"] = [
                    card_view(k, face, GameKind.KOENIGRUFEN) for k in all_cards if k not in KINGS
                ]
            bids.append(entry)
        form.extra["bids"] = bids
        form.extra["can_pass"] = bool(legal.get("can_pass"))
        form.extra["can_join"] = bool(legal.get("can_join"))
        return
    form.extra["contract"] = contract_names().get(str(state.get("contract") or ""), "")
    declarer = str(state.get("declarer") or "")
    form.extra["declarer"] = names.get(declarer, declarer)
    _tally_steps(form, record)


def _koenig_quick(
    form: Form,
    record: dict[str, Any],
    state: dict[str, Any],
    names: dict[str, str],
    club: Club,
) -> None:
    """Königrufen's quick result: the declarer (or everyone passed), his contract, the
    called card where it calls one and the joiner where one joined; the engine leads the
    auction that ends so (``quick_auction``), then the tally's questions follow."""
    c = form.choices
    form.step = "declarer"
    form.extra["quick"] = True
    seat_ids = {s["id"] for s in form.seats}
    declarer = c.get("declarer")
    form.extra["declarers"] = [{**s, "on": s["id"] == declarer} for s in form.seats]
    form.extra["all_pass"] = ALL_PASS
    form.extra["all_pass_on"] = declarer == ALL_PASS
    if declarer == ALL_PASS:
        auction = koenig_auction(record, None, None)
        if auction is None:
            form.error = _("The auction cannot end with everyone passing here.")
            return
        _quick_done(form, record, auction, names, club)
        return
    if declarer not in seat_ids:
        c.values["declarer"] = ""
        return
    # The contracts the engine lets him bid when the word first comes to him.
    passed: list[dict[str, Any]] = []
    while state.get("awaiting") == "bid" and str(state.get("to_act")) != declarer:
        passed.append({"type": "pass", "player": str(state.get("to_act"))})
        state = _state({**record, "events": [*record["events"], *passed]})
    offered = list((state.get("legal") or {}).get("bids") or [])
    contract = c.get("contract")
    form.step = "contract"
    form.extra["contracts"] = [
        {"contract": b, "name": contract_names().get(b, b), "on": b == contract} for b in offered
    ]
    if contract not in offered:
        c.values["contract"] = ""
        return
    bid: dict[str, Any] = {"contract": contract}
    face = club.card_face
    if contract in WITH_CALLED:
        form.step = "called"
        all_cards = [code for row in deck_rows(GameKind.KOENIGRUFEN, 4, []) for code in row if code]
        called = c.get("called")
        form.extra["kings"] = [card_view(k, face, GameKind.KOENIGRUFEN) for k in KINGS]
        form.extra["others"] = [
            card_view(k, face, GameKind.KOENIGRUFEN) for k in all_cards if k not in KINGS
        ]
        if called not in all_cards:
            c.values["called"] = ""
            return
        bid["called"] = called
        form.extra["called_card"] = card_view(called, face, GameKind.KOENIGRUFEN)
    before = {**record, "events": [*record["events"], *passed]}
    joiner = c.get("joiner") if c.get("joiner") in seat_ids else ""
    auction, joinable = quick_auction(before, declarer, bid, joiner or None)
    if joiner and joiner not in joinable:
        c.values["joiner"] = joiner = ""
        auction, joinable = quick_auction(before, declarer, bid, None)
    if joinable:
        form.extra["joiners"] = [
            {"id": p, "name": names.get(p, p), "on": p == joiner} for p in joinable
        ]
    if auction is None:
        form.error = _(
            "The engine finds no auction that ends so: enter the whole auction, bid by bid."
        )
        return
    _quick_done(form, record, [*passed, *auction], names, club)


def _quick_done(
    form: Form,
    record: dict[str, Any],
    auction: list[dict[str, Any]],
    names: dict[str, str],
    club: Club,
) -> None:
    """The quick result's auction stands: its lines, then the tally's questions."""
    form.events.extend(auction)
    form.extra["history"] = [_auction_line(e, names, club) for e in auction]
    state = _state({**record, "events": [*record["events"], *form.events]})
    form.extra["contract"] = contract_names().get(str(state.get("contract") or ""), "")
    declarer = str(state.get("declarer") or "")
    form.extra["declarer"] = names.get(declarer, declarer)
    _tally_steps(form, record)


def quick_auction(
    record: dict[str, Any], declarer: str, bid: dict[str, Any], joiner: str | None
) -> tuple[list[dict[str, Any]] | None, list[str]]:
    """The auction after ``record`` in which ``declarer`` bids ``bid`` when the engine
    gives him the word, ``joiner`` (if any) joins it when the word comes to him, and
    everyone else passes; with the players the engine would have let join. None (and
    the joinable players) where the engine refuses a step or the auction does not end
    so. The engine alone says who speaks, who may join, and when it is over."""
    events: list[dict[str, Any]] = []
    joinable: list[str] = []
    bid_made = joined = False
    for _step in range(12):
        state = _state({**record, "events": [*record["events"], *events]})
        if state.get("status") == "invalid":
            return None, joinable
        if state.get("awaiting") != "bid":
            done = bid_made and (joiner is None or joined)
            return (events if done else None), joinable
        speaker = str(state.get("to_act") or "")
        legal = state.get("legal") or {}
        if bid_made and legal.get("can_join") and speaker not in (declarer, *joinable):
            joinable.append(speaker)
        if speaker == declarer and not bid_made:
            events.append({"type": "bid", "player": speaker, **bid})
            bid_made = True
        elif speaker == joiner and bid_made and not joined and legal.get("can_join"):
            events.append({"type": "join", "player": speaker})
            joined = True
        else:
            events.append({"type": "pass", "player": speaker})
    return None, joinable


def _auction_event(step: str, player: str) -> dict[str, Any] | None:
    parts = step.split(":")
    if parts[0] == "pass":
        return {"type": "pass", "player": player}
    if parts[0] == "join":
        return {"type": "join", "player": player}
    if parts[0] == "bid" and len(parts) >= 2:
        event: dict[str, Any] = {"type": "bid", "player": player, "contract": parts[1]}
        if len(parts) >= 3 and parts[2]:
            event["called"] = parts[2]
        return event
    return None


def _auction_line(event: dict[str, Any], names: dict[str, str], club: Club) -> str:
    who = names.get(str(event["player"]), str(event["player"]))
    if event["type"] == "pass":
        return _("%(p)s passes") % {"p": who}
    if event["type"] == "join":
        return _("%(p)s joins") % {"p": who}
    text = _("%(p)s bids %(b)s") % {"p": who, "b": contract_names().get(event["contract"], "")}
    if event.get("called"):
        card = card_view(event["called"], club.card_face, GameKind.KOENIGRUFEN)
        text += " · " + _("calls %(c)s") % {"c": card["name"]}
    return text


def _tally_steps(form: Form, record: dict[str, Any]) -> None:
    """The tally's questions, from the table view of the record with the events so far."""
    state = _state({**record, "events": [*record["events"], *form.events]})
    if state.get("status") == "invalid":
        error = (state.get("result") or {}).get("error") or {}
        form.error = _error_text(error, form.extra["club"])
        form.step = "error"
        return
    form.tally = state.get("tally")
    if not form.tally:
        form.step = "no_tally"
        return
    form.fields = dict(form.tally.get("fields") or {})
    form.step = "tally"
    c = form.choices
    if "partner" in form.fields and c.get("partner") not in form.fields["partner"].get(
        "choices", []
    ):
        c.values["partner"] = ""
    event = _tally_event(form)
    form.events.append(event)
    # "Fuchs vergessen": the Hilfer shows the Fuchs, which the record then proves he held.
    if "fuchs" in form.fields and c.get("forgotten") and event.get("partner"):
        form.events.append({"type": "show", "player": event["partner"], "cards": ["GO"]})
    form.ready = _complete(form)


def _decorate(form: Form, names: dict[str, str], club: Club) -> None:
    """Labels for the tally's choices (the choices themselves are the engine's)."""
    levels = level_names()
    fields, c = form.fields, form.choices
    if "level" in fields:
        ladder = []
        for choice in fields["level"].get("choices", []):
            value = choice.get("level") or "-"
            ladder.append(
                {
                    "value": value,
                    "name": levels.get(choice.get("level") or "", _("no Kontra")),
                    "on": c.get("level") == value,
                }
            )
        form.extra["ladder"] = ladder
    if "partner" in fields:
        form.extra["partners"] = [
            {"id": p, "name": names.get(p, p), "on": c.get("partner") == p}
            for p in fields["partner"].get("choices", [])
        ]
    if "losers" in fields:
        chosen = set(c.get("losers").split(","))
        form.extra["losers"] = [
            {"id": p, "name": names.get(p, p), "on": p in chosen}
            for p in fields["losers"].get("choices", [])
        ]
    if "augen" in fields:
        form.extra["augen_min"] = fields["augen"].get("min", 0)
        form.extra["augen_max"] = fields["augen"].get("max", 121)
    form.extra["needs_outcome"] = form.tally is not None and _needs_outcome(form)


def _preview(form: Form, run: Any, club: Club, names: dict[str, str]) -> None:
    """Ask the services' dry run for the game the choices make; its payouts or its refusal."""
    if not form.ready:
        return
    try:
        form.result = run(dry_run=True)
    except EngineRejected as error:
        form.ready = False
        form.error = _error_text(error.error, club)
        form.error_field = str(error.error.get("field") or "")
    except (ValidationError, GamesError) as error:
        form.ready = False
        form.error = getattr(error, "message", "") or "; ".join(getattr(error, "messages", []))
    else:
        form.payouts = _payout_rows(form.result or {}, club, names)
        result = form.result or {}
        form.extra["value"] = money(result.get("value"), club) if result.get("value") else ""
        form.extra["awaiting_partner"] = result.get("awaiting") == "partner"


def _result_of(answer: Any) -> dict[str, Any]:
    """The result dict in what a service answers (a game, or what ``game_started`` returns)."""
    game = getattr(answer, "game", answer)
    state = getattr(answer, "state", None)
    if isinstance(state, dict) and isinstance(state.get("result"), dict):
        return dict(state["result"])
    return dict(getattr(game, "result", None) or {})


def evening_form(request: HttpRequest, evening: Evening, data: QueryDict | None = None) -> Form:
    """The evening's "Ergebnis eintragen" form for the choices in ``data`` (none: a fresh one)."""
    club = evening.club
    names = player_names(club)
    choices = Choices.from_post(data if data is not None else QueryDict())
    form = Form(kind=evening.game_kind, choices=choices)
    form.extra["club"] = club
    deal = _deal(evening, choices)
    if deal is None:
        form.step = "no_deal"
        return form
    form.extra["dealers"] = [
        {"id": p, "name": names.get(p, p), "on": p == deal["dealer"]} for p in deal["players"]
    ]
    house_rules = selectors.evening_house_rules(evening=evening)
    record = {"game": evening.game_kind, "rules": house_rules or None, "events": [deal]}
    if evening.game_kind == GameKind.FUCHSEN:
        _fuchsen_steps(form, record, names, club)
    else:
        _koenig_steps(form, record, names, club)
    form.events = [deal, *form.events]
    _decorate(form, names, club)
    if data is None and evening.game_kind == GameKind.FUCHSEN:
        form.extra["scratch"] = _scratch(evening, record, names, club)
    elif data is None:
        form.extra["scratch"] = _koenig_scratch(evening, record, names, club)
    # What the phone queues when "Save" meets a dead network: the API's body for this
    # tally (the server judges it when it arrives; the page holds no rule).
    form.extra["offline"] = {
        "api": reverse("game-start", args=[evening.pk]),
        "evening": evening.pk,
        "body": {"events": form.events},
    }

    def run(*, dry_run: bool) -> dict[str, Any]:
        return _result_of(
            services.game_started(
                evening=evening, user=request.user, events=form.events, dry_run=dry_run
            )
        )

    _preview(form, run, club, names)
    form.extra["run"] = run
    return form


def _offered_form(kind: GameKind, state: dict[str, Any], names: dict[str, str], club: Club) -> Form:
    """An empty form holding the tally fields the engine offers on ``state`` (a table
    view), decorated for the page: one block of the offline form drawn in advance."""
    tally = state.get("tally") or {}
    form = Form(kind=kind, choices=Choices.from_post(QueryDict()))
    form.tally, form.fields = tally, dict(tally.get("fields") or {})
    _decorate(form, names, club)
    return form


def _scratch(
    evening: Evening, record: dict[str, Any], names: dict[str, str], club: Club
) -> dict[str, Any]:
    """Every choice a Fuchsen tally from scratch may need, for filling it with no network.

    Drawn at page load from the engine's table view: the dealers and Macher to pick,
    the cards the view lets be called (or alone), and for each Macher the tally
    fields the view offers after a call of a card and after playing alone (their
    labels from the vocabulary). The page only shows the block for the choices made
    and queues the events they make, unchecked; the engine judges them when they
    are sent. The fields do not depend on which card is called (the Macher and
    "alone" decide them): tests/games/test_tally_from_scratch_offline.py holds the
    engine to that.
    """
    deal = record["events"][0]
    state = _state(record)
    seats = _seat_rows(state, names)
    calls = (state.get("legal") or {}).get("calls") or {}
    face = club.card_face
    called_cards = [
        [
            card_view(code, face, GameKind.FUCHSEN)
            for code in row
            if code is not None and code in calls.get("cards", [])
        ]
        for row in deck_rows(GameKind.FUCHSEN, len(seats), _removed(record))
    ]
    first_card = next(iter(calls.get("cards") or []), None)
    blocks = []
    for seat in seats:
        ways: list[tuple[str, dict[str, Any]]] = []
        if first_card is not None:
            ways.append(("card", {"card": first_card}))
        if calls.get("alone"):
            ways.append(("alone", {"alone": True}))
        for way, call in ways:
            event = {"type": "call", "player": seat["id"], **call}
            after = _state({**record, "events": [*record["events"], event]})
            form = _offered_form(GameKind.FUCHSEN, after, names, club)
            blocks.append(
                {
                    "key": f"{seat['id']}|{way}",
                    "fields": form.fields,
                    "ladder": form.extra.get("ladder", []),
                    "partners": form.extra.get("partners", []),
                    "augen_min": form.extra.get("augen_min", 0),
                    "augen_max": form.extra.get("augen_max", 121),
                }
            )
    return {
        "game": GameKind.FUCHSEN,
        "api": reverse("game-start", args=[evening.pk]),
        "evening": evening.pk,
        "deal": deal,
        "dealers": [{"id": p, "name": names.get(p, p)} for p in deal["players"]],
        "dealer_fixed": "sitting_out" in deal,
        "seats": seats,
        "called_cards": called_cards,
        "can_alone": bool(calls.get("alone")),
        "blocks": blocks,
    }


# Königrufen from scratch: the declarer "nobody" stands for Schurln (everyone passes).
ALL_PASS = "-"


def koenig_auction(
    record: dict[str, Any], declarer: str | None, bid: dict[str, Any] | None
) -> list[dict[str, Any]] | None:
    """The auction after ``record`` in which ``declarer`` bids ``bid`` (contract, called
    card) when the engine first gives him the word and everyone else passes (with no
    declarer: everyone passes), as the engine leads it, speaker by speaker; None where
    the engine refuses a step or the auction does not end so. The engine alone says who
    speaks next and when the auction is over."""
    events: list[dict[str, Any]] = []
    outcome = selectors.record_outcome(record=record)
    bid_made = False
    # Four speakers each say at most one word here; more would be an auction of another shape.
    for _step in range(8):
        if outcome.get("status") == "invalid":
            return None
        if outcome.get("awaiting") != "bid":
            return events if bid_made or declarer is None else None
        speaker = str(outcome.get("to_act") or "")
        if speaker == declarer and bid is not None and not bid_made:
            events.append({"type": "bid", "player": speaker, **bid})
            bid_made = True
        elif speaker == declarer:
            return None
        else:
            events.append({"type": "pass", "player": speaker})
        outcome = selectors.record_outcome(
            record={**record, "events": [*record["events"], *events]}
        )
    return None


def _koenig_scratch(
    evening: Evening, record: dict[str, Any], names: dict[str, str], club: Club
) -> dict[str, Any]:
    """Every choice a Königrufen tally from scratch may need, for filling it with no network.

    Drawn at page load from the engine: for each dealer and declarer the contracts the
    table view lets him bid when the word first comes to him (the ones before him
    passing), and for each the auction the engine leads to its end with everyone else
    passing (``koenig_auction``: the bid and pass events, speaker by speaker), plus
    everyone passing (Schurln); the cards the view accepts as called for a contract
    that calls one; and for each declarer and contract the tally fields the view
    offers once that auction is over (won, the partner candidates, the Schurln losers),
    labelled from the vocabulary. The page shows only the block for the choices made and
    queues the events, unchecked; the engine judges them when they are sent.

    The fields are drawn for the proposed dealer and the first callable card: they do not
    depend on the dealer nor on which card is called (the declarer and the contract
    decide them) — tests/games/test_koenig_tally_from_scratch_offline.py holds the engine
    to that. Bidding against each other and joining a Bettler (mitbetteln) are not
    offered: for those the form that asks the server at each bid is needed.
    """
    deal = record["events"][0]
    face = club.card_face
    first = _state(record)
    seats = _seat_rows(first, names)
    opener = str(first.get("to_act") or "")
    deck = [code for row in deck_rows(GameKind.KOENIGRUFEN, 4, []) for code in row if code]
    called: dict[str, list[str]] = {}
    for contract in WITH_CALLED:
        trial = {"type": "bid", "player": opener, "contract": contract}
        called[contract] = [
            code
            for code in deck
            if selectors.record_outcome(
                record={**record, "events": [deal, {**trial, "called": code}]}
            ).get("status")
            != "invalid"
        ]
    auctions: dict[str, list[dict[str, Any]]] = {}
    contracts: dict[str, list[str]] = {}
    for dealer in deal["players"]:
        dealt = {**record, "events": [{**deal, "dealer": dealer}]}
        for seat in seats:
            state, passed = _state(dealt), []
            while state.get("awaiting") == "bid" and str(state.get("to_act")) != seat["id"]:
                passed.append({"type": "pass", "player": str(state.get("to_act"))})
                state = _state({**dealt, "events": [*dealt["events"], *passed]})
            offered = []
            for contract in (state.get("legal") or {}).get("bids", []):
                bid: dict[str, Any] = {"contract": contract}
                if contract in WITH_CALLED:
                    if not called.get(contract):
                        continue
                    bid["called"] = called[contract][0]
                rest = koenig_auction(
                    {**dealt, "events": [*dealt["events"], *passed]}, seat["id"], bid
                )
                if rest is not None:
                    auctions[f"{dealer}|{seat['id']}|{contract}"] = [*passed, *rest]
                    offered.append(contract)
            contracts[f"{dealer}|{seat['id']}"] = offered
        everyone = koenig_auction(dealt, None, None)
        if everyone is not None:
            auctions[f"{dealer}|{ALL_PASS}|schurln"] = everyone
            contracts[f"{dealer}|{ALL_PASS}"] = ["schurln"]
    blocks = []
    for key, auction in auctions.items():
        dealer, declarer, contract = key.split("|")
        if dealer != deal["dealer"]:
            continue
        after = _state({**record, "events": [deal, *auction]})
        form = _offered_form(GameKind.KOENIGRUFEN, after, names, club)
        blocks.append(
            {
                "key": f"{declarer}|{contract}",
                "fields": form.fields,
                "required": [f for f, spec in form.fields.items() if spec.get("required")],
                "partners": form.extra.get("partners", []),
                "losers": form.extra.get("losers", []),
            }
        )
    names_of = contract_names()
    shown = {c for offered in contracts.values() for c in offered}
    return {
        "game": GameKind.KOENIGRUFEN,
        "api": reverse("game-start", args=[evening.pk]),
        "evening": evening.pk,
        "deal": deal,
        "dealers": [{"id": p, "name": names.get(p, p)} for p in deal["players"]],
        "dealer_fixed": "sitting_out" in deal,
        "seats": seats,
        "all_pass": ALL_PASS,
        "contract_list": [
            {"contract": c, "name": names_of.get(c, c)} for c in KOENIG_CONTRACTS if c in shown
        ],
        "contracts": contracts,
        "auctions": auctions,
        "called": called,
        "kings": [card_view(k, face, GameKind.KOENIGRUFEN) for k in KINGS],
        "others": [card_view(k, face, GameKind.KOENIGRUFEN) for k in deck if k not in KINGS],
        "blocks": blocks,
    }


def _render(request: HttpRequest, form: Form, context: dict[str, Any]) -> HttpResponse:
    context = {**context, "form": form, "x": form.extra}
    if getattr(request, "htmx", False):
        return render(request, "games/_tally_form.html", context)
    return render(request, "games/tally.html", context)


def _saved(request: HttpRequest, to: str) -> HttpResponse:
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
    if request.method == "POST" and request.POST.get("save") == "1" and form.ready:
        try:
            result = form.extra["run"](dry_run=False)
        except EngineRejected as error:
            form.error = _error_text(error.error, evening.club)
            form.error_field = str(error.error.get("field") or "")
        except (ValidationError, GamesError) as error:
            form.error = getattr(error, "message", "") or "; ".join(getattr(error, "messages", []))
        else:
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
    return _render(
        request,
        form,
        {
            "club": evening.club,
            "evening": evening,
            "action": reverse("evening-tally", args=[evening.pk]),
        },
    )


# --- A game under way: the rest as a tally, the partner named, a forgotten Fuchs ------------------


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


def game_form(request: HttpRequest, game: Game, data: QueryDict | None = None) -> Form:
    """The form for a game already under way (late tally), or its partner, or a forgotten Fuchs."""
    club = game.evening.club
    names = player_names(club)
    choices = Choices.from_post(data if data is not None else QueryDict())
    form = Form(kind=game.game_kind, choices=choices)
    form.extra["club"] = club
    record = selectors.game_record(game=game)
    state = _state(record)
    form.seats = _seat_rows(state, names)
    called = _called_card(record)
    result = state.get("result") or {}
    if state.get("tally"):
        _tally_steps(form, record)
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
    _decorate(form, names, club)
    # Queued offline with the seq the form was drawn at: if the game moved on since,
    # the server answers 409 and the phone shows it (nothing is appended blindly).
    form.extra["offline"] = {
        "api": reverse("game-event-append", args=[game.pk]),
        "evening": game.evening_id,
        "body": {"expected_seq": game.last_seq, "events": form.events},
    }

    def run(*, dry_run: bool) -> dict[str, Any]:
        append = services.game_events_judge if dry_run else services.game_events_append
        return _result_of(
            append(game=game, user=request.user, expected_seq=game.last_seq, events=form.events)
        )

    _preview(form, run, club, names)
    form.extra["run"] = run
    form.extra["game_result"] = result
    return form


@login_required
@require_http_methods(["GET", "POST"])
def game_tally(request: HttpRequest, game_id: int) -> HttpResponse:
    """The rest of a game recorded card by card, as a tally ("Rest nicht mitschreiben");
    the partner of a game that waits for him; a Fuchs found forgotten afterwards."""
    game, _membership = game_for(request, game_id, Role.SCORER)
    data = request.POST if request.method == "POST" else None
    form = game_form(request, game, data)
    if request.method == "POST" and request.POST.get("save") == "1" and form.ready:
        try:
            form.extra["run"](dry_run=False)
        except EngineRejected as error:
            form.error = _error_text(error.error, game.evening.club)
            form.error_field = str(error.error.get("field") or "")
        except (ValidationError, GamesError) as error:
            form.error = getattr(error, "message", "") or "; ".join(getattr(error, "messages", []))
        else:
            messages.success(request, _("The result is saved."))
            return _saved(request, reverse("evening-page", args=[game.evening_id]))
    return _render(
        request,
        form,
        {
            "club": game.evening.club,
            "evening": game.evening,
            "game": game,
            "action": reverse("game-tally", args=[game.pk]),
        },
    )
