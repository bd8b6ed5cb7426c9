"""The pages' words say what happened, in plain German: an annulled game claims no
level, the payments column is signed as the balance it adds to, Königrufen says
"Partner" where Fuchsen says "Hilfer"."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from django.utils import translation

from clubs.models import Club, Player
from games.models import Evening, Game
from games.pages.recording import record_words
from ledger import services as ledger_services
from tests.conftest import PersonaClient
from tests.e2e.tables import open_evening, players_of, record_game
from tests.games.records import RE_PLAYED_OUT
from tests.games.script_texts import script_msgids, script_translation


def _annulled_after_re() -> dict[str, object]:
    events = copy.deepcopy(RE_PLAYED_OUT["events"])
    upto = next(i for i, e in enumerate(events) if e.get("level") == "re")
    return {"game": "fuchsen", "events": [*events[: upto + 1], {"type": "annul"}]}


def test_an_annulled_game_that_reached_re_claims_no_level(
    club: Club, scorer: PersonaClient
) -> None:
    players = players_of(club)
    evening = open_evening(club, players)
    record_game(evening, players, _annulled_after_re())
    html = scorer.get(f"/evenings/{evening.pk}/").content.decode()
    line = re.search(r'<li data-game="\d+" data-status="annulled">(.*?)</li>', html, re.S)
    assert line is not None
    assert "annulliert" in line.group(1)
    assert "niemand zahlt" in line.group(1)
    assert "keine Fahrstufe" not in line.group(1)
    assert "nicht gefahren" not in line.group(1)


def test_the_payments_column_shows_paid_as_plus_and_received_as_minus(
    evening: Evening, scorer: PersonaClient, players: dict[str, Player]
) -> None:
    ledger_services.payment_record(
        club=evening.club,
        payer=players["anna"],
        payee=players["bert"],
        amount=60,
        recorded_by=scorer.user,
        evening=evening,
    )
    html = scorer.get(f"/evenings/{evening.pk}/").content.decode()
    assert "bezahlt (+) / erhalten (−)" in html

    def paid(name: str) -> str:
        row = re.search(rf'<tr data-player="{players[name].pk}">(.*?)</tr>', html, re.S)
        assert row is not None
        return re.findall(r'<td class="num[^"]*">(.*?)</td>', row.group(1))[1]

    assert paid("anna") == "+60 ct"
    assert paid("bert") == "-60 ct"


def test_the_recording_page_asks_for_the_hilfer_in_fuchsen_and_the_partner_in_koenigrufen() -> None:
    german = script_translation("de")
    assert german.gettext("Who is the Hilfer?") == "Wer ist der Hilfer?"
    assert german.gettext("Who is the partner?") == "Wer ist der Partner?"
    assert "Hilfer" not in german.gettext("The result depends on the partner: name him.")
    assert "Hilfer" in german.gettext("The result depends on the Hilfer: name him.")


def test_a_koenigrufen_players_page_counts_games_as_partner_not_as_hilfer(
    club: Club, scorer: PersonaClient
) -> None:
    players = players_of(club, ("Anna", "Bert", "Carl", "Dora"))
    evening = open_evening(club, players, kind="koenigrufen")
    url = f"/clubs/{club.slug}/players/{players['anna'].pk}/?season={evening.season_id}"
    html = scorer.get(url).content.decode()
    assert "Spiele als Partner" in html
    assert "Hilfer" not in html


def _texts(value: object) -> list[str]:
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    return [value] if isinstance(value, str) else []


def test_no_recording_text_says_er_for_whoever_plays() -> None:
    german = script_translation("de")
    with translation.override("de"):
        words = record_words(Club.CardFace.GERMAN)
    catalogue = german._catalog  # type: ignore[attr-defined]
    texts = [catalogue[key] for text in script_msgids() for key in text.catalogue_keys()] + _texts(
        words
    )
    # ("seine Auszahlung" of the game is fine: it is the game's, not a player's; so is
    # "er" for an entry, "der Eintrag", or a tap, "der Tipp".)
    he = re.compile(r"\b(er|Er|ihm|Ihm)\b|^Seine?\b")
    about_an_entry = re.compile(r"Eintrag|Tipp")
    assert [t for t in texts if he.search(t) and not about_an_entry.search(t)] == []
    assert german.gettext("Did %(p)s turn a card?") % {"p": "Resi"} == (
        "Hat Resi eine Karte gedreht?"
    )
    assert german.gettext("The record shows %(p)s holds %(c)s.") % {
        "p": "Gretl",
        "c": "Rot-Unter",
    } == ("Laut Aufzeichnung hat Gretl Rot-Unter.")


def test_the_balances_csv_downloaded_from_the_evening_page_has_a_german_header(
    evening: Evening, scorer: PersonaClient
) -> None:
    page = scorer.get(f"/evenings/{evening.pk}/").content.decode()
    link = re.search(r'href="([^"]*/balances/csv/\?evening=\d+)"', page)
    assert link is not None
    csv_text = scorer.get(link.group(1), HTTP_ACCEPT_LANGUAGE="de").content.decode("utf-8-sig")
    assert csv_text.splitlines()[0] == "Spieler;Ergebnisse (Cent);Zahlungen (Cent);Saldo (Cent)"


def test_a_schurln_line_on_the_evening_page_names_who_pays(
    club: Club, scorer: PersonaClient
) -> None:
    golden = Path(__file__).resolve().parents[1] / "engine" / "golden" / "koenigrufen-schurln.json"
    record = json.loads(golden.read_text())["record"]
    players = players_of(club, ("Anna", "Bert", "Carl", "Dora"))
    evening = open_evening(club, players, kind="koenigrufen")
    game = record_game(evening, players, record)
    losers = [p.display_name for p in players.values() if game.result["payouts"][str(p.pk)] < 0]
    html = scorer.get(f"/evenings/{evening.pk}/").content.decode()
    assert f"Schurln · Verlierer: {', '.join(losers)}" in html


def test_the_season_table_explains_the_rating_without_jargon(
    club: Club, scorer: PersonaClient, django_capture_on_commit_callbacks: Any
) -> None:
    players = players_of(club)
    evening = open_evening(club, players)
    with django_capture_on_commit_callbacks(execute=True):  # the table's projection
        record_game(evening, players, RE_PLAYED_OUT)
    german = scorer.get(f"/clubs/{club.slug}/table/", follow=True).content.decode()
    assert "Wertung: die Spielstärke aus jedem Spiel der Saison, vorsichtig geschätzt" in german
    english = scorer.get(
        f"/clubs/{club.slug}/table/", follow=True, HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Rating: the playing strength from every game of the season, a cautious" in english
    assert "openskill" not in german + english


def test_the_head_to_head_figures_carry_their_unit(
    club: Club, scorer: PersonaClient, django_capture_on_commit_callbacks: Any
) -> None:
    players = players_of(club)
    evening = open_evening(club, players)
    with django_capture_on_commit_callbacks(execute=True):
        record_game(evening, players, RE_PLAYED_OUT)
    url = f"/clubs/{club.slug}/players/{players['bert'].pk}/?season={evening.season_id}"
    html = scorer.get(url).content.decode()
    section = html[html.index('id="h-h2h"') :]
    figures = re.findall(r'<td class="num[^"]*">([^<]*)</td>', section[: section.index("</table>")])
    assert figures
    assert all(re.fullmatch(r"[+-]?\d+(,\d)? ct", f) for f in figures), figures


def test_a_fuchsen_tally_in_the_replay_names_the_hilfer(
    dealt_game: Game, scorer: PersonaClient, as_ids: Any
) -> None:
    call = {"type": "call", "player": "bert", "card": "E10"}
    tally = {"type": "tally", "level": "re", "augen": 70, "partner": "carl"}
    events = as_ids([call, tally])
    response = scorer.post(
        f"/api/games/{dealt_game.pk}/events/", {"expected_seq": 1, "events": events}
    )
    assert response.status_code == 201, response.json()
    html = scorer.get(f"/games/{dealt_game.pk}/replay/").content.decode()
    assert "Hilfer Carl" in html
    assert "Partner Carl" not in html
