"""Hostile input into the pages: refused in plain words (a message or a 4xx), never a
500, nothing written — and a game's events are capped (``MAX_GAME_EVENTS``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Invitation, Player
from games import page_urls
from games.errors import MAX_GAME_EVENTS
from games.models import Evening, EveningSeat, Game, GameEvent
from ledger import page_urls as ledger_page_urls
from ledger.models import Payment
from tests.conftest import PersonaClient

pytestmark = pytest.mark.django_db

# Each example is one request: a value to one page, both drawn. Sixty examples reach
# every page most runs; a value sent to every page at once made an example some 30
# requests, and the test a minute on a loaded machine. The values known to have broken
# a page are tried page by page below. No deadline: a wall-clock limit on a shared
# machine fails without a bug.
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Ids below this may name a row of the test's database; the fuzz never sends one
# written in ASCII digits, since such a post is a legitimate one that may write.
ROW_IDS = 10**9

# Digits of other scripts: the pages refuse them all (``clubs.forms.WholeNumberField``).
ARABIC_INDIC, FULLWIDTH = "٠١٢٣٤٥٦٧٨٩", "０１２３４５６７８９"


def _could_name_a_row(value: str) -> bool:
    value = value.strip()
    return value.isascii() and value.isdigit() and 0 < int(value) < ROW_IDS


# What a hostile client types: digits of other scripts (which int() refuses, "²", or
# reads as ASCII, "١"), NUL, huge numbers, any text — but never a real row's id.
nasty = st.one_of(
    st.sampled_from(["²", "٣", "1²", "\x00", "1\x00", "9" * 40, "-1", "0", " ", "1e3", "١"]),
    st.sampled_from(["+1", "1.0", "1_0", "１", "٢٣"]),
    st.one_of(st.integers(max_value=0), st.integers(min_value=ROW_IDS)).map(str),
    st.text(st.characters(blacklist_categories=["Cs"]), max_size=20).filter(
        lambda value: not _could_name_a_row(value)
    ),
)


def rows() -> tuple[int, ...]:
    return (
        Evening.objects.count(),
        EveningSeat.objects.count(),
        Game.objects.count(),
        GameEvent.objects.count(),
        Payment.objects.count(),
        Invitation.objects.count(),
    )


def _page_urls(evening: Evening, game: Game, player: Player) -> list[str]:
    """Every page URL of games/page_urls.py and ledger/page_urls.py, filled with real ids."""
    values = {
        "slug": evening.club.slug,
        "evening_id": evening.pk,
        "game_id": game.pk,
        "season_id": evening.season_id,
        "player_id": player.pk,
        "transfer_id": 1,
        "payment_id": 1,
    }
    urls = []
    for module in (page_urls, ledger_page_urls):
        for pattern in module.urlpatterns:
            assert isinstance(pattern, URLPattern)
            route = str(pattern.pattern)
            for name, value in values.items():
                for conv in ("int", "slug"):
                    route = route.replace(f"<{conv}:{name}>", str(value))
            urls.append("/" + route)
    return urls


@FUZZ
@given(
    data=st.data(),
    value=nasty,
    name=st.sampled_from(["season", "page", "game", "player", "next"]),
)
def test_no_query_parameter_makes_a_page_fail(
    owner: PersonaClient,
    dealt_game: Game,
    players: dict[str, Player],
    data: st.DataObject,
    value: str,
    name: str,
) -> None:
    urls = _page_urls(dealt_game.evening, dealt_game, next(iter(players.values())))
    url = data.draw(st.sampled_from(urls), label="url")
    response = owner.get(url, {name: value})
    assert response.status_code < 500, (url, name, value)


def _post_urls(game: Game, players: dict[str, Player]) -> list[str]:
    return [
        url
        for url in _page_urls(game.evening, game, next(iter(players.values())))
        # files, deals and irreversible buttons: tested on their own
        if not any(part in url for part in ("/import/", "/new-game/", "/delete/", "/close/"))
    ]


@FUZZ
@given(
    data=st.data(),
    value=nasty,
    field=st.sampled_from(["player", "position", "payer", "amount", "seat1"]),
)
def test_no_posted_value_makes_a_page_fail_or_write(
    owner: PersonaClient,
    dealt_game: Game,
    players: dict[str, Player],
    data: st.DataObject,
    value: str,
    field: str,
) -> None:
    before = rows()
    url = data.draw(st.sampled_from(_post_urls(dealt_game, players)), label="url")
    response = owner.post(url, {field: value, "payee": value, "place": value}, format="multipart")
    assert response.status_code < 500, (url, field, value)
    assert rows()[:2] == before[:2] and rows()[4:] == before[4:]


@pytest.mark.parametrize(
    ("field", "value"), [("player", "١"), ("amount", "²"), ("seat1", "1\x00"), ("player", "9" * 40)]
)
def test_the_values_that_broke_pages_before_are_refused_by_every_page(
    owner: PersonaClient, dealt_game: Game, players: dict[str, Player], field: str, value: str
) -> None:
    before = rows()
    for url in _post_urls(dealt_game, players):
        response = owner.post(url, {field: value, "payee": value}, format="multipart")
        assert response.status_code < 500, (url, field, value)
    assert rows()[:2] == before[:2] and rows()[4:] == before[4:]


@pytest.mark.parametrize("digits", [ARABIC_INDIC, FULLWIDTH], ids=["arabic-indic", "fullwidth"])
def test_a_real_players_id_in_digits_of_another_script_is_refused_and_seats_nobody(
    owner: PersonaClient, evening: Evening, players: dict[str, Player], digits: str
) -> None:
    # Franz is in the club but not at the table: his id in ASCII would seat him.
    franz = str(players["franz"].pk)
    foreign = franz.translate(str.maketrans("0123456789", digits))
    assert int(foreign) == int(franz)  # what int() alone would have read
    before = rows()
    url = f"/evenings/{evening.pk}/seats/add/"
    response = owner.post(url, {"player": foreign}, format="multipart", follow=True)
    assert response.status_code == 422
    assert [str(m) for m in response.context["messages"]] == ["Wähle einen Spieler."]
    assert rows() == before
    owner.post(url, {"player": franz}, format="multipart")
    assert rows()[1] == before[1] + 1  # the same id in ASCII digits seats him


@pytest.mark.parametrize("augen", ["²", "٩٦", "９６"])
def test_augen_in_digits_of_another_script_in_the_tally_form_are_no_augen_and_no_500(
    scorer: PersonaClient, evening: Evening, players: dict[str, Player], augen: str
) -> None:
    # A Fuchsen tally at re needs won/lost or the Augen: a foreign "96" is neither.
    state = {"macher": str(players["bert"].pk), "called": "EA", "level": "re"}
    url = f"/evenings/{evening.pk}/tally/"
    before = rows()
    post = {**state, "augen": augen, "pick": "save", "save": "1"}
    response = scorer.post(url, post, format="multipart", HTTP_HX_REQUEST="true")
    assert response.status_code == 200  # the form drawn again, saying why
    assert "Die Augen sind eine Zahl von 0 bis 121." in response.content.decode()
    assert rows() == before
    post = {**state, "augen": "96", "pick": "save", "save": "1"}
    assert scorer.post(url, post, format="multipart", HTTP_HX_REQUEST="true").status_code == 204
    assert rows()[2] == before[2] + 1


@pytest.mark.parametrize("value", ["²", "1²", "9" * 40, "abc"])
def test_a_season_that_is_no_id_is_a_404_on_the_evenings_and_player_pages(
    member: PersonaClient, evening: Evening, players: dict[str, Player], value: str
) -> None:
    club = evening.club
    player = next(iter(players.values()))
    assert member.get(f"/clubs/{club.slug}/evenings/", {"season": value}).status_code == 404
    url = f"/clubs/{club.slug}/players/{player.pk}/"
    assert member.get(url, {"season": value}).status_code == 404


def test_unicode_digits_in_seats_payments_and_invitations_are_refused_and_write_nothing(
    owner: PersonaClient, evening: Evening, players: dict[str, Player]
) -> None:
    club = evening.club
    ids = [str(p.pk) for p in players.values()]
    before = rows()
    posts: list[tuple[str, dict[str, Any]]] = [
        (
            f"/clubs/{club.slug}/evenings/new/",
            {"season": evening.season_id, "seat1": "²", "seat2": ids[1], "seat3": ids[2]},
        ),
        (f"/evenings/{evening.pk}/seats/add/", {"player": "²"}),
        (f"/evenings/{evening.pk}/seats/add/", {"player": ids[0], "position": "²"}),
        (
            f"/evenings/{evening.pk}/payments/new/",
            {"payer": ids[0], "payee": ids[1], "amount": "²"},
        ),
        (f"/clubs/{club.slug}/invitations/new/", {"role": "member", "player": "²"}),
        (
            f"/clubs/{club.slug}/evenings/new/",
            {"season": evening.season_id, "place": "Krone\x00", "seat1": ids[0]},
        ),
    ]
    for url, data in posts:
        response = owner.post(url, data, format="multipart", follow=True)
        assert response.status_code in (200, 400, 404, 422), url
        assert list(response.context["messages"]), url
    assert rows() == before


def test_a_nul_in_a_players_new_name_is_refused(
    owner: PersonaClient, evening: Evening, players: dict[str, Player]
) -> None:
    player = next(iter(players.values()))
    url = f"/clubs/{evening.club.slug}/players/{player.pk}/rename/"
    response = owner.post(url, {"display_name": "Anna\x00"}, format="multipart", follow=True)
    assert response.status_code == 200
    player.refresh_from_db()
    assert "\x00" not in player.display_name


def _upload(owner: PersonaClient, evening: Evening, text: str) -> Any:
    upload = SimpleUploadedFile("records.json", text.encode(), content_type="application/json")
    return owner.post(
        f"/evenings/{evening.pk}/import/", {"records": upload}, format="multipart", follow=True
    )


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        "[" * 40 + "1" + "]" * 40,
        '{"game": "fuchsen", "events": [{"type": "deal", "players": ["\\ud800", "b", "c", "d"]}]}',
        '{"game": "fuchsen\\u0000", "events": []}',
    ],
    ids=["deep", "deeper than the api allows", "lone surrogate", "nul"],
)
def test_a_hostile_import_file_is_refused_and_the_next_page_still_shows(
    owner: PersonaClient, evening: Evening, text: str
) -> None:
    before = rows()
    response = _upload(owner, evening, text)
    assert response.status_code == 200
    assert list(response.context["messages"])
    assert rows() == before
    assert owner.get(f"/evenings/{evening.pk}/").status_code == 200


# --- The cap on a game's events -------------------------------------------------------------


def test_appending_beyond_the_cap_is_a_422_too_many_events_and_writes_nothing(
    scorer: PersonaClient, dealt_game: Game
) -> None:
    # The stream a client looping [event, undo] makes: undo the deal, deal again, …
    deal = GameEvent.objects.get(game=dealt_game, seq=1)
    again = {"type": deal.type, **deal.payload}
    seq = 1
    while seq + 2 <= MAX_GAME_EVENTS:
        response = scorer.post(
            f"/api/games/{dealt_game.pk}/events/",
            {"expected_seq": seq, "events": [{"type": "undo"}, again]},
            format="json",
        )
        assert response.status_code == 201, response.content
        seq += 2
    before = GameEvent.objects.filter(game=dealt_game).count()
    response = scorer.post(
        f"/api/games/{dealt_game.pk}/events/",
        {"expected_seq": seq, "events": [{"type": "undo"}, again]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "too_many_events"
    assert str(MAX_GAME_EVENTS) in response.json()["detail"]
    assert "Einträge" in response.json()["detail"]
    assert GameEvent.objects.filter(game=dealt_game).count() == before


def test_an_imported_record_beyond_the_cap_is_rejected_too_many_events(
    scorer: PersonaClient, evening: Evening, dealt_game: Game
) -> None:
    record = scorer.get(f"/api/games/{dealt_game.pk}/record/").json()["record"]
    deal = record["events"][0]
    record["events"] = [deal] + [{"type": "undo"}, deal] * (MAX_GAME_EVENTS // 2)
    before = rows()
    response = scorer.post(f"/api/evenings/{evening.pk}/import/", [record], format="json")
    assert response.status_code == 422
    assert response.json()["results"][0]["reason"] == "too_many_events"
    assert rows() == before
