"""A game's replay: trick by trick who played what, the raises and calls in the trick
they were said in, the Augen as they ran, the table's tally and the payout.

The record is judged once by the engine (``engine.view.table_view``): its view says
which events stand (undos resolved), which trick each falls in, the tricks with
their winners and Augen, and the result. This module only puts that in words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from clubs.models import Club, GameKind, Role, role_at_least
from engine.view import table_view
from games import selectors
from games.access import game_for, player_names
from games.models import Game
from games.presenters import game_summary
from games.vocabulary import card_view, contract_names, level_names, money


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


def _payouts(result: dict[str, Any], words: _Words, club: Club) -> list[dict[str, Any]]:
    """Who got or paid what, the biggest winner first."""
    rows = [
        {"who": words.who(p), "amount": amount, "text": money(amount, club)}
        for p, amount in (result.get("payouts") or {}).items()
    ]
    return sorted(rows, key=_amount_descending)


def _amount_descending(row: dict[str, Any]) -> float:
    return -float(row["amount"])


def _late_notes(notes: _Notes, tricks: int) -> list[tuple[str, str]]:
    """The sentences said after the last complete trick (a trick left unfinished)."""
    return [
        note
        for trick, trick_notes in sorted(notes.per_trick.items())
        if trick >= tricks
        for note in trick_notes
    ]


def _can_change(game: Game, role: str) -> bool:
    """Whether "Ergebnis ändern" stands beside the result (games.change_pages decides how)."""
    return (
        role_at_least(role, Role.SCORER)
        and game.evening.is_open
        and game.status == Game.Status.FINISHED
    )


@login_required
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a game trick by trick: who played what, the raises, the Augen, the payout."""
    game, membership = game_for(request, game_id)
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
            "late_notes": _late_notes(notes, len(steps)),
            "tally_notes": notes.tally,
            "payouts": _payouts(result, words, club),
            "declarers": ", ".join(words.who(p) for p in result.get("declarers") or []),
            "is_fuchsen": words.kind == GameKind.FUCHSEN,
            "players": [words.who(p) for p in view.get("players") or []],
            "dealer": words.who(view.get("dealer")) if view.get("dealer") else "",
            "augen": result.get("augen"),
            "can_change": _can_change(game, membership.role),
        },
    )
