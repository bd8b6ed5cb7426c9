"""A player's page: his standing, rating chart and statistics, for a season or all time."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from clubs import selectors as club_selectors
from clubs.forms import id_param
from clubs.models import Club, Role, role_at_least
from clubs.permissions import membership_for
from games.models import Game
from games.presenters import game_summary
from games.vocabulary import contract_names, money, signed_money
from ledger import selectors
from ledger.pages.charts import line_chart
from ledger.pages.season_table import _season_for


@login_required
def player_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """One player's season: his numbers, his running net and rating, whom he beats."""
    membership = membership_for(request.user, slug)
    club = membership.club
    try:
        player = club_selectors.player_get(club=club, player_id=player_id)
    except ObjectDoesNotExist:
        raise Http404 from None
    season_param = request.GET.get("season", "")
    wanted = id_param(season_param)
    if season_param and wanted is None:
        raise Http404  # no season's id (as an unknown id is)
    season = _season_for(club, wanted)
    key = str(player.pk)
    names = {str(p.pk): p.display_name for p in club_selectors.player_list(club=club)}
    standing = selectors.standing_list(season=season).filter(player=player).first()
    rating = None
    try:
        rating = selectors.rating_get(season=season, player_id=player.pk)
    except ObjectDoesNotExist:
        rating = None
    series = selectors.season_series_get(season=season)
    mine = ((series.cumulative or {}).get("values", {}).get(key) if series else None) or []
    net_chart = line_chart({key: mine}, labels=names) if mine else None
    rating_chart = (
        line_chart({key: [p[3] for p in rating.history]}, labels=names)
        if rating is not None and rating.history
        else None
    )
    h2h_row = ((series.head_to_head or {}).get(key, {}) if series else {}) or {}
    opponents = sorted(
        (
            {"name": names.get(b, b), "value": v, "text": money(round(v), club)}
            for b, v in h2h_row.items()
        ),
        key=lambda r: -r["value"],
    )
    games = list(
        Game.objects.filter(evening__season=season, status=Game.Status.FINISHED)
        .select_related("evening")
        .order_by("-finished_at", "-id")[:200]
    )
    recent = [
        {**game_summary(g, names, club), "mine": (g.result.get("payouts") or {}).get(key)}
        for g in games
        if key in (g.result.get("payouts") or {})
    ][:15]
    for row in recent:
        row["mine_text"] = money(row["mine"], club) if row["mine"] is not None else ""
    return render(
        request,
        "ledger/player.html",
        {
            "club": club,
            "can_rename": role_at_least(membership.role, Role.ADMIN),
            "season": season,
            "seasons": club_selectors.season_list(club=club),
            "player": player,
            "standing": standing,
            "net": money(standing.net, club) if standing else money(0, club),
            "per_game": money(round(standing.per_game, 1), club) if standing else "",
            "win_pct": round(standing.win_pct) if standing else None,
            "rating": rating,
            "net_chart": net_chart,
            "rating_chart": rating_chart,
            "opponents": opponents,
            "recent": recent,
            "statistics": [
                _statistics_view(
                    _("This season"),
                    selectors.player_statistics(player_id=player.pk, season=season),
                    club,
                ),
                _statistics_view(
                    _("All seasons of this game"),
                    selectors.player_statistics(
                        player_id=player.pk, club=club, game_kind=season.game_kind
                    ),
                    club,
                ),
            ],
        },
    )


def _statistics_view(title: str, figures: dict[str, Any], club: Club) -> dict[str, Any]:
    """The lines of one statistics table (``ledger.statistics``) as the page shows them."""
    if "roles" in figures:
        roles = figures["roles"]
        named = [
            (_("As Macher"), roles["macher"]),
            (_("As Hilfer"), roles["hilfer"]),
            (_("As opponent"), roles["opponent"]),
            (_("Alone (Herausspielen)"), figures["alone"]),
        ]
    else:
        names = contract_names()
        named = [
            (names.get(contract, contract), {**line, "wins": line["won"]})
            for contract, line in figures["contracts"].items()
        ]
    return {
        "title": title,
        "games": figures["games"],
        "lines": [
            {
                "label": label,
                "games": line["games"],
                "wins": line["wins"],
                "net": line["net"],
                "net_text": signed_money(line["net"], club),
            }
            for label, line in named
        ],
        "average_value": figures["average_value"],
        "schurln_lost": figures.get("schurln_lost"),
        "facts": _fuchsen_facts_lines(figures, club) if "raises" in figures else [],
    }


def _fuchsen_facts_lines(figures: dict[str, Any], club: Club) -> list[str]:
    """Stilles Spiel, the forgotten Fuchs and the raises per chance, one sentence each."""
    silent = figures["silent_game"]
    forgotten = figures["forgotten_fuchs"]
    raises = figures["raises"]
    per_cent = (
        number_format(raises["per_cent"], decimal_pos=0) if raises["per_cent"] is not None else "–"
    )
    return [
        _("Stilles Spiel: %(for)d for him, %(against)d against him, of %(games)d games played out.")
        % silent,
        _(
            "Forgotten Fuchs: he forgot it %(n)d× (%(net)s), his Hilfer %(n2)d× (%(net2)s), "
            "a Hilfer of the other side %(n3)d× (%(net3)s)."
        )
        % {
            "n": forgotten["forgot"]["games"],
            "net": signed_money(forgotten["forgot"]["net"], club),
            "n2": forgotten["partner_forgot"]["games"],
            "net2": signed_money(forgotten["partner_forgot"]["net"], club),
            "n3": forgotten["opponent_forgot"]["games"],
            "net3": signed_money(forgotten["opponent_forgot"]["net"], club),
        },
        _(
            "Raises said: %(said)d of %(chances)d chances (%(per_cent)s %%), "
            "from %(counted)d of %(games)d games."
        )
        % {
            "said": raises["said"],
            "chances": raises["chances"],
            "per_cent": per_cent,
            "counted": raises["games"],
            "games": figures["games"],
        },
    ]
