"""A Stilles Spiel's value names its bonus wherever a finished game's value is shown —
the evening's games, the replay, the result form's preview, "Ergebnis ändern" — so a
Supp game's 35 ct is never left unexplained. The bonus is the game's own house rule
(``silent_bonus``), whether the game was one the engine's ``Result.silent``."""

from __future__ import annotations

import re

import pytest

from clubs.models import Player
from games import selectors, services
from games.models import Evening, Game
from tests.conftest import PersonaClient
from tests.factories import RuleProfileFactory

pytestmark = pytest.mark.django_db


def _game(evening: Evening, players: dict[str, Player], **tally: object) -> Game:
    """Bert calls the Eichel-Sau, Carl holds it; the tally as given."""
    deal = selectors.next_deal(evening=evening).event
    assert deal is not None
    events = [
        deal,
        {"type": "call", "player": str(players["bert"].pk), "card": "EA"},
        {"type": "tally", "partner": str(players["carl"].pk), **tally},
    ]
    return services.game_started(evening=evening, user=None, events=events).game


def _hidden(html: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="([a-z]+)" value="([^"]*)"', html))


def test_a_stilles_spiel_names_its_bonus_in_the_evenings_games_and_the_replay(
    evening: Evening, players: dict[str, Player], scorer: PersonaClient
) -> None:
    silent = _game(evening, players, level="supp", won=True, silent=True)
    plain = _game(evening, players, level="supp", won=True)
    assert silent.result["value"] == 35 and plain.result["value"] == 25  # default rules
    page = scorer.get(f"/evenings/{evening.pk}/").content.decode()
    assert "35 ct (Stilles Spiel +10 ct)" in page
    assert "25 ct (Stilles Spiel" not in page  # a game that was none says nothing of it
    replay = scorer.get(f"/games/{silent.pk}/replay/").content.decode()
    assert "35 ct (Stilles Spiel +10 ct)" in replay
    assert "Stilles Spiel +" not in scorer.get(f"/games/{plain.pk}/replay/").content.decode()


def test_the_result_forms_preview_and_the_change_form_name_the_bonus_before_saving(
    evening: Evening, players: dict[str, Player], scorer: PersonaClient
) -> None:
    state: dict[str, str] = {}
    html = ""
    picks = [
        f"macher:{players['bert'].pk}",
        "called:EA",
        f"partner:{players['carl'].pk}",
        "level:supp",
        "won:silent",
    ]
    for pick in picks:
        answer = scorer.post(
            f"/evenings/{evening.pk}/tally/",
            {**state, "pick": pick},
            format="multipart",
            HTTP_HX_REQUEST="true",
        )
        html = answer.content.decode()
        state = _hidden(html)
    preview = html[html.index("tally-preview") :]
    assert "35 ct (Stilles Spiel +10 ct)" in preview
    game = _game(evening, players, level="supp", won=True, silent=True)
    change = scorer.get(f"/games/{game.pk}/change/").content.decode()
    assert "35 ct (Stilles Spiel +10 ct)" in change[change.index("tally-preview") :]


def test_the_bonus_named_is_the_games_own_house_rule(
    evening: Evening, players: dict[str, Player], scorer: PersonaClient
) -> None:
    profile = RuleProfileFactory.create(club=evening.club, overrides={"silent_bonus": 5})
    evening.rule_profile = profile
    evening.save(update_fields=["rule_profile"])
    game = _game(evening, players, level="supp", won=True, silent=True)
    assert game.house_rules == {"silent_bonus": 5} and game.result["value"] == 30
    # The profile changed afterwards: the game keeps the rules it was played under.
    profile.overrides = {"silent_bonus": 20}
    profile.save(update_fields=["overrides"])
    page = scorer.get(f"/evenings/{evening.pk}/").content.decode()
    assert "30 ct (Stilles Spiel +5 ct)" in page
    assert "Stilles Spiel +10 ct" not in page and "Stilles Spiel +20 ct" not in page
    assert "30 ct (Stilles Spiel +5 ct)" in scorer.get(f"/games/{game.pk}/replay/").content.decode()
