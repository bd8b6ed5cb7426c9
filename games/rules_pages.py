"""The "Regeln" pages: the rules in force, drawn from the engine's own tables.

One page for a club's game (the rules a new evening of it starts with), one for an
evening (the rules its new games take) and one for a game (the rules stored with it,
which it was played under). Every card order, value and payout comes from
``engine.rules_table``; the page only names and formats them.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs.models import Club, GameKind, RuleProfile
from clubs.permissions import membership_for
from engine.rules_table import rules_table
from games import selectors
from games.access import evening_for, game_for
from games.presenters import safe_rules
from games.vocabulary import (
    card_view,
    contract_names,
    level_names,
    money,
    signed_money,
    suit_names,
)


def _cards(row: list[str | None], club: Club, kind: str) -> list[dict[str, Any] | None]:
    return [card_view(c, club.card_face, kind) if c else None for c in row]


def _rows(deck: list[dict[str, Any]], club: Club, kind: str) -> list[dict[str, Any]]:
    suits = suit_labels(club.card_face)
    return [
        {"label": suits[row["label"]], "cards": _cards(row["cards"], club, kind)} for row in deck
    ]


def suit_labels(face: str) -> dict[str, str]:
    """A suit's name by its letter, in the club's card face."""
    return dict(suit_names(face))


def _sides(sides: dict[str, int | None], club: Club) -> dict[str, str]:
    return {k: signed_money(v, club) if v is not None else "—" for k, v in sides.items()}


def _fuchsen(table: dict[str, Any], club: Club) -> dict[str, Any]:
    kind = GameKind.FUCHSEN
    names = level_names()
    said_by = {"declarers": _("Macher's side"), "opponents": _("opponents")}
    levels = []
    for row in table["levels"]:
        level = row["level"]
        if level is None:
            label = _("no Kontra")
        elif row["reason"] == "no_re":
            label = _("Kontra without Re")
        else:
            label = names[level]
        levels.append(
            {
                "id": level or "none",
                "label": label,
                "said_by": said_by.get(row["said_by"] or "", ""),
                "value": money(row["value"], club),
                "outcome": _("Macher's side wins at once")
                if row["reason"] == "no_kontra"
                else _("opponents win at once")
                if row["reason"] == "no_re"
                else _("played to the end"),
                "payouts": _sides(row["payouts"], club),
                "silent": money(row["silent_value"], club) if row["silent_value"] else "—",
                "forgotten": money(row["forgotten_value"], club),
            }
        )
    settings = {
        "partner_5": _("with a partner, 5 players"),
        "partner_4": _("with a partner, 4 players"),
        "alone_5": _("alone, 5 players"),
        "alone_4": _("alone, 4 players"),
    }
    shares = [
        {
            "label": settings[row["setting"]],
            **{
                k: ("—" if row[k] is None else f"{row[k]:+d} × " + _("value"))
                for k in ("macher", "hilfer", "opponent")
            },
        }
        for row in table["shares"]
    ]
    augen = table["augen"]
    suits = suit_labels(club.card_face)
    rows = [
        {
            "label": _("Trump") if row["trump"] else suits[row["label"]],
            "trump": row["trump"],
            "cards": [
                {"card": card_view(c, club.card_face, kind), "augen": augen[c]}
                for c in row["cards"]
                if c is not None
            ],
        }
        for row in table["decks"]["5"]
    ]
    return {
        "rows": rows,
        "removed": [card_view(c, club.card_face, kind) for c in table["rules"]["removed_cards"]],
        "levels": levels,
        "shares": shares,
    }


def _koenigrufen(table: dict[str, Any], club: Club) -> dict[str, Any]:
    kind = GameKind.KOENIGRUFEN
    names = contract_names()
    contracts = []
    for row in table["contracts"]:
        ten_high = row["deck"][0]["cards"][1].endswith("10")
        called_ten = row["with_called_ten"]
        contracts.append(
            {
                "id": row["contract"],
                "rank": row["rank"],
                "name": names[row["contract"]],
                "value": money(row["value"], club),
                "alone": row["alone"],
                "won": _sides(row["won"], club),
                "lost": _sides(row["lost"], club),
                "ten_high": ten_high,
                "ten_high_with_called_ten": bool(
                    called_ten and called_ten["deck"][0]["cards"][1].endswith("10")
                ),
                "joined": {
                    "value": money(row["joined"]["value"], club),
                    "won": _sides(row["joined"]["won"], club),
                    "lost": _sides(row["joined"]["lost"], club),
                }
                if row["joined"]
                else None,
                "with_last_trick": _sides(row["with_last_trick"]["won"], club)
                if row["with_last_trick"]
                else None,
            }
        )
    normal = next(c for c in table["contracts"] if c["contract"] == "koenigmord")["deck"]
    ten = table["schurln_deck"]
    return {
        "contracts": contracts,
        "normal": _rows(normal, club, kind),
        "ten": _rows(ten, club, kind),
        "schurln": [
            {
                "losers": row["losers"],
                "loser": signed_money(row["loser"], club),
                "other": signed_money(row["other"], club),
            }
            for row in table["schurln"]
        ],
    }


def _render(
    request: HttpRequest,
    club: Club,
    kind: str,
    overrides: dict[str, Any],
    *,
    source: str,
    profile: RuleProfile | None = None,
    back: tuple[str, str] | None = None,
) -> HttpResponse:
    rules = safe_rules(kind, overrides)  # a stored game's rules are valid; never a 500
    table = rules_table(kind, rules)
    shown = _fuchsen(table, club) if kind == GameKind.FUCHSEN else _koenigrufen(table, club)
    context = {
        "club": club,
        "kind": kind,
        "kind_name": GameKind(kind).label,
        "is_fuchsen": kind == GameKind.FUCHSEN,
        "profile": profile,
        "source": source,
        "back": back,
        "changed": bool(overrides),
        "other_kind": GameKind.KOENIGRUFEN if kind == GameKind.FUCHSEN else GameKind.FUCHSEN,
        **shown,
    }
    return render(request, "games/rules.html", context)


@login_required
@require_GET
def club_rules(request: HttpRequest, slug: str, game: str) -> HttpResponse:
    """The rules a club plays ``game`` under now: its current season's rule profile."""
    membership = membership_for(request.user, slug)
    if game not in GameKind.values:
        raise Http404
    club = membership.club
    overrides, profile = selectors.club_house_rules(club=club, game_kind=game)
    return _render(request, club, game, overrides, source="club", profile=profile)


@login_required
@require_GET
def evening_rules(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The rules the evening's new games start with."""
    evening, _membership = evening_for(request, evening_id)
    profile = evening.rule_profile or evening.season.rule_profile
    return _render(
        request,
        evening.club,
        evening.game_kind,
        selectors.evening_house_rules(evening=evening),
        source="evening",
        profile=profile if profile and profile.game_kind == evening.game_kind else None,
        back=(
            _("Evening of %(date)s") % {"date": evening.date.strftime("%d.%m.%Y")},
            f"/evenings/{evening.pk}/",
        ),
    )


@login_required
@require_GET
def game_rules(request: HttpRequest, game_id: int) -> HttpResponse:
    """The rules a game was played under: the copy stored with it when it started."""
    game, _membership = game_for(request, game_id)
    return _render(
        request,
        game.evening.club,
        game.game_kind,
        dict(game.house_rules or {}),
        source="game",
        back=(_("Game %(n)s") % {"n": game.number}, f"/games/{game.pk}/"),
    )
