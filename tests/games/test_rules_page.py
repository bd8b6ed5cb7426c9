"""The "Regeln" pages: the rules in force for a club's game, an evening and a game,
every figure the engine's (``engine.rules_table``), changing with the club's profile."""

from __future__ import annotations

import re
from typing import Any

import pytest

from clubs.models import Club, GameKind, Player, Season
from engine.rules_table import rules_table
from games.models import Evening, Game
from tests.conftest import PersonaClient
from tests.factories import RuleProfileFactory, SeasonFactory

pytestmark = pytest.mark.django_db

FUCHSEN_CHANGES = {
    "removed_cards": ["E7", "S7"],
    "level_values": {"re": 25, "end": 60},
    "silent_bonus": 15,
    "fuchs_penalty": 20,
}
KOENIG_CHANGES = {"values": {"bettler": 35, "koenigmord": 90, "schurln": 20}}


def _text(html: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode()))


def _row(html: bytes, row_id: str) -> str:
    return _text(html.split(f'id="{row_id}"'.encode())[1].split(b"</tr>")[0])


def _profile(club: Club, kind: str, overrides: dict[str, Any]) -> None:
    """The club's open season of ``kind`` plays under a profile with ``overrides``."""
    season = Season.objects.filter(club=club, game_kind=kind, status=Season.Status.OPEN).first()
    if season is None:
        season = SeasonFactory.create(club=club, game_kind=kind)
    season.rule_profile = RuleProfileFactory.create(
        club=club, game_kind=kind, name="Hausregeln", overrides=overrides
    )
    season.save(update_fields=["rule_profile"])


def test_the_fuchsen_page_shows_the_defaults_of_the_engine(
    club: Club, member: PersonaClient
) -> None:
    html = member.get(f"/clubs/{club.slug}/rules/fuchsen/").content
    text = _text(html)
    table = rules_table("fuchsen", None)
    # The trumps in the engine's order, the removed cards of five players.
    drawn = re.findall(rb'data-card="([A-Z0-9]+)"', html)
    trumps = [c.decode() for c in drawn[: len(table["trumps"])]]
    assert trumps == table["trumps"]
    assert trumps[:7] == ["EO", "GO", "EU", "GU", "SU", "RU", "RA"]
    assert b'id="removed"' in html and b'data-card="S7"' in html
    assert "Die Standardregeln, keine Hausregel geändert." in text
    # re is worth 20 ct by default, end 50 ct; the Macher of five gets twice that.
    re_row, end_row = _row(html, "level-re"), _row(html, "level-end")
    assert "20 ct" in re_row and "+40 ct" in re_row and "-20 ct" in re_row
    assert "50 ct" in end_row and "+100 ct" in end_row


def test_a_club_that_changes_its_profile_sees_the_fuchsen_page_change(
    club: Club, member: PersonaClient
) -> None:
    before = _text(member.get(f"/clubs/{club.slug}/rules/fuchsen/").content)
    _profile(club, GameKind.FUCHSEN, FUCHSEN_CHANGES)
    response = member.get(f"/clubs/{club.slug}/rules/fuchsen/")
    after, html = _text(response.content), response.content
    table = rules_table("fuchsen", FUCHSEN_CHANGES)
    re_row = next(row for row in table["levels"] if row["level"] == "re")
    assert re_row["value"] == 30  # 25 + game cost 5: the engine's figure
    assert "Hausregeln" in after and after != before
    row = _row(html, "level-re")
    assert f"{re_row['value']} ct" in row and f"+{re_row['payouts']['macher']} ct" in row
    assert f"{re_row['silent_value']} ct" in row and f"{re_row['forgotten_value']} ct" in row
    assert "Seite des Machers" in row  # who says re, as the engine's view offers it
    end = next(row for row in table["levels"] if row["level"] == "end")
    assert end["value"] == 70 and "70 ct" in _row(html, "level-end")
    removed = html.split(b'id="removed"')[1].split(b"</p>")[0]
    assert re.findall(rb'data-card="([A-Z0-9]+)"', removed) == [b"E7", b"S7"]


def test_a_club_that_changes_its_profile_sees_the_koenigrufen_page_change(
    club: Club, member: PersonaClient
) -> None:
    url = f"/clubs/{club.slug}/rules/koenigrufen/"
    assert "35 ct" not in _row(member.get(url).content, "contract-bettler")
    _profile(club, GameKind.KOENIGRUFEN, KOENIG_CHANGES)
    html = member.get(url).content
    table = rules_table("koenigrufen", KOENIG_CHANGES)
    for contract in table["contracts"]:
        row = _row(html, f"contract-{contract['contract']}")
        assert f"{contract['value']} ct" in row, contract["contract"]
        assert f"+{contract['won']['macher']} ct" in row, contract["contract"]
    bettler = _row(html, "contract-bettler")
    assert "35 ct" in bettler and "+105 ct" in bettler  # alone: three times the value
    koenigmord = _row(html, "contract-koenigmord")
    assert "90 ct" in koenigmord and "+270 ct" in koenigmord
    schurln = _text(html.split(b'id="schurln"')[1].split(b"</table>")[0])
    assert "-60 ct" in schurln and "+20 ct" in schurln  # one loser pays three others
    # Ten high where the engine orders the ten under the ace.
    assert "Zehner hoch" in _row(html, "contract-zehnermord")
    assert "Zehner hoch" not in _row(html, "contract-koenigmord")


def test_a_past_game_links_to_the_rules_it_was_played_under_not_the_clubs_new_ones(
    club: Club, member: PersonaClient, evening: Evening, dealt_game: Game
) -> None:
    game_page = member.get(f"/games/{dealt_game.pk}/").content
    assert f'href="/games/{dealt_game.pk}/rules/"'.encode() in game_page
    _profile(club, GameKind.FUCHSEN, FUCHSEN_CHANGES)  # changed after the game started
    game_re = _row(member.get(f"/games/{dealt_game.pk}/rules/").content, "level-re")
    default_re = next(r for r in rules_table("fuchsen", None)["levels"] if r["level"] == "re")
    assert f"+{default_re['payouts']['macher']} ct" in game_re and "+60 ct" not in game_re
    club_re = _row(member.get(f"/clubs/{club.slug}/rules/fuchsen/").content, "level-re")
    assert "+60 ct" in club_re  # the club's rules now: re worth 30, the Macher +60


def test_the_evening_links_what_applies_here(
    member: PersonaClient, evening: Evening, players: dict[str, Player]
) -> None:
    html = member.get(f"/evenings/{evening.pk}/").content.decode()
    assert f'href="/evenings/{evening.pk}/rules/"' in html
    assert "Was gilt bei uns?" in html
    assert member.get(f"/evenings/{evening.pk}/rules/").status_code == 200


def test_the_score_book_links_the_rules_of_both_games(club: Club, member: PersonaClient) -> None:
    html = member.get(f"/clubs/{club.slug}/book/").content.decode()
    for game in ("fuchsen", "koenigrufen"):
        assert f'href="/clubs/{club.slug}/rules/{game}/"' in html


def test_outsiders_get_404_and_an_unknown_game_is_a_404(
    club: Club, outsider: PersonaClient, member: PersonaClient, dealt_game: Game
) -> None:
    assert outsider.get(f"/clubs/{club.slug}/rules/fuchsen/").status_code == 404
    assert outsider.get(f"/games/{dealt_game.pk}/rules/").status_code == 404
    assert member.get(f"/clubs/{club.slug}/rules/skat/").status_code == 404
