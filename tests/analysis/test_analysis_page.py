"""The page "Analyse": every state of a game's analysis, in German, from stored analyses
written by hand in the spec's format (the task's tests use the engine itself)."""

from __future__ import annotations

import re

import pytest

from analysis import selectors
from analysis.models import GameAnalysis
from clubs.models import Player
from games.models import Evening, Game
from tests.analysis.hand_written import fuchsen_figures, store, store_player_rows
from tests.conftest import PersonaClient

pytestmark = pytest.mark.django_db


def page(client: PersonaClient, game: Game) -> str:
    response = client.get(f"/games/{game.pk}/analysis/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    return " ".join(response.content.decode().split())


def test_the_page_names_the_card_where_the_game_was_lost_in_words(
    member: PersonaClient, played_game: Game, players: dict[str, Player]
) -> None:
    store(played_game, fuchsen_figures(players))
    html = page(member, played_game)
    assert (
        "Hier wurde das Spiel verloren: Stich 3, Carl spielt Grün-König — mit Grün-Zehner "
        "hätte die Machermannschaft 64 statt 57 Augen gemacht." in html
    )
    assert (
        "Mit bestem Spiel beider Seiten ab der ersten Karte: 64 Augen für die Machermannschaft."
        in html
    )


def test_each_card_is_marked_equal_or_with_the_augen_it_gave_away_and_offers_its_best_cards(
    member: PersonaClient, played_game: Game, players: dict[str, Player]
) -> None:
    store(played_game, fuchsen_figures(players))
    html = page(member, played_game)
    assert html.count('<span class="mark">=</span>') == 29
    assert '<span class="mark">−7 Augen</span>' in html
    costly = re.search(r'<li class="cost turning"[^>]*>(.*?)</li>', html)
    assert costly is not None
    assert "Beste Karten:" in costly.group(1) and 'data-card="G10"' in costly.group(1)
    assert "Nach dieser Karte: 57 Augen" in costly.group(1)


def test_forced_cards_are_marked_for_greying(
    member: PersonaClient, played_game: Game, players: dict[str, Player]
) -> None:
    store(played_game, fuchsen_figures(players))
    html = page(member, played_game)
    assert html.count('class="best forced"') == 5  # the last trick's five cards


def test_the_raising_is_judged_against_the_cards(
    member: PersonaClient, played_game: Game, players: dict[str, Player]
) -> None:
    store(played_game, fuchsen_figures(players))
    html = page(member, played_game)
    assert "Kontra (Dora) war richtig: mit bestem Spiel 52 Augen für den Macher." in html
    assert "Re (Carl) war falsch: mit bestem Spiel 52 Augen für den Macher." in html


def test_the_value_strip_draws_the_61_line(
    member: PersonaClient, played_game: Game, players: dict[str, Player]
) -> None:
    store(played_game, fuchsen_figures(players))
    html = page(member, played_game)
    points = re.search(r'<polyline class="value-line" points="([^"]+)"', html)
    assert points is not None and len(points.group(1).split()) == 31  # before, and after 30 cards
    assert 'class="win-line"' in html and ">61</text>" in html
    assert "nach jeder Karte (61 gewinnt)" in html


def test_a_tally_only_game_says_why_it_has_no_analysis(
    member: PersonaClient, tally_game: Game
) -> None:
    store(tally_game, status=GameAnalysis.Status.NOT_ANALYSABLE, reason="no_play", answer={})
    html = page(member, tally_game)
    assert "Keine Karten aufgezeichnet" in html
    assert 'data-state="not_analysable"' in html


@pytest.mark.parametrize(
    ("reason", "words"),
    [
        ("hands_unknown", "Nicht alle Hände sind bekannt"),
        ("schurln", "Schurln: jeder spielt für sich"),
        ("invalid", "nicht gültig"),
    ],
)
def test_each_reason_for_no_analysis_is_said_in_words(
    member: PersonaClient, played_game: Game, reason: str, words: str
) -> None:
    store(played_game, status=GameAnalysis.Status.NOT_ANALYSABLE, reason=reason)
    assert words in page(member, played_game)


def test_a_game_without_a_stored_analysis_says_it_is_being_computed_and_polls(
    member: PersonaClient, played_game: Game
) -> None:
    html = page(member, played_game)
    assert "Die Analyse wird berechnet." in html
    assert 'hx-trigger="every 5s"' in html


def test_an_analysis_of_an_earlier_record_counts_as_pending(
    member: PersonaClient, played_game: Game, players: dict[str, Player]
) -> None:
    store(played_game, fuchsen_figures(players), seq=played_game.last_seq - 1)
    html = page(member, played_game)
    assert "Die Analyse wird berechnet." in html and "Hier wurde" not in html


def test_a_too_costly_deal_says_so(member: PersonaClient, played_game: Game) -> None:
    store(played_game, status=GameAnalysis.Status.TOO_COSTLY)
    assert "Zu aufwendig" in page(member, played_game)


def test_a_game_in_progress_has_no_analysis_yet(member: PersonaClient, dealt_game: Game) -> None:
    assert "Das Spiel läuft noch" in page(member, dealt_game)


def test_the_replay_links_to_the_analysis(member: PersonaClient, played_game: Game) -> None:
    html = member.get(f"/games/{played_game.pk}/replay/").content.decode()
    assert f'href="/games/{played_game.pk}/analysis/" id="analysis-link"' in html


def test_a_non_member_gets_404_and_an_anonymous_visitor_the_login(
    outsider: PersonaClient, anonymous: PersonaClient, played_game: Game
) -> None:
    assert outsider.get(f"/games/{played_game.pk}/analysis/").status_code == 404
    response = anonymous.get(f"/games/{played_game.pk}/analysis/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_evening_lists_its_turning_points(
    member: PersonaClient, played_game: Game, evening: Evening, players: dict[str, Player]
) -> None:
    store(played_game, fuchsen_figures(players))
    html = " ".join(member.get(f"/evenings/{evening.pk}/").content.decode().split())
    assert "Wendepunkte des Abends" in html
    assert "Stich 3, Carl spielt Grün-König" in html
    assert f'href="/games/{played_game.pk}/analysis/"' in html


def test_an_evening_without_turning_points_shows_no_such_list(
    member: PersonaClient, played_game: Game, evening: Evening, players: dict[str, Player]
) -> None:
    figures = fuchsen_figures(players) | {"lost_at": None}
    store(played_game, figures)
    assert selectors.evening_analyses(evening=evening) == []
    html = member.get(f"/evenings/{evening.pk}/").content.decode()
    assert "Wendepunkte des Abends" not in html


def test_the_player_page_shows_augen_given_away_per_game_and_the_share_of_best_cards(
    member: PersonaClient, played_game: Game, players: dict[str, Player], evening: Evening
) -> None:
    analysis = store(played_game, fuchsen_figures(players))
    store_player_rows(analysis, {players["carl"]: (5, 4, 7)})
    url = f"/clubs/{evening.club.slug}/players/{players['carl'].pk}/?season={evening.season_id}"
    html = " ".join(member.get(url).content.decode().split())
    assert "<b>7,0</b><span>Augen verschenkt pro Spiel</span>" in html
    assert "<b>80 %</b><span>seiner Karten waren die besten</span>" in html


def test_a_stale_analysis_does_not_count_on_the_player_page(
    member: PersonaClient, played_game: Game, players: dict[str, Player], evening: Evening
) -> None:
    analysis = store(played_game, fuchsen_figures(players), seq=played_game.last_seq - 1)
    store_player_rows(analysis, {players["carl"]: (5, 4, 7)})
    url = f"/clubs/{evening.club.slug}/players/{players['carl'].pk}/?season={evening.season_id}"
    assert "Augen verschenkt" not in member.get(url).content.decode()
