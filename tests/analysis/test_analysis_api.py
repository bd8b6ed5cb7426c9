"""``GET /api/games/{id}/analysis/``: the stored analysis at the game's last seq, or the
state it is in. (``test_analysis_task.py`` has the same answer from the engine itself.)"""

from __future__ import annotations

import pytest

from analysis.models import GameAnalysis
from clubs.models import Player
from games.models import Game
from tests.analysis.hand_written import fuchsen_figures, store
from tests.conftest import PersonaClient

pytestmark = pytest.mark.django_db


def test_a_stored_analysis_is_answered_with_the_engines_answer_and_figures(
    member: PersonaClient, played_game: Game, players: dict[str, Player]
) -> None:
    figures = fuchsen_figures(players)
    store(played_game, figures, answer={"status": "analysed", "cards": [{"index": 2}]})
    body = member.get(f"/api/games/{played_game.pk}/analysis/").json()
    assert body["state"] == "analysed" and body["last_seq"] == played_game.last_seq
    assert body["answer"] == {"status": "analysed", "cards": [{"index": 2}]}
    assert body["figures"]["lost_at"] == figures["lost_at"]
    assert body["duration_ms"] == 420 and body["reason"] is None


def test_an_analysis_of_an_earlier_record_is_not_answered_as_current(
    member: PersonaClient, played_game: Game, players: dict[str, Player]
) -> None:
    store(played_game, fuchsen_figures(players), seq=played_game.last_seq - 1)
    body = member.get(f"/api/games/{played_game.pk}/analysis/").json()
    assert body["state"] == "pending"
    assert body["answer"] is None and body["figures"] is None


def test_a_game_not_analysable_says_the_engines_reason(
    member: PersonaClient, tally_game: Game
) -> None:
    store(tally_game, status=GameAnalysis.Status.NOT_ANALYSABLE, reason="no_play", answer={})
    body = member.get(f"/api/games/{tally_game.pk}/analysis/").json()
    assert body["state"] == "not_analysable" and body["reason"] == "no_play"


def test_a_game_in_progress_is_said_to_be_in_progress(
    member: PersonaClient, dealt_game: Game
) -> None:
    body = member.get(f"/api/games/{dealt_game.pk}/analysis/").json()
    assert body["state"] == "in_progress" and body["answer"] is None


def test_an_unknown_game_is_a_404(member: PersonaClient) -> None:
    assert member.get("/api/games/999999/analysis/").status_code == 404
