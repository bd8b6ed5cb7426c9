"""The tournament pages: set up on a phone's form, the draw shown before it is
confirmed, a sheet's confirmations, the live ranking pushed after an append at a
table, the print pages and the CSV."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from django.http import StreamingHttpResponse

from clubs.models import Club, Player
from live.push import HUB
from tests.conftest import PersonaClient
from tests.factories import PlayerFactory
from tests.tournaments.conftest import record_tally
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
STATIC = Path(__file__).resolve().parents[2] / "static"


def _url(t: Tournament, suffix: str = "") -> str:
    return f"/clubs/{t.club.slug}/tournaments/{t.pk}/{suffix}"


def test_an_organiser_sets_a_tournament_up_on_the_form(admin: PersonaClient, club: Club) -> None:
    players = [PlayerFactory.create(club=club) for _ in range(5)]
    answer = admin.post(
        f"/clubs/{club.slug}/tournaments/",
        {
            "name": "Vereinsmeisterschaft",
            "game_kind": "fuchsen",
            "series_count": "3",
            "deals_per_series": "12",
            "entry_fee": "0",
            "prizes": "",
            "players": [str(p.pk) for p in players],
        },
        format="multipart",
    )
    assert answer.status_code == 302
    tournament = Tournament.objects.get(name="Vereinsmeisterschaft")
    assert tournament.participants.count() == 5
    page = admin.get(answer["Location"]).content.decode()
    assert tournament.seed in page


def test_a_bad_form_is_refused_in_plain_words_and_writes_nothing(
    admin: PersonaClient, club: Club
) -> None:
    answer = admin.post(
        f"/clubs/{club.slug}/tournaments/",
        {"name": "X", "game_kind": "fuchsen", "series_count": "drei", "deals_per_series": "5"},
        format="multipart",
    )
    assert answer.status_code == 422
    assert "Bitte eine ganze Zahl eingeben." in answer.content.decode()
    assert not Tournament.objects.exists()


def test_the_draw_is_shown_with_its_tables_before_it_is_confirmed(
    admin: PersonaClient, drawn: Tournament
) -> None:
    page = admin.get(_url(drawn)).content.decode()
    assert 'id="confirm-draw"' in page
    assert page.count('class="table-card"') == 2  # 11 players: a table of 6 and one of 5
    admin.post(_url(drawn, "series/1/confirm/"))
    page = admin.get(_url(drawn)).content.decode()
    assert 'id="confirm-draw"' not in page
    assert page.count("/evenings/") >= 2


def test_a_participant_agrees_only_to_his_own_line_of_the_sheet(
    member: PersonaClient, drawn: Tournament
) -> None:
    series = services.series_confirm(series=drawn.series.get(), user=None)
    table = next(t for t in series.tables.all() if 1 in t.seats)
    players = {p.start_number: p.player for p in drawn.participants.all()}
    record_tally(table, macher=players[table.seats[1]], partner=players[table.seats[2]])
    url = _url(drawn, f"series/1/tables/{table.number}/")
    page = member.get(url).content.decode()
    assert page.count('name="start_number"') == 1
    other = next(n for n in table.seats if n != 1)
    assert member.post(url, {"start_number": str(other)}, format="multipart").status_code == 403
    assert member.post(url, {"start_number": "1"}, format="multipart").status_code == 302
    assert table.confirmations.get().participant.start_number == 1


def _frames(response: Any) -> Iterator[str]:
    # Under the test client (WSGI) the stream is a plain iterator.
    body = cast(Iterator[bytes], cast(StreamingHttpResponse, response).streaming_content)
    for chunk in body:
        text = chunk.decode() if isinstance(chunk, bytes) else str(chunk)
        if "event: state" in text:
            yield text


def _state(frame: str) -> dict[str, Any]:
    match = re.search(r"^data: (.*)$", frame, re.MULTILINE)
    assert match is not None
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def test_the_live_ranking_behind_a_link_is_pushed_again_after_an_append_at_a_table(
    anonymous: PersonaClient,
    drawn: Tournament,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    series = services.series_confirm(series=drawn.series.get(), user=None)
    key = services.ranking_link_create(tournament=drawn).key
    page = anonymous.get(f"/turnier/{key}/")
    assert page.status_code == 200 and b"ranking-table" in page.content
    # A threaded WSGI server (runserver) streams; a single-threaded worker would not.
    threaded: dict[str, Any] = {"wsgi.multithread": True}
    stream = anonymous.get(f"/turnier/{key}/events/", **threaded)
    frames = _frames(stream)
    first = _state(next(frames))
    assert {row["total"] for row in first["rows"]} == {0}
    table = series.tables.get(number=1)
    players = {p.start_number: p.player for p in drawn.participants.all()}
    with django_capture_on_commit_callbacks(execute=True):
        record_tally(table, macher=players[table.seats[1]], partner=players[table.seats[2]])
    pushed = _state(next(frames))
    totals = {row["start_number"]: row["total"] for row in pushed["rows"]}
    assert totals[table.seats[1]] > 0
    progress = {row["table"]: row["finished"] for row in pushed["progress"]}
    assert progress == {1: 1, 2: 0}
    assert anonymous.get("/turnier/not-a-key/").status_code == 404
    # Closed as a browser going away closes it: the stream leaves the hub.
    stream.close()
    assert HUB.viewers() == 0


def test_the_print_pages_are_a4_and_list_every_seat(
    member: PersonaClient, drawn: Tournament
) -> None:
    series = services.series_confirm(series=drawn.series.get(), user=None)
    seating = member.get(_url(drawn, "print/series/1/")).content.decode()
    assert "tournament_print.css" in seating
    for participant in drawn.participants.select_related("player"):
        assert participant.player.display_name in seating
    table = series.tables.get(number=1)
    sheet = member.get(_url(drawn, "series/1/tables/1/print/")).content.decode()
    assert sheet.count("<td></td>") >= len(table.seats) * drawn.deals_per_series
    assert member.get(_url(drawn, "print/ranking/")).status_code == 200
    css = (STATIC / "css" / "tournament_print.css").read_text()
    assert "size: A4" in css and "@media print" in css


def test_the_ranking_csv_has_a_line_per_participant(
    member: PersonaClient, drawn: Tournament, eight: dict[str, Player]
) -> None:
    answer = member.get(_url(drawn, "ranking.csv"))
    assert answer["Content-Type"].startswith("text/csv")
    assert len(answer.content.decode().strip().splitlines()) == 1 + 11
