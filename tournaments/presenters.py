"""Plain data of a tournament for the API, the pages, the live ranking and the CSV:
one shape, read through ``tournaments.selectors``, shown alike everywhere."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.utils.translation import gettext as _

from ledger.spreadsheet import safe_cell
from tournaments import selectors
from tournaments.models import Series, Tournament, TournamentTable
from tournaments.ranking import TIE_BREAK


def participants_data(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {
            "start_number": p.start_number,
            "player_id": p.player_id,
            "name": p.player.display_name,
            "active": p.is_active,
            "guest": p.player.user_id is None,
        }
        for p in selectors.participants(tournament=tournament)
    ]


def _names(tournament: Tournament) -> dict[int, str]:
    return {
        p.start_number: p.player.display_name for p in selectors.participants(tournament=tournament)
    }


def table_data(table: TournamentTable, names: dict[int, str]) -> dict[str, Any]:
    return {
        "number": table.number,
        "evening_id": table.evening_id,
        "seats": [
            {"seat": seat, "start_number": number, "name": names.get(number, "")}
            for seat, number in enumerate(table.seats, start=1)
        ],
        "closed": table.closed_at is not None,
    }


def series_data(series: Series, names: dict[int, str]) -> dict[str, Any]:
    return {
        "number": series.number,
        "status": series.status,
        "seeding": series.seeding,
        "leftover": series.leftover,
        "table_size": series.table_size,
        "tables": [table_data(t, names) for t in series.tables.all()],
        "byes": [{"start_number": n, "name": names.get(n, "")} for n in series.byes],
    }


def tournament_data(tournament: Tournament) -> dict[str, Any]:
    names = _names(tournament)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "game_kind": tournament.game_kind,
        "date": tournament.date.isoformat(),
        "season_id": tournament.season_id,
        "rule_profile_id": tournament.rule_profile_id,
        "series_count": tournament.series_count,
        "deals_per_series": tournament.deals_per_series,
        "entry_fee": tournament.entry_fee,
        "prizes": tournament.prizes,
        "cashier_id": tournament.cashier_id,
        "seed": tournament.seed,
        "status": tournament.status,
        "tie_break": TIE_BREAK,
        "participants": participants_data(tournament),
        "series": [series_data(s, names) for s in selectors.series_list(tournament=tournament)],
    }


def sheet_data(table: TournamentTable) -> dict[str, Any]:
    sheet = selectors.sheet(table=table)
    names = _names(table.series.tournament)
    return {
        "series": table.series.number,
        "table": table.number,
        "evening_id": table.evening_id,
        "deals": table.series.tournament.deals_per_series,
        "finished": sheet.finished,
        "to_play": sheet.to_play,
        "in_progress": sheet.in_progress,
        "closed": sheet.closed,
        "seats": [
            {
                "seat": seat,
                "start_number": number,
                "name": names.get(number, ""),
                "total": sheet.totals.get(number, 0),
                "confirmed": number in sheet.confirmed,
            }
            for seat, number in enumerate(table.seats, start=1)
        ],
    }


def ranking_data(tournament: Tournament, up_to_series: int | None = None) -> dict[str, Any]:
    """The live ranking (after ``up_to_series`` or in all), with the tie-break stated,
    and, once the tournament is closed, the frozen final ranking with the prizes."""
    standing = selectors.ranking(tournament=tournament, up_to_series=up_to_series)
    return {
        "tournament": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "unit": tournament.club.currency_unit,
        "series": standing.series,
        "up_to_series": up_to_series,
        "tie_break": TIE_BREAK,
        "pot": standing.pot,
        "rows": [
            {
                "place": row.place,
                "start_number": row.start_number,
                "name": standing.players[row.start_number].display_name,
                "total": row.total,
                "best_series": row.best_series,
                "by_series": {str(k): v for k, v in row.by_series.items()},
            }
            for row in standing.rows
        ],
        "final": tournament.final_ranking,
        "progress": selectors.progress(tournament=tournament),
    }


def ranking_csv(tournament: Tournament, up_to_series: int | None = None) -> str:
    """The ranking as CSV text: place, start number, name, points per series, total,
    and the prize once the tournament is closed."""
    data = ranking_data(tournament, up_to_series)
    prizes = {row["start_number"]: row["prize"] for row in (data["final"] or {}).get("rows", [])}
    out = io.StringIO()
    writer = csv.writer(out)
    series = data["series"]
    writer.writerow(
        [_("Place"), _("Start number"), _("Name")]
        + [_("Series %(n)d") % {"n": n} for n in series]
        + [_("Total"), _("Prize")]
    )
    for row in data["rows"]:
        writer.writerow(
            [row["place"], row["start_number"], safe_cell(row["name"])]
            + [row["by_series"].get(str(n), 0) for n in series]
            + [row["total"], prizes.get(row["start_number"], "")]
        )
    return out.getvalue()
