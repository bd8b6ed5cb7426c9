"""What the ledger API's views share: ids, the scope of a read, the unit, CSV, freshness."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import renderers, serializers

from clubs.models import Club, Player, Season
from games.models import Evening
from ledger.models import ProjectionState
from ledger.spreadsheet import safe_rows

T = TypeVar("T")

MAX_ID = 2**63 - 1
MAX_AMOUNT = 10**12  # a trillion cents: far above any card table, far below bigint


def get_or_404(getter: Callable[..., T], **kwargs: Any) -> T:
    """Call a selector's ``*_get``; a missing object (in this club) is a 404."""
    if any(isinstance(v, int) and not 0 < v <= MAX_ID for v in kwargs.values()):
        raise Http404  # an id no row can have: don't let the database overflow
    try:
        return getter(**kwargs)
    except ObjectDoesNotExist:
        raise Http404 from None


def id_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


def unit_label(club: Club) -> str:
    return str(Club.CurrencyUnit(club.currency_unit).label)


class ScopeSerializer(serializers.Serializer[Any]):
    """An optional evening and/or season of the club, by id."""

    evening = id_field(required=False, allow_null=True, default=None)
    season = id_field(required=False, allow_null=True, default=None)


def resolve_scope(club: Club, data: dict[str, Any]) -> tuple[Evening | None, Season | None]:
    """Turn validated ids into the club's evening and season; 400 naming the field if foreign."""
    evening = season = None
    errors: dict[str, list[str]] = {}
    if data.get("evening") is not None:
        evening = Evening.objects.filter(club=club, pk=data["evening"]).first()
        if evening is None:
            errors["evening"] = [_("No such evening in this club.")]
    if data.get("season") is not None:
        season = Season.objects.filter(club=club, pk=data["season"]).first()
        if season is None:
            errors["season"] = [_("No such season in this club.")]
    if errors:
        raise serializers.ValidationError(errors)
    return evening, season


def club_player(club: Club, player_id: int, field: str) -> Player:
    player = Player.objects.filter(club=club, pk=player_id).first()
    if player is None:
        raise serializers.ValidationError({field: [_("No such player in this club.")]})
    return player


class CSVRenderer(renderers.BaseRenderer):
    """Lets ``Accept: text/csv`` through content negotiation; views answer CSV themselves."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Any = None,
    ) -> bytes:
        # Only errors get here (a 404, a 400): say them plainly.
        return json.dumps(data, ensure_ascii=False).encode()


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
) -> HttpResponse:
    """A semicolon-separated UTF-8 file with a BOM: what German spreadsheets open as is.

    Amounts stay integers in the club's unit (named in the header), so no
    decimal comma question arises. Every text cell passes ``safe_cell``: a name
    that a spreadsheet would read as a formula comes out as text.
    """
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerows(safe_rows([header]))
    writer.writerows(safe_rows(rows))
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


CSV_SCHEMA = {(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="CSV, `;`")}


def freshness(state: ProjectionState | None) -> dict[str, Any]:
    """When the projections were computed and whether they include every change yet."""
    if state is None:
        return {"computed_at": None, "up_to_date": True}
    return {"computed_at": state.computed_at, "up_to_date": not state.is_behind}
